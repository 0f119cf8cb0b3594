import { and, count, desc, eq, gte, ilike, lt, lte, max, sql, type SQL } from 'drizzle-orm';
import type { AuditEntry, AuditSort, SortOrder } from '@app/contract';
import type { Executor } from '../../db/client';
import { auditLog, users } from '../../db/schema';
import { iso } from '../../lib/numbers';
import { likePattern, sortedBy } from '../../lib/sql';

type AuditRow = typeof auditLog.$inferSelect;

export const toAuditEntry = (
  row: AuditRow,
  actorUsername: string | null,
  entityName: string | null = null,
): AuditEntry => ({
  id: row.id,
  occurred_at: iso(row.occurredAt),
  actor_user_id: row.actorUserId,
  actor_username: actorUsername,
  action: row.action,
  entity_type: row.entityType,
  entity_id: row.entityId,
  entity_name: entityName,
  before: row.before ?? null,
  after: row.after ?? null,
  ip: row.ip,
});

/**
 * Which audit rows a caller sees (decision 0036), by what each row is about:
 * - `all` (admin): every row;
 * - `companies` (Group HR): the company side of the programme (rows about a company, an employee,
 *   or a user belonging to a company: company admins, employees' sign-ins) and rows about itself;
 * - `company` (company admin): rows about its company, its employees and its company's users.
 */
export type AuditScope =
  | { kind: 'all' }
  | { kind: 'companies'; selfUserId: number }
  | { kind: 'company'; companyId: number };

/** An entity id as a bigint, or null when it is not a number (never a cast error). */
const entityIdAsBigint = sql`CASE WHEN ${auditLog.entityId} ~ '^[0-9]{1,18}$' THEN ${auditLog.entityId}::bigint END`;

/**
 * The company an audit row is about, as text, or NULL: a company row names it; an employee row
 * through the employee (an import row, which names no employee, through its `after.company_id`);
 * a user or sign-in row through the user's company; an approval row through the approval's
 * company (decision 0039); a webhook endpoint by its own `company_id` (decision 0038). Every other
 * record type (merchants, terminals, system settings, the approval policy, admins, merchant users,
 * unknown sign-in names) has none.
 */
const rowCompany = sql`(CASE
  WHEN ${auditLog.entityType} = 'company' THEN ${auditLog.entityId}
  WHEN ${auditLog.entityType} = 'employee' THEN COALESCE(
    (SELECT e.company_id::text FROM employees e WHERE e.id = ${entityIdAsBigint}),
    ${auditLog.after} ->> 'company_id')
  WHEN ${auditLog.entityType} IN ('user', 'sign_in') THEN
    (SELECT u.company_id::text FROM users u WHERE u.id = ${entityIdAsBigint})
  WHEN ${auditLog.entityType} = 'approval' THEN
    (SELECT a.company_id::text FROM approvals a WHERE a.id = ${entityIdAsBigint})
  WHEN ${auditLog.entityType} = 'webhook_endpoint' THEN COALESCE(
    ${auditLog.after} ->> 'company_id', ${auditLog.before} ->> 'company_id')
END)`;

/** The one scope rule of the audit log, shared by the list and its export. */
export function auditScopeWhere(scope: AuditScope): SQL | undefined {
  switch (scope.kind) {
    case 'all':
      return undefined;
    case 'companies':
      return sql`(${rowCompany} IS NOT NULL OR (${auditLog.entityType} IN ('user', 'sign_in')
        AND ${auditLog.entityId} = ${String(scope.selfUserId)}))`;
    case 'company':
      return sql`${rowCompany} = ${String(scope.companyId)}`;
  }
}

/**
 * The client address a caller sees: a company admin only that of its own company's people and of
 * sign-in attempts (no actor); not the address of the platform's staff acting on its company.
 */
function visibleIp(scope: AuditScope): SQL<string | null> {
  if (scope.kind !== 'company') return sql<string | null>`${auditLog.ip}`;
  return sql<string | null>`CASE WHEN ${auditLog.actorUserId} IS NULL
    OR ${users.companyId} = ${scope.companyId} THEN ${auditLog.ip} END`;
}

