import { sql, type SQL } from 'drizzle-orm';
import type { ApprovalKind, ApprovalPayload, ApprovalStatus } from '@app/contract';
import { queryRows, type Executor, type Tx } from '../../db/client';
import { toInt, toIntOrNull } from '../../lib/numbers';
import type { ApprovalScope } from '../../lib/scope';
import { linkedSql } from '../iam';

export interface ApprovalPolicyRow {
  topUpThreshold: number | null;
  distributionThreshold: number | null;
  updatedAt: Date | null;
  updatedBy: number | null;
}

export interface ApprovalRow {
  id: number;
  kind: ApprovalKind;
  status: ApprovalStatus;
  companyId: number;
  requestedBy: number;
  requestedByUsername: string | null;
  payload: ApprovalPayload;
  total: number;
  createdAt: Date;
  expiresAt: Date;
  decidedBy: number | null;
  decidedByUsername: string | null;
  decidedAt: Date | null;
  reason: string | null;
}

const date = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)));

const toPolicy = (r: Record<string, unknown>): ApprovalPolicyRow => ({
  topUpThreshold: toIntOrNull(r.top_up_threshold),
  distributionThreshold: toIntOrNull(r.distribution_threshold),
  updatedAt: r.updated_at == null ? null : date(r.updated_at),
  updatedBy: toIntOrNull(r.updated_by),
});

export async function getApprovalPolicy(executor: Executor): Promise<ApprovalPolicyRow> {
  const [row] = await queryRows<Record<string, unknown>>(
    executor,
    sql`SELECT top_up_threshold, distribution_threshold, updated_at, updated_by
          FROM approval_policy WHERE id`,
  );
  return row
    ? toPolicy(row)
    : { topUpThreshold: null, distributionThreshold: null, updatedAt: null, updatedBy: null };
}

/** Locks the policy row, so two changes take turns and each audit row's "before" is true. */
export async function lockApprovalPolicy(tx: Tx): Promise<ApprovalPolicyRow> {
  const [row] = await queryRows<Record<string, unknown>>(
    tx,
    sql`SELECT top_up_threshold, distribution_threshold, updated_at, updated_by
          FROM approval_policy WHERE id FOR UPDATE`,
  );
  return toPolicy(row!);
}

export async function updateApprovalPolicy(
  tx: Tx,
  policy: { topUpThreshold: number | null; distributionThreshold: number | null },
  at: Date,
  by: number | null,
): Promise<ApprovalPolicyRow> {
  const [row] = await queryRows<Record<string, unknown>>(
    tx,
    sql`UPDATE approval_policy
           SET top_up_threshold = ${policy.topUpThreshold},
               distribution_threshold = ${policy.distributionThreshold},
               updated_at = ${at.toISOString()}::timestamptz, updated_by = ${by}
         WHERE id
     RETURNING top_up_threshold, distribution_threshold, updated_at, updated_by`,
  );
  return toPolicy(row!);
}

const SELECT_APPROVAL = sql`SELECT a.id, a.kind, a.status, a.company_id, a.requested_by,
    r.username AS requested_by_username, a.payload, a.total, a.created_at, a.expires_at,
    a.decided_by, d.username AS decided_by_username, a.decided_at, a.reason
  FROM approvals a
  LEFT JOIN users r ON r.id = a.requested_by
  LEFT JOIN users d ON d.id = a.decided_by`;

