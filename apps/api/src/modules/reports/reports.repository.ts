import { sql, type SQL } from 'drizzle-orm';
import type { CompanyTotals, EmployeeReportRow, Status } from '@app/contract';
import { likePattern } from '../../lib/sql';
import { queryRows, type Executor } from '../../db/client';
import { addTokens, toInt } from '../../lib/numbers';
import { tokenMonthDays } from '../../lib/periods';
import type { TenantScope } from '../../lib/scope';
import { companyScope } from '../companies';

/**
 * All SQL of the dashboards and summary reports. A month is a token month: ledger rows count
 * where `period` is the month (decision 0007). Every company's month, one company's, and their
 * daily series are read from the rollup views of migration 0010 (sums kept in the ledger row's
 * own transaction); an employee's or a merchant's month from the ledger itself, through
 * migration 0006's indexes.
 */

/** The events that move tokens within a month (expiries close it and are left out of charts). */
const FLOW_EVENTS = sql`('company_issued', 'monthly_tokens_added', 'employee_issued',
  'monthly_tokens_reset', 'order_purchased', 'order_refunded')`;

/**
 * Ledger rows summed by event and wallet kind, over rows aliased `t` (an employee's or a
 * merchant's month). The pivot to totals is done in TypeScript: a plain GROUP BY aggregates
 * faster than one FILTER per total.
 */
const EVENT_SUMS = sql`t.event, t.employee_id IS NOT NULL AS is_employee, sum(t.amount) AS amount`;

interface EventSumRow {
  event: string;
  is_employee: boolean;
  amount: unknown;
}

export interface MonthFlows {
  tokensFromAdmin: number;
  distributed: number;
  purchased: number;
  refunded: number;
  companyExpired: number;
  employeeExpired: number;
}

const noFlows = (): MonthFlows => ({
  tokensFromAdmin: 0,
  distributed: 0,
  purchased: 0,
  refunded: 0,
  companyExpired: 0,
  employeeExpired: 0,
});

/** Adds one event's sum to the totals it belongs to (DESIGN 4). */
function addFlow(flows: MonthFlows, r: EventSumRow): MonthFlows {
  const amount = toInt(r.amount);
  switch (r.event) {
    case 'company_issued':
    case 'monthly_tokens_added':
      flows.tokensFromAdmin = addTokens(flows.tokensFromAdmin, amount);
      break;
    case 'employee_issued':
    case 'monthly_tokens_reset':
      // A transfer is two rows; the employee's side counts.
      if (r.is_employee) flows.distributed = addTokens(flows.distributed, amount);
      break;
    case 'order_purchased':
      flows.purchased = addTokens(flows.purchased, amount);
      break;
    case 'order_refunded':
      flows.refunded = addTokens(flows.refunded, amount);
      break;
    case 'company_expired':
      flows.companyExpired = addTokens(flows.companyExpired, amount);
      break;
    case 'employee_expired':
      flows.employeeExpired = addTokens(flows.employeeExpired, amount);
      break;
  }
  return flows;
}

const toFlows = (rows: EventSumRow[]): MonthFlows => rows.reduce(addFlow, noFlows());

/** The rollup views' columns (migration 0010): Σ amount per event, a transfer by its employee's side. */
const FLOW_COLUMNS = [
  'company_issued',
  'monthly_tokens_added',
  'employee_issued',
  'monthly_tokens_reset',
  'order_purchased',
  'order_refunded',
] as const;
const MONTH_COLUMNS = [...FLOW_COLUMNS, 'company_expired', 'employee_expired'] as const;
type RollupRow = Partial<Record<(typeof MONTH_COLUMNS)[number], unknown>>;

/** `sum(alias.column) AS column, …` */
const sumsOf = (alias: string, columns: readonly string[]) =>
  sql.raw(columns.map((c) => `sum(${alias}.${c}) AS ${c}`).join(', '));
const columnsOf = (alias: string, columns: readonly string[]) =>
  sql.raw(columns.map((c) => `${alias}.${c}`).join(', '));

