import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { LRUCache } from 'lru-cache';
import type { Employee, EmployeeSort, SortOrder, Status } from '@app/contract';
import type { Executor, Tx } from '../../db/client';
import { queryRows } from '../../db/client';
import { employees } from '../../db/schema';
import { iso, toInt, toIntOrNull } from '../../lib/numbers';
import type { TenantScope } from '../../lib/scope';
import { likePattern, sortedBy } from '../../lib/sql';
import type { EmployeeRow } from '../../db/schema';

/**
 * The live employees a scope may see, as a condition on the alias `e` inside the query. Deleted
 * employees (decision 0008) are outside every scope: not found, like another company's.
 */
function employeeScope(scope: TenantScope): SQL {
  switch (scope.kind) {
    case 'all':
      return sql`e.deleted_at IS NULL`;
    case 'company':
      return sql`e.deleted_at IS NULL AND e.company_id = ${scope.companyId}`;
    case 'self':
      return sql`e.deleted_at IS NULL AND e.company_id = ${scope.companyId}
        AND e.employee_id = ${scope.employeeId}`;
    case 'merchant':
      return sql`false`;
  }
}

interface EmployeeViewRow {
  id: unknown;
  company_id: unknown;
  employee_id: string;
  name: string | null;
  email: string | null;
  status: Status;
  available_tokens: unknown;
  monthly_tokens: unknown;
  token_month: string;
  created_at: Date | string;
  updated_at: Date | string;
  issued_tokens: unknown;
  consumed_tokens: unknown;
  has_account: boolean;
}