export interface AuditFilter {
  scope: AuditScope;
  entityType?: string | undefined;
  entityId?: string | undefined;
  actorUserId?: number | undefined;
  /** Part of the acting user's username, any case. */
  actor?: string | undefined;
  action?: string | undefined;
  /** From this instant, included. */
  from?: Date | undefined;
  /** Up to this instant, excluded. */
  to?: Date | undefined;
  sort?: AuditSort | undefined;
  order?: SortOrder | undefined;
  /** Rows up to this id only: an export's batches then ignore rows written after it began. */
  maxId?: number | undefined;
}

function whereOf(filter: AuditFilter): SQL | undefined {
  return and(
    auditScopeWhere(filter.scope),
    filter.entityType ? eq(auditLog.entityType, filter.entityType) : undefined,
    filter.entityId ? eq(auditLog.entityId, filter.entityId) : undefined,
    filter.actorUserId !== undefined ? eq(auditLog.actorUserId, filter.actorUserId) : undefined,
    filter.actor ? ilike(users.username, likePattern(filter.actor)) : undefined,
    filter.action ? eq(auditLog.action, filter.action) : undefined,
    filter.from ? gte(auditLog.occurredAt, filter.from) : undefined,
    filter.to ? lt(auditLog.occurredAt, filter.to) : undefined,
    filter.maxId !== undefined ? lte(auditLog.id, filter.maxId) : undefined,
  );
}

const SORT_COLUMNS = {
  occurred_at: auditLog.occurredAt,
  action: auditLog.action,
  entity_type: auditLog.entityType,
  actor_username: users.username,
} as const;

function orderOf(filter: AuditFilter): SQL[] {
  if (!filter.sort) return [desc(auditLog.occurredAt), desc(auditLog.id)];
  return sortedBy(SORT_COLUMNS[filter.sort], auditLog.id, filter.order ?? 'asc');
}

/**
 * The record's name as it is now, for the records people know by name: a company, merchant or
 * terminal by its name, an employee by name (else staff number), a user by username. A row about
 * a distribution or a top-up (on its company) then reads "Acme Ltd (#3)", not "#3". Null for
 * other records and for one since deleted (its last name is in the row's before/after).
 */
const entityName = sql<string | null>`CASE WHEN ${auditLog.entityId} ~ '^[0-9]{1,15}$' THEN
  CASE ${auditLog.entityType}
    WHEN 'company' THEN (SELECT c.name FROM companies c WHERE c.id = ${auditLog.entityId}::bigint)
    WHEN 'merchant' THEN (SELECT m.name FROM merchants m WHERE m.id = ${auditLog.entityId}::bigint)
    WHEN 'terminal' THEN (SELECT t.name FROM terminals t WHERE t.id = ${auditLog.entityId}::bigint)
    WHEN 'employee' THEN (SELECT coalesce(e.name, e.employee_id) FROM employees e
                           WHERE e.id = ${auditLog.entityId}::bigint)
    WHEN 'user' THEN (SELECT u.username FROM users u WHERE u.id = ${auditLog.entityId}::bigint)
  END
END`;

/**
 * Rows of the audit log in the filter's order (newest first by default, ties: the later row
 * first), `limit` of them from `offset`. The list pages with it, the export reads it in batches.
 */
export async function findAuditRows(
  executor: Executor,
  filter: AuditFilter,
  { limit, offset }: { limit: number; offset: number },
): Promise<AuditEntry[]> {
  const rows = await executor
    .select({
      entry: auditLog,
      actorUsername: users.username,
      entityName,
      ip: visibleIp(filter.scope),
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorUserId))
    .where(whereOf(filter))
    .orderBy(...orderOf(filter))
    .limit(limit)
    .offset(offset);
  return rows.map((r) => ({
    ...toAuditEntry(r.entry, r.actorUsername, r.entityName ?? null),
    ip: r.ip,
  }));
}

/** How many rows the filter holds, counting no further than `upTo` when given. */
export async function countAuditRows(
  executor: Executor,
  filter: AuditFilter,
  upTo?: number,
): Promise<number> {
  const matching = executor
    .select({ id: auditLog.id })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorUserId))
    .where(whereOf(filter));
  const limited = (upTo === undefined ? matching : matching.limit(upTo)).as('matching');
  const [total] = await executor.select({ n: count() }).from(limited);
  return Number(total?.n ?? 0);
}

/** The newest audit row's id (0 on an empty log). */
export async function lastAuditId(executor: Executor): Promise<number> {
  const [row] = await executor.select({ id: max(auditLog.id) }).from(auditLog);
  return Number(row?.id ?? 0);
}