/** A rollup row as the totals it belongs to (DESIGN 4); absent columns (no row) are 0. */
function flowsOfRollup(r: RollupRow): MonthFlows {
  const amount = (column: (typeof MONTH_COLUMNS)[number]) => toInt(r[column] ?? 0);
  return {
    tokensFromAdmin: addTokens(amount('company_issued'), amount('monthly_tokens_added')),
    distributed: addTokens(amount('employee_issued'), amount('monthly_tokens_reset')),
    purchased: amount('order_purchased'),
    refunded: amount('order_refunded'),
    companyExpired: amount('company_expired'),
    employeeExpired: amount('employee_expired'),
  };
}

/**
 * The companies whose totals a scope may see, on the alias `c`: every one for admin and Group
 * HR, its own for a company admin, none for employees and merchants (their dashboards show their
 * own wallet or orders instead).
 */
function companyTotalsScope(scope: TenantScope): SQL {
  return scope.kind === 'self' ? sql`false` : companyScope(scope, sql`c.id`);
}

export interface CompanyFilter {
  companyId?: number | undefined;
  /** Part of the code or name, case-insensitive. */
  search?: string | undefined;
}

interface CompanyRow extends RollupRow {
  id: unknown;
  code: string;
  name: string;
  status: Status;
  token_month: string;
  token_balance: unknown;
  monthly_reset_day: unknown;
  counted_month: string;
}

/**
 * The month a view is of (decision 0088): `month`, `YYYY-MM`; `underWay` when it is the calendar
 * month of today, whose view counts each company's current token month where the one labelled
 * `month` has not opened yet (`countedTokenMonth`); the time zone its days are named in.
 */
export interface MonthView {
  month: string;
  underWay: boolean;
  timeZone: string;
}

/** `countedTokenMonth` in SQL, for the company on the alias `c`. */
const countedMonthOf = ({ month, underWay }: MonthView): SQL =>
  underWay
    ? sql`(CASE WHEN c.token_month < ${month}::text THEN c.token_month ELSE ${month}::text END)`
    : sql`${month}::text`;

/**
 * Each company's totals for the token month its view of a month counts (`MonthView`), by name:
 * the month's flows, and its unused tokens — what expired when the month closed plus what is
 * still held in it (the company's balance while the month is its current one; employees'
 * balances while it is theirs). Each row names the token month counted and its days.
 *
 * The flows come from the view `ledger_month_totals` (folded and pending sums). What the
 * employees still hold in the month needs no read of the employees: an employee's rows carry its
 * token month, and it leaves a month only once its balance there has expired (DESIGN 3.5), so
 * the employees' rows of a month net to what they hold in it — distributed + refunded −
 * purchased − expired — and their unused tokens are the month's distributed minus consumed
 * (decision 0007; test/invariants.ts checks the rule).
 */