const toApprovalRow = (r: Record<string, unknown>): ApprovalRow => ({
  id: toInt(r.id),
  kind: r.kind as ApprovalKind,
  status: r.status as ApprovalStatus,
  companyId: toInt(r.company_id),
  requestedBy: toInt(r.requested_by),
  requestedByUsername: (r.requested_by_username as string | null) ?? null,
  payload: (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as ApprovalPayload,
  total: toInt(r.total),
  createdAt: date(r.created_at),
  expiresAt: date(r.expires_at),
  decidedBy: toIntOrNull(r.decided_by),
  decidedByUsername: (r.decided_by_username as string | null) ?? null,
  decidedAt: r.decided_at == null ? null : date(r.decided_at),
  reason: (r.reason as string | null) ?? null,
});

export async function insertApproval(
  tx: Tx,
  input: {
    kind: ApprovalKind;
    companyId: number;
    requestedBy: number;
    payload: ApprovalPayload;
    total: number;
    createdAt: Date;
    expiresAt: Date;
  },
): Promise<ApprovalRow> {
  const [inserted] = await queryRows<{ id: unknown }>(
    tx,
    sql`INSERT INTO approvals (kind, company_id, requested_by, payload, total, created_at, expires_at)
        VALUES (${input.kind}, ${input.companyId}, ${input.requestedBy},
                ${JSON.stringify(input.payload)}::jsonb, ${input.total},
                ${input.createdAt.toISOString()}::timestamptz,
                ${input.expiresAt.toISOString()}::timestamptz)
        RETURNING id`,
  );
  return (await lookupApprovalRow(tx, toInt(inserted!.id)))!;
}

export async function lookupApprovalRow(
  executor: Executor,
  id: number,
): Promise<ApprovalRow | undefined> {
  const [row] = await queryRows<Record<string, unknown>>(
    executor,
    sql`${SELECT_APPROVAL} WHERE a.id = ${id}`,
  );
  return row ? toApprovalRow(row) : undefined;
}

/**
 * Locks one approval row: every decision on it (approve, reject, expire) takes this lock first, so
 * concurrent approvals queue here and only the first finds it pending.
 */
export async function lockApprovalRow(tx: Tx, id: number): Promise<ApprovalRow | undefined> {
  const [locked] = await queryRows<{ id: unknown }>(
    tx,
    sql`SELECT id FROM approvals WHERE id = ${id} FOR UPDATE`,
  );
  return locked ? lookupApprovalRow(tx, id) : undefined;
}

export async function setApprovalDecision(
  tx: Tx,
  id: number,
  decision: {
    status: Exclude<ApprovalStatus, 'pending'>;
    decidedBy: number | null;
    decidedAt: Date;
    reason?: string | null;
  },
): Promise<ApprovalRow> {
  await tx.execute(
    sql`UPDATE approvals
           SET status = ${decision.status}, decided_by = ${decision.decidedBy},
               decided_at = ${decision.decidedAt.toISOString()}::timestamptz,
               reason = ${decision.reason ?? null}
         WHERE id = ${id} AND status = 'pending'`,
  );
  return (await lookupApprovalRow(tx, id))!;
}

export interface ApprovalListFilter {
  scope: ApprovalScope;
  statuses?: ApprovalStatus[] | undefined;
  kind?: ApprovalKind | undefined;
  /** Leave out the requests of this user (its own, which it cannot decide). */
  exceptRequestedBy?: number | undefined;
  /** With `exceptRequestedBy`: also those of users linked to it since this time (decision 0069). */
  exceptLinkedSince?: Date | undefined;
}

function whereOf(filter: ApprovalListFilter): SQL {
  const parts: SQL[] = [sql`a.kind = ANY(${sql.param(filter.scope.kinds)}::text[])`];
  if (filter.scope.companyId !== undefined) {
    parts.push(sql`a.company_id = ${filter.scope.companyId}`);
  }
  if (filter.statuses?.length) {
    parts.push(sql`a.status = ANY(${sql.param(filter.statuses)}::text[])`);
  }
  if (filter.kind) parts.push(sql`a.kind = ${filter.kind}`);
  if (filter.exceptRequestedBy !== undefined) {
    parts.push(sql`a.requested_by <> ${filter.exceptRequestedBy}`);
    if (filter.exceptLinkedSince !== undefined) {
      parts.push(
        sql`NOT ${linkedSql(sql`${filter.exceptRequestedBy}::bigint`, sql`a.requested_by`, filter.exceptLinkedSince)}`,
      );
    }
  }
  return sql.join(parts, sql` AND `);
}

/** Newest first: pending work reads top-down, decided history too. */
export async function findApprovalRows(
  executor: Executor,
  filter: ApprovalListFilter,
  page: { limit: number; offset: number },
): Promise<ApprovalRow[]> {
  const rows = await queryRows<Record<string, unknown>>(
    executor,
    sql`${SELECT_APPROVAL} WHERE ${whereOf(filter)}
        ORDER BY a.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
  );
  return rows.map(toApprovalRow);
}

export async function countApprovalRows(
  executor: Executor,
  filter: ApprovalListFilter,
): Promise<number> {
  const [row] = await queryRows<{ n: unknown }>(
    executor,
    sql`SELECT count(*) AS n FROM approvals a WHERE ${whereOf(filter)}`,
  );
  return toInt(row!.n);
}

/**
 * How many active people other than `exceptUserId` could decide a request of this kind for this
 * company: other admins for a top-up; Group HR or the company's other company admins for a
 * distribution; none linked to `exceptUserId` since `unlinkedSince` (decision 0069).
 */
export async function countOtherDeciders(
  executor: Executor,
  input: { kind: ApprovalKind; companyId: number; exceptUserId: number; unlinkedSince: Date },
): Promise<number> {
  const who =
    input.kind === 'top_up'
      ? sql`type = 'admin'`
      : sql`(type = 'super_hr' OR (type = 'company_admin' AND company_id = ${input.companyId}))`;
  const [row] = await queryRows<{ n: unknown }>(
    executor,
    sql`SELECT count(*) AS n FROM users
         WHERE ${who} AND status = 'active' AND deleted_at IS NULL AND id <> ${input.exceptUserId}
           AND NOT ${linkedSql(sql`users.id`, sql`${input.exceptUserId}::bigint`, input.unlinkedSince)}`,
  );
  return toInt(row!.n);
}

/** Pending requests past their expiry, oldest first, locked; ones being decided are skipped. */
export async function lockExpiredApprovals(tx: Tx, now: Date, limit: number): Promise<number[]> {
  const rows = await queryRows<{ id: unknown }>(
    tx,
    sql`SELECT id FROM approvals
         WHERE status = 'pending' AND expires_at <= ${now.toISOString()}::timestamptz
         ORDER BY expires_at, id LIMIT ${limit}
         FOR UPDATE SKIP LOCKED`,
  );
  return rows.map((r) => toInt(r.id));
}

/** A live company's name, or undefined. */
export async function lookupCompanyName(
  executor: Executor,
  companyId: number,
): Promise<string | undefined> {
  const [row] = await queryRows<{ name: string }>(
    executor,
    sql`SELECT name FROM companies WHERE id = ${companyId}`,
  );
  return row?.name;
}

/** The company's live employees among these ids, with staff number and name (for the payload). */
export async function findPayloadEmployees(
  executor: Executor,
  companyId: number,
  ids: number[],
): Promise<{ id: number; staffNumber: string; name: string | null }[]> {
  if (ids.length === 0) return [];
  const rows = await queryRows<Record<string, unknown>>(
    executor,
    sql`SELECT id, employee_id, name FROM employees
         WHERE company_id = ${companyId} AND deleted_at IS NULL
           AND id = ANY(${sql.param(ids)}::bigint[])`,
  );
  return rows.map((r) => ({
    id: toInt(r.id),
    staffNumber: r.employee_id as string,
    name: (r.name as string | null) ?? null,
  }));
}

/** Employees by internal id, live or not, with their staff number and name as they are now. */
export async function findCurrentPayees(
  executor: Executor,
  ids: number[],
): Promise<Map<number, { staffNumber: string; name: string | null }>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows<Record<string, unknown>>(
    executor,
    sql`SELECT id, employee_id, name FROM employees WHERE id = ANY(${sql.param(ids)}::bigint[])`,
  );
  return new Map(
    rows.map((r) => [
      toInt(r.id),
      { staffNumber: r.employee_id as string, name: (r.name as string | null) ?? null },
    ]),
  );
}

/**
 * What `actorUserId` applied to this company without approval since `since` (the splitting rule,
 * decision 0069): its `company_issued` (top-up) or employee-side `employee_issued` (distribution)
 * ledger rows, less the approved requests it decided in that time (their rows carry the decider as
 * actor, and are applied at the decision's time, for the request's total).
 */
export async function sumAppliedWithoutApproval(
  executor: Executor,
  input: { kind: ApprovalKind; companyId: number; actorUserId: number; since: Date },
): Promise<number> {
  // A literal, so the planner can prove the partial index's predicate (migration 0033).
  const event = input.kind === 'top_up' ? sql`'company_issued'` : sql`'employee_issued'`;
  const since = input.since.toISOString();
  const [row] = await queryRows<{ applied: unknown; approved: unknown }>(
    executor,
    sql`SELECT
          (SELECT coalesce(sum(amount), 0) FROM token_transactions
            WHERE actor_user_id = ${input.actorUserId} AND company_id = ${input.companyId}
              AND event = ${event} AND direction = 'received'
              AND occurred_at > ${since}::timestamptz) AS applied,
          (SELECT coalesce(sum(total), 0) FROM approvals
            WHERE decided_by = ${input.actorUserId} AND company_id = ${input.companyId}
              AND kind = ${input.kind} AND status = 'approved'
              AND decided_at > ${since}::timestamptz) AS approved`,
  );
  return Math.max(0, Number(row!.applied) - Number(row!.approved));
}