const toEmployee = (r: EmployeeViewRow): Employee => ({
  id: toInt(r.id),
  company_id: toInt(r.company_id),
  employee_id: r.employee_id,
  name: r.name,
  email: r.email,
  status: r.status,
  available_tokens: toInt(r.available_tokens),
  consumed_tokens: toInt(r.consumed_tokens),
  issued_tokens: toInt(r.issued_tokens),
  token_month: r.token_month,
  monthly_tokens: toIntOrNull(r.monthly_tokens),
  has_account: r.has_account,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

/**
 * The current token month of the employee `e` (decision 0008): `issued` is what reached the wallet
 * in it (distributions and the renewal); `consumed` is what its orders took in it, less what was
 * refunded of those same orders. A refund landing this month for an order of an earlier month
 * goes back to `available` but is not subtracted here, so `consumed` never goes below zero.
 */
export const EMPLOYEE_MONTH_TOTALS = sql`
    SELECT coalesce(sum(t.amount) FILTER (
             WHERE t.event IN ('employee_issued', 'monthly_tokens_reset')), 0) AS issued,
           coalesce(sum(t.amount) FILTER (WHERE t.event = 'order_purchased'), 0)
             - coalesce(sum(t.amount) FILTER (
                 WHERE t.event = 'order_refunded' AND EXISTS (
                   SELECT 1 FROM token_transactions p
                    WHERE p.order_id = t.order_id AND p.event = 'order_purchased'
                      AND p.period = t.period)), 0) AS consumed
      FROM token_transactions t
     WHERE t.employee_id = e.id AND t.period = e.token_month`;

/** The live sign-in of the employee `e` (decision 0033): company and staff number. */
const EMPLOYEE_ACCOUNT_OF_E = sql`
    SELECT 1 FROM users u
     WHERE u.type = 'company_employee' AND u.deleted_at IS NULL
       AND u.company_id = e.company_id AND u.employee_id = e.employee_id`;

const VIEW = sql`
  SELECT e.id, e.company_id, e.employee_id, e.name, e.email, e.status, e.available_tokens,
         e.monthly_tokens, e.token_month, e.created_at, e.updated_at,
         m.issued AS issued_tokens, m.consumed AS consumed_tokens,
         EXISTS (${EMPLOYEE_ACCOUNT_OF_E}) AS has_account
    FROM employees e
    CROSS JOIN LATERAL (${EMPLOYEE_MONTH_TOTALS}) m`;

export async function lookupEmployeeView(
  executor: Executor,
  scope: TenantScope,
  id: number,
): Promise<Employee | undefined> {
  const [row] = await queryRows<EmployeeViewRow>(
    executor,
    sql`${VIEW} WHERE e.id = ${id} AND ${employeeScope(scope)}`,
  );
  return row ? toEmployee(row) : undefined;
}

/**
 * What joins the parts of `employees.search_text` (migration 0026, decision 0054): the staff
 * number, name and email, each lower-cased, one after the other.
 */
const SEARCH_TEXT_SEPARATOR = '\u0001';

/**
 * Part of the staff number, name or email, ignoring case. `lower(x) LIKE lower(p)` is what ILIKE
 * computes on a UTF-8 database (both sides lowered with the collation's lower()), so the answers
 * are ILIKE's. The stored `search_text` holds each column's lower(), so a term found in a column
 * is found there, and the trigram index serves that test (from three characters). A term without
 * the separator found there lies inside one part, so that test is the whole test; a term holding
 * it (which no staff number, name or email is expected to) could span two parts, and is tested
 * column by column as well.
 */
export const searchMatches = (pattern: string): SQL => {
  const text = sql`e.search_text LIKE lower(${pattern})`;
  if (!pattern.includes(SEARCH_TEXT_SEPARATOR)) return text;
  return sql`(${text} AND (lower(e.employee_id) LIKE lower(${pattern})
    OR lower(e.name) LIKE lower(${pattern}) OR lower(e.email) LIKE lower(${pattern})))`;
};

/** The filters of the employees list, which its export shares. */
export interface EmployeeFilter {
  companyId?: number | undefined;
  status?: Status | undefined;
  /** Part of the staff number, name or email. */
  search?: string | undefined;
}

/** The one rule for which employees a list or an export holds: the scope, then the filters. */
function employeesWhere(scope: TenantScope, f: EmployeeFilter): SQL {
  const pattern = f.search ? likePattern(f.search) : undefined;
  return sql`${employeeScope(scope)}
       ${f.companyId !== undefined ? sql`AND e.company_id = ${f.companyId}` : sql``}
       ${f.status ? sql`AND e.status = ${f.status}` : sql``}
       ${pattern ? sql`AND ${searchMatches(pattern)}` : sql``}`;
}

/** The columns the employees list sorts by (lower-cased text, so case does not split names). */
const EMPLOYEE_SORT_COLUMNS: Record<EmployeeSort, SQL> = {
  employee_id: sql`lower(e.employee_id)`,
  name: sql`lower(e.name)`,
  email: sql`lower(e.email)`,
  status: sql`e.status`,
  available_tokens: sql`e.available_tokens`,
  token_month: sql`e.token_month`,
  created_at: sql`e.created_at`,
};

/**
 * Counts of filtered lists (a search, a status) by filter and company version (decision 0065):
 * `${companyId}|${status}|${search}|${version}`.
 */
export type EmployeeCounts = LRUCache<string, number>;

export async function findEmployeeViews(
  executor: Executor,
  scope: TenantScope,
  query: EmployeeFilter & {
    page: number;
    pageSize: number;
    sort?: EmployeeSort | undefined;
    order?: SortOrder | undefined;
  },
  counts?: EmployeeCounts,
): Promise<{ data: Employee[]; total: number }> {
  const where = employeesWhere(scope, query);
  const orderBy = query.sort
    ? sql.join(
        sortedBy(EMPLOYEE_SORT_COLUMNS[query.sort], sql`e.id`, query.order ?? 'asc'),
        sql`, `,
      )
    : sql`e.id`;
  const offset = (query.page - 1) * query.pageSize;
  // A list of every live employee of a company (or of all) reads its total from the companies'
  // counters (decision 0064); a filtered list of one company reads the count kept for its filter
  // at the company's version, or counts (decision 0065); either beside the page on another
  // connection unless it searches (a search's page that is not full needs no count, and its
  // count scans every match again).
  const plain = liveCountOf(scope, query);
  const company = counts ? countedCompanyOf(scope, query) : undefined;
  const count = () =>
    company !== undefined
      ? countEmployeesKept(executor, where, counts!, company, query)
      : countEmployees(executor, where);
  const counting = plain ? countLiveEmployees(executor, plain) : query.search ? undefined : count();
  // A count not needed may fail unheard; a needed one's failure is thrown below.
  counting?.catch(() => undefined);
  // The page's employees first, from employees alone, then the view's month totals (a sum over
  // the ledger) for those only: with the view's LIMIT and OFFSET, the totals were summed for
  // every row the OFFSET skips too (page 20 summed 400 employees' months, 39 ms, decision 0064).
  const rows = await queryRows<EmployeeViewRow>(
    executor,
    sql`${VIEW}
         WHERE e.id IN (SELECT e.id FROM employees e WHERE ${where}
                         ORDER BY ${orderBy} LIMIT ${query.pageSize} OFFSET ${offset})
         ORDER BY ${orderBy}`,
  );
  // A page that is not full ends the list, and an empty first page is an empty list: the total
  // is then known without counting (a search of a few matches, a small company).
  const total =
    rows.length > 0 && rows.length < query.pageSize
      ? offset + rows.length
      : rows.length === 0 && offset === 0
        ? 0
        : await (counting ?? count());
  return { data: rows.map(toEmployee), total };
}

/**
 * The one company a filtered list's rows all belong to (its scope's, or the platform's filter),
 * whose version its count may be kept under; undefined otherwise (every company: no version).
 */
function countedCompanyOf(scope: TenantScope, query: EmployeeFilter): number | undefined {
  if (scope.kind === 'company') {
    return query.companyId === undefined || query.companyId === scope.companyId
      ? scope.companyId
      : undefined;
  }
  return scope.kind === 'all' ? query.companyId : undefined;
}

/**
 * The count of a company's filtered list, kept by filter and the company's version (decision
 * 0065): the version read first, and the count kept at it returned; else counted, with the
 * version in the same statement (one snapshot: the version names exactly the rows counted), and
 * kept. A version moves with every change a count reads (employee-counts.sql), and never returns
 * on the same server start.
 */
async function countEmployeesKept(
  executor: Executor,
  where: SQL,
  counts: EmployeeCounts,
  companyId: number,
  filter: EmployeeFilter,
): Promise<number> {
  // The server's start beside the version: a replica promoted after a failover (or a database
  // restored) may hand out a version again, and it is another server start.
  const version = sql`((SELECT version FROM company_employee_counts WHERE company_id = ${companyId})
    || '@' || pg_postmaster_start_time())`;
  const keyAt = (at: unknown) =>
    `${companyId}|${filter.status ?? ''}|${filter.search ?? ''}|${String(at)}`;
  const [current] = await queryRows<{ version: unknown }>(
    executor,
    sql`SELECT ${version} AS version`,
  );
  if (current?.version != null) {
    const kept = counts.get(keyAt(current.version));
    if (kept !== undefined) return kept;
  }
  const [counted] = await queryRows<{ n: unknown; version: unknown }>(
    executor,
    sql`SELECT count(*) AS n, ${version} AS version FROM employees e WHERE ${where}`,
  );
  const n = toInt(counted?.n ?? 0);
  if (counted?.version != null) counts.set(keyAt(counted.version), n);
  return n;
}

/**
 * The companies whose live employees a list shows unfiltered (`all`: every company), or undefined
 * when it filters (status, search) or the scope is not a company's or the platform's.
 */
function liveCountOf(
  scope: TenantScope,
  query: EmployeeFilter,
): { companyId: number | 'all' | 'none' } | undefined {
  if (query.status || query.search) return undefined;
  if (scope.kind === 'all') return { companyId: query.companyId ?? 'all' };
  if (scope.kind !== 'company') return undefined;
  if (query.companyId !== undefined && query.companyId !== scope.companyId) {
    return { companyId: 'none' };
  }
  return { companyId: scope.companyId };
}

/** Live employees from the companies' counters (migration 0030, sql/employee-counts.sql). */
async function countLiveEmployees(
  executor: Executor,
  of: { companyId: number | 'all' | 'none' },
): Promise<number> {
  if (of.companyId === 'none') return 0;
  const [row] = await queryRows<{ n: unknown }>(
    executor,
    of.companyId === 'all'
      ? sql`SELECT coalesce(sum(live), 0) AS n FROM company_employee_counts`
      : sql`SELECT coalesce(sum(live), 0) AS n FROM company_employee_counts
             WHERE company_id = ${of.companyId}`,
  );
  return toInt(row?.n ?? 0);
}

async function countEmployees(executor: Executor, where: SQL): Promise<number> {
  const [total] = await queryRows<{ n: unknown }>(
    executor,
    sql`SELECT count(*) AS n FROM employees e WHERE ${where}`,
  );
  return toInt(total?.n ?? 0);
}

/**
 * A run of a scope's live employees in id order, from `offset` (0-based), with their total: the
 * SCIM list's startIndex and count (decision 0087), optionally the one of a staff number (SCIM's
 * `userName eq`, exact, as staff numbers are unique as written).
 */
export async function findEmployeeViewsFrom(
  executor: Executor,
  scope: TenantScope,
  query: { offset: number; limit: number; staffNumber?: string | undefined },
): Promise<{ data: Employee[]; total: number }> {
  const where = sql`${employeeScope(scope)}
    ${query.staffNumber !== undefined ? sql`AND e.employee_id = ${query.staffNumber}` : sql``}`;
  const total = await countEmployees(executor, where);
  if (query.limit === 0 || query.offset >= total) return { data: [], total };
  const rows = await queryRows<EmployeeViewRow>(
    executor,
    sql`${VIEW}
         WHERE e.id IN (SELECT e.id FROM employees e WHERE ${where}
                         ORDER BY e.id LIMIT ${query.limit} OFFSET ${query.offset})
         ORDER BY e.id`,
  );
  return { data: rows.map(toEmployee), total };
}

/** Checks a scope may see an employee, without the view's sums; `lock` holds it for a change. */
export async function lookupEmployeeRow(
  executor: Executor,
  scope: TenantScope,
  id: number,
  { lock = false }: { lock?: boolean } = {},
): Promise<EmployeeRow | undefined> {
  const [row] = await queryRows<{ id: unknown }>(
    executor,
    sql`SELECT e.id FROM employees e WHERE e.id = ${id} AND ${employeeScope(scope)}
        ${lock ? sql`FOR NO KEY UPDATE` : sql``}`,
  );
  if (!row) return undefined;
  const [full] = await executor
    .select()
    .from(employees)
    .where(eq(employees.id, toInt(row.id)));
  return full;
}

export async function insertEmployee(
  tx: Tx,
  values: {
    companyId: number;
    employeeId: string;
    name: string | null;
    email: string | null;
    status: Status;
    monthlyTokens: number | null;
    tokenMonth: string;
    at: Date;
  },
): Promise<EmployeeRow> {
  const { at, ...rest } = values;
  const [row] = await tx
    .insert(employees)
    .values({ ...rest, createdAt: at, updatedAt: at })
    .returning();
  return row!;
}

export async function updateEmployeeStatus(
  executor: Executor,
  id: number,
  status: Status,
  at: Date,
): Promise<void> {
  await executor
    .update(employees)
    .set({ status, updatedAt: at })
    .where(and(eq(employees.id, id)));
}

export async function updateEmployeeRow(
  executor: Executor,
  id: number,
  values: {
    employeeId?: string;
    name?: string | null;
    email?: string | null;
    status?: Status;
    monthlyTokens?: number | null;
    at: Date;
  },
): Promise<void> {
  const { at, ...rest } = values;
  await executor
    .update(employees)
    .set({ ...rest, updatedAt: at })
    .where(eq(employees.id, id));
}

/** Soft delete (decision 0008): the row and its ledger history stay; it leaves every scope. */
export async function markEmployeeDeleted(executor: Executor, id: number, at: Date): Promise<void> {
  await queryRows(
    executor,
    sql`UPDATE employees
           SET deleted_at = ${at.toISOString()}::timestamptz, status = 'inactive',
               updated_at = ${at.toISOString()}::timestamptz
         WHERE id = ${id} AND deleted_at IS NULL`,
  );
}

/** Whether a staff number is taken in a company, by a live or a deleted employee (0008). */
export async function isStaffNumberTaken(
  executor: Executor,
  companyId: number,
  staffNumber: string,
  exceptId?: number,
): Promise<boolean> {
  const rows = await queryRows<{ id: unknown }>(
    executor,
    sql`SELECT id FROM employees
         WHERE company_id = ${companyId} AND employee_id = ${staffNumber}
           ${exceptId !== undefined ? sql`AND id <> ${exceptId}` : sql``}
         LIMIT 1`,
  );
  return rows.length > 0;
}

/** The companies whose live employees use an email, ignoring case (and one employee, if given). */
export async function findEmailCompanies(
  executor: Executor,
  email: string,
  exceptId?: number,
): Promise<number[]> {
  const rows = await queryRows<{ company_id: unknown }>(
    executor,
    sql`SELECT DISTINCT company_id FROM employees
         WHERE lower(email) = lower(${email}) AND deleted_at IS NULL
           ${exceptId !== undefined ? sql`AND id <> ${exceptId}` : sql``}`,
  );
  return rows.map((r) => toInt(r.company_id));
}

/** An employee as the employees list shows it, with its company's code, for the export. */
export interface EmployeeExportRow extends Employee {
  company_code: string;
}

/**
 * The next batch of the employees list after our id `afterId` (same scope, filters and order),
 * with the company's code, for the CSV export.
 */
export async function findEmployeeBatch(
  executor: Executor,
  scope: TenantScope,
  f: EmployeeFilter,
  afterId: number | undefined,
  limit: number,
): Promise<EmployeeExportRow[]> {
  const rows = await queryRows<EmployeeViewRow & { company_code: string }>(
    executor,
    sql`SELECT v.*, c.code AS company_code
          FROM (${VIEW} WHERE ${employeesWhere(scope, f)}
                ${afterId !== undefined ? sql`AND e.id > ${afterId}` : sql``}
                ORDER BY e.id LIMIT ${limit}) v
          JOIN companies c ON c.id = v.company_id
         ORDER BY v.id`,
  );
  return rows.map((r) => ({ ...toEmployee(r), company_code: r.company_code }));
}

/** How many employees the list holds, counting no further than `max`. */
export async function countEmployeesUpTo(
  executor: Executor,
  scope: TenantScope,
  f: EmployeeFilter,
  max: number,
): Promise<number> {
  const [row] = await queryRows<{ n: unknown }>(
    executor,
    sql`SELECT count(*) AS n FROM (
          SELECT 1 FROM employees e WHERE ${employeesWhere(scope, f)} LIMIT ${max}
        ) capped`,
  );
  return toInt(row?.n ?? 0);
}

/**
 * Keeps an employee's sign-in linked when its staff number changes (the link is company and staff
 * number, decision 0033).
 */
export async function relinkEmployeeAccount(
  tx: Tx,
  companyId: number,
  from: string,
  to: string,
  at: Date,
): Promise<void> {
  await tx.execute(
    sql`UPDATE users SET employee_id = ${to}, updated_at = ${at}
         WHERE type = 'company_employee' AND deleted_at IS NULL
           AND company_id = ${companyId} AND employee_id = ${from}`,
  );
}

/** Removes the sign-in of a deleted employee (soft, like the employee); answers its ids. */
export async function deleteEmployeeAccount(
  tx: Tx,
  companyId: number,
  staffNumber: string,
  at: Date,
): Promise<number[]> {
  const rows = await queryRows<{ id: unknown }>(
    tx,
    sql`UPDATE users SET deleted_at = ${at}, updated_at = ${at}
         WHERE type = 'company_employee' AND deleted_at IS NULL
           AND company_id = ${companyId} AND employee_id = ${staffNumber}
        RETURNING id`,
  );
  return rows.map((r) => toInt(r.id));
}