export async function findCompanyMonthTotals(
  executor: Executor,
  scope: TenantScope,
  view: MonthView,
  filter: CompanyFilter = {},
): Promise<CompanyTotals[]> {
  const where: SQL[] = [companyTotalsScope(scope)];
  if (filter.companyId !== undefined) where.push(sql`c.id = ${filter.companyId}`);
  if (filter.search) {
    const pattern = likePattern(filter.search);
    where.push(sql`(c.code ILIKE ${pattern} OR c.name ILIKE ${pattern})`);
  }
  // The months any company's view counts: `month`, and while it is under way the earlier current
  // token months too (the month before, unless a reset is overdue).
  const periods = view.underWay
    ? sql`m.period <= ${view.month}::text AND m.period >= (SELECT min(token_month) FROM companies)`
    : sql`m.period = ${view.month}::text`;
  // One company's id reaches the grouped view through the join (PostgreSQL pushes it down).
  const rows = await queryRows<CompanyRow>(
    executor,
    sql`SELECT c.id, c.code, c.name, c.status, c.token_month, c.token_balance, c.monthly_reset_day,
               ${countedMonthOf(view)} AS counted_month, ${columnsOf('m', MONTH_COLUMNS)}
          FROM companies c
          LEFT JOIN (
            SELECT m.company_id, m.period, ${sumsOf('m', MONTH_COLUMNS)}
              FROM ledger_month_totals m
             WHERE ${periods}
             GROUP BY m.company_id, m.period
          ) m ON m.company_id = c.id AND m.period = ${countedMonthOf(view)}
         WHERE ${sql.join(where, sql` AND `)}
         ORDER BY c.name, c.id`,
  );
  return rows.map((r) => {
    const flows = flowsOfRollup(r);
    const consumed = flows.purchased - flows.refunded;
    const companyHeld = r.token_month === r.counted_month ? toInt(r.token_balance) : 0;
    const days = tokenMonthDays(r.counted_month, toInt(r.monthly_reset_day), view.timeZone);
    return {
      company_id: toInt(r.id),
      company_code: r.code,
      company_name: r.name,
      company_status: r.status,
      token_month: r.token_month,
      counted_month: r.counted_month,
      counted_from: days.from,
      counted_to: days.to,
      tokens_from_admin: flows.tokensFromAdmin,
      distributed_to_employees: flows.distributed,
      consumed_by_employees: consumed,
      company_unused: addTokens(flows.companyExpired, companyHeld),
      // = expired + held, where held = distributed − consumed − expired (see above).
      employee_unused: addTokens(flows.distributed, -consumed),
      purchased: flows.purchased,
      refunded: flows.refunded,
    };
  });
}

export interface OwnWallet {
  id: number;
  tokenMonth: string;
  availableTokens: number;
  flows: MonthFlows;
}

/** An employee's own wallet and its month's flows, found by company and staff number. */
export async function lookupEmployeeMonth(
  executor: Executor,
  companyId: number,
  staffNumber: string,
  month: string,
): Promise<OwnWallet | undefined> {
  const [row] = await queryRows<{ id: unknown; token_month: string; available_tokens: unknown }>(
    executor,
    sql`SELECT e.id, e.token_month, e.available_tokens
          FROM employees e
         WHERE e.company_id = ${companyId} AND e.employee_id = ${staffNumber}`,
  );
  if (!row) return undefined;
  const id = toInt(row.id);
  const sums = await queryRows<EventSumRow>(
    executor,
    sql`SELECT ${EVENT_SUMS}
          FROM token_transactions t
         WHERE t.employee_id = ${id} AND t.period = ${month}
         GROUP BY t.event, t.employee_id IS NOT NULL`,
  );
  return {
    id,
    tokenMonth: row.token_month,
    availableTokens: toInt(row.available_tokens),
    flows: toFlows(sums),
  };
}

/** A merchant's orders and refunds of a month (optionally of one company's employees). */
export async function getMerchantMonth(
  executor: Executor,
  merchantId: number,
  month: string,
  companyId: number | undefined,
): Promise<MonthFlows> {
  const sums = await queryRows<EventSumRow>(
    executor,
    sql`SELECT ${EVENT_SUMS}
          FROM token_transactions t
         WHERE t.merchant_id = ${merchantId} AND t.period = ${month}
           ${companyId !== undefined ? sql`AND t.company_id = ${companyId}` : sql``}
         GROUP BY t.event, t.employee_id IS NOT NULL`,
  );
  return toFlows(sums);
}

/** Which ledger rows a dashboard counts, beyond the month. */
export type LedgerSlice =
  | { kind: 'all' }
  | { kind: 'company'; companyId: number }
  | { kind: 'employee'; employeeId: number }
  | { kind: 'merchant'; merchantId: number; companyId?: number | undefined };

/** The ledger rows of an employee's or a merchant's slice, on the alias `t`. */
function sliceCondition(slice: Extract<LedgerSlice, { kind: 'employee' | 'merchant' }>): SQL {
  switch (slice.kind) {
    case 'employee':
      return sql`t.employee_id = ${slice.employeeId}`;
    case 'merchant':
      return slice.companyId !== undefined
        ? sql`t.merchant_id = ${slice.merchantId} AND t.company_id = ${slice.companyId}`
        : sql`t.merchant_id = ${slice.merchantId}`;
  }
}

/** Ledger sums by (day, event, wallet) folded into one flows row per day, in day order. */
function flowsByDay(
  rows: (EventSumRow & { day_start: Date | string })[],
): (MonthFlows & { dayStart: Date })[] {
  const byDay = new Map<number, MonthFlows & { dayStart: Date }>();
  for (const r of rows) {
    const dayStart = new Date(r.day_start);
    const day = byDay.get(dayStart.getTime()) ?? { ...noFlows(), dayStart };
    addFlow(day, r);
    byDay.set(dayStart.getTime(), day);
  }
  return [...byDay.values()].sort((x, y) => x.dayStart.getTime() - y.dayStart.getTime());
}

/**
 * The month's flows per day in `timeZone`, only days with any. Every company's, or one
 * company's, from the quarter-hour views of migration 0010: the month's few thousand
 * quarter-hours are grouped by the instant their local day starts (every zone's days start on a
 * UTC quarter-hour, so a quarter-hour lies within one day). An employee's or a merchant's from
 * the ledger rows, grouped the same way. The groups are named YYYY-MM-DD by the caller.
 */
export async function findDailyFlows(
  executor: Executor,
  slice: LedgerSlice,
  month: string,
  timeZone: string,
): Promise<(MonthFlows & { dayStart: Date })[]> {
  if (slice.kind === 'all' || slice.kind === 'company') {
    const rows = await queryRows<RollupRow & { day_start: Date | string }>(
      executor,
      sql`SELECT date_trunc('day', q.bucket, ${timeZone}) AS day_start, ${sumsOf('q', FLOW_COLUMNS)}
            FROM ${slice.kind === 'all' ? sql`ledger_quarter_hours` : sql`ledger_company_quarter_hours`} q
           WHERE q.period = ${month}
             ${slice.kind === 'company' ? sql`AND q.company_id = ${slice.companyId}` : sql``}
           GROUP BY 1
           ORDER BY 1`,
    );
    return rows.map((r) => ({ ...flowsOfRollup(r), dayStart: new Date(r.day_start) }));
  }
  const rows = await queryRows<EventSumRow & { day_start: Date | string }>(
    executor,
    sql`SELECT date_trunc('day', t.occurred_at, ${timeZone}) AS day_start, ${EVENT_SUMS}
          FROM token_transactions t
         WHERE t.period = ${month} AND t.event IN ${FLOW_EVENTS} AND ${sliceCondition(slice)}
         GROUP BY 1, t.event, t.employee_id IS NOT NULL`,
  );
  return flowsByDay(rows);
}

/**
 * Every company's flows per day of the token months a view of a month counts (`MonthView`,
 * decision 0088): the rows each company counts in that view, so that the days add up to the
 * totals. While the month is under way, companies may count different token months: read from
 * the per-company quarter hours, each company's own month; otherwise as `findDailyFlows`.
 */
export async function findCountedDailyFlows(
  executor: Executor,
  view: MonthView,
): Promise<(MonthFlows & { dayStart: Date })[]> {
  if (!view.underWay) return findDailyFlows(executor, { kind: 'all' }, view.month, view.timeZone);
  const rows = await queryRows<RollupRow & { day_start: Date | string }>(
    executor,
    sql`SELECT date_trunc('day', q.bucket, ${view.timeZone}) AS day_start, ${sumsOf('q', FLOW_COLUMNS)}
          FROM ledger_company_quarter_hours q
          JOIN companies c ON c.id = q.company_id
         WHERE q.period <= ${view.month}::text
           AND q.period >= (SELECT min(token_month) FROM companies)
           AND q.period = ${countedMonthOf(view)}
         GROUP BY 1
         ORDER BY 1`,
  );
  return rows.map((r) => ({ ...flowsOfRollup(r), dayStart: new Date(r.day_start) }));
}

/**
 * The flows per day in `timeZone` of the rows written in [from, to) — whatever token month they
 * count in — only days with any (decision 0022: the dashboard's chart is the calendar month
 * chosen). Every company's, or one company's, from the quarter-hour views of migration 0010; an
 * employee's or a merchant's from the ledger rows.
 */
export async function findDailyFlowsBetween(
  executor: Executor,
  slice: LedgerSlice,
  range: { from: Date; to: Date },
  timeZone: string,
): Promise<(MonthFlows & { dayStart: Date })[]> {
  const from = range.from.toISOString();
  // The month after 9999-12 starts in year 10000, which PostgreSQL cannot read: no upper bound.
  const to = range.to.getUTCFullYear() > 9999 ? 'infinity' : range.to.toISOString();
  if (slice.kind === 'all' || slice.kind === 'company') {
    const rows = await queryRows<RollupRow & { day_start: Date | string }>(
      executor,
      sql`SELECT date_trunc('day', q.bucket, ${timeZone}) AS day_start, ${sumsOf('q', FLOW_COLUMNS)}
            FROM ${slice.kind === 'all' ? sql`ledger_quarter_hours` : sql`ledger_company_quarter_hours`} q
           WHERE q.bucket >= ${from}::timestamptz AND q.bucket < ${to}::timestamptz
             ${slice.kind === 'company' ? sql`AND q.company_id = ${slice.companyId}` : sql``}
           GROUP BY 1
           ORDER BY 1`,
    );
    return rows.map((r) => ({ ...flowsOfRollup(r), dayStart: new Date(r.day_start) }));
  }
  const rows = await queryRows<EventSumRow & { day_start: Date | string }>(
    executor,
    sql`SELECT date_trunc('day', t.occurred_at, ${timeZone}) AS day_start, ${EVENT_SUMS}
          FROM token_transactions t
         WHERE t.occurred_at >= ${from}::timestamptz AND t.occurred_at < ${to}::timestamptz
           AND t.event IN ${FLOW_EVENTS} AND ${sliceCondition(slice)}
         GROUP BY 1, t.event, t.employee_id IS NOT NULL`,
  );
  return flowsByDay(rows);
}

/** The earliest and latest reset day of the companies in a view (a token month's bounds). */
export async function lookupResetDayRange(
  executor: Executor,
  companyId: number | undefined,
): Promise<{ min: number; max: number } | undefined> {
  const [row] = await queryRows<{ min: unknown; max: unknown }>(
    executor,
    sql`SELECT min(c.monthly_reset_day) AS min, max(c.monthly_reset_day) AS max
          FROM companies c
         ${companyId !== undefined ? sql`WHERE c.id = ${companyId}` : sql``}`,
  );
  if (!row || row.min === null) return undefined;
  return { min: toInt(row.min), max: toInt(row.max) };
}

/** The company a scope may see, with its current token month; undefined when out of scope. */
export async function lookupCompanyInScope(
  executor: Executor,
  scope: TenantScope,
  companyId: number,
): Promise<{ id: number; tokenMonth: string; resetDay: number } | undefined> {
  const [row] = await queryRows<{ id: unknown; token_month: string; monthly_reset_day: unknown }>(
    executor,
    sql`SELECT c.id, c.token_month, c.monthly_reset_day FROM companies c
         WHERE c.id = ${companyId} AND ${companyScope(scope, sql`c.id`)}`,
  );
  return row
    ? { id: toInt(row.id), tokenMonth: row.token_month, resetDay: toInt(row.monthly_reset_day) }
    : undefined;
}

// ---------------------------------------------------------------------------------------------
// Per-employee rows of a company's report

export interface EmployeeRowFilter {
  status?: Status | undefined;
  /** Part of the staff number, name or email, case-insensitive. */
  search?: string | undefined;
}

interface EmployeeMonthRow {
  id: unknown;
  employee_id: string;
  name: string | null;
  email: string | null;
  status: Status;
  token_month: string;
  available_tokens: unknown;
  received: unknown;
  purchased: unknown;
  refunded: unknown;
  expired: unknown;
}

const toEmployeeReportRow =
  (month: string) =>
  (r: EmployeeMonthRow): EmployeeReportRow => {
    const available = toInt(r.available_tokens);
    const purchased = toInt(r.purchased);
    const refunded = toInt(r.refunded);
    const expired = toInt(r.expired);
    return {
      id: toInt(r.id),
      employee_id: r.employee_id,
      name: r.name,
      email: r.email,
      status: r.status,
      token_month: r.token_month,
      received: toInt(r.received),
      purchased,
      refunded,
      consumed: purchased - refunded,
      expired,
      unused: addTokens(expired, r.token_month === month ? available : 0),
      available_tokens: available,
    };
  };

function employeeRowsWhere(companyId: number, filter: EmployeeRowFilter): SQL {
  const where: SQL[] = [sql`e.company_id = ${companyId}`];
  if (filter.status) where.push(sql`e.status = ${filter.status}`);
  if (filter.search) {
    const pattern = likePattern(filter.search);
    where.push(
      sql`(e.employee_id ILIKE ${pattern} OR e.name ILIKE ${pattern} OR e.email ILIKE ${pattern})`,
    );
  }
  return sql.join(where, sql` AND `);
}

// Each employee's month, read through the (employee_id, period, seq) index of migration 0023.
const EMPLOYEE_MONTH = (month: string) => sql`
  SELECT e.id, e.employee_id, e.name, e.email, e.status, e.token_month, e.available_tokens,
         m.received, m.purchased, m.refunded, m.expired
    FROM employees e
    CROSS JOIN LATERAL (
      SELECT coalesce(sum(t.amount) FILTER (
               WHERE t.event IN ('employee_issued', 'monthly_tokens_reset')), 0) AS received,
             coalesce(sum(t.amount) FILTER (WHERE t.event = 'order_purchased'), 0) AS purchased,
             coalesce(sum(t.amount) FILTER (WHERE t.event = 'order_refunded'), 0) AS refunded,
             coalesce(sum(t.amount) FILTER (WHERE t.event = 'employee_expired'), 0) AS expired
        FROM token_transactions t
       WHERE t.employee_id = e.id AND t.period = ${month}
    ) m`;

/** One page of a company's employees with their month, by staff number. */
export async function findEmployeeMonthRows(
  executor: Executor,
  companyId: number,
  month: string,
  filter: EmployeeRowFilter & { page: number; pageSize: number },
): Promise<{ rows: EmployeeReportRow[]; total: number }> {
  const where = employeeRowsWhere(companyId, filter);
  const rows = await queryRows<EmployeeMonthRow>(
    executor,
    sql`${EMPLOYEE_MONTH(month)}
         WHERE ${where}
         ORDER BY e.employee_id, e.id
         LIMIT ${filter.pageSize} OFFSET ${(filter.page - 1) * filter.pageSize}`,
  );
  const [count] = await queryRows<{ n: unknown }>(
    executor,
    sql`SELECT count(*) AS n FROM employees e WHERE ${where}`,
  );
  return { rows: rows.map(toEmployeeReportRow(month)), total: toInt(count?.n ?? 0) };
}

/** The next batch of a company's employees after staff number `after` (keyset, for exports). */
export async function findEmployeeMonthBatch(
  executor: Executor,
  companyId: number,
  month: string,
  filter: EmployeeRowFilter,
  after: string | undefined,
  limit: number,
): Promise<EmployeeReportRow[]> {
  const rows = await queryRows<EmployeeMonthRow>(
    executor,
    sql`${EMPLOYEE_MONTH(month)}
         WHERE ${employeeRowsWhere(companyId, filter)}
           ${after !== undefined ? sql`AND e.employee_id > ${after}` : sql``}
         ORDER BY e.employee_id
         LIMIT ${limit}`,
  );
  return rows.map(toEmployeeReportRow(month));
}

/** How many employees a company report holds, counting no further than `max`. */
export async function countEmployeeRowsUpTo(
  executor: Executor,
  companyId: number,
  filter: EmployeeRowFilter,
  max: number,
): Promise<number> {
  const [row] = await queryRows<{ n: unknown }>(
    executor,
    sql`SELECT count(*) AS n FROM (
          SELECT 1 FROM employees e WHERE ${employeeRowsWhere(companyId, filter)} LIMIT ${max}
        ) capped`,
  );
  return toInt(row?.n ?? 0);
}
