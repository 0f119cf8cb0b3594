// The spending rules' tables (migration 0034, decision 0077): rule versions per company,
// exceptions per employee, the holiday calendar and the declines the order statement keeps.
import { sql, type SQL } from 'drizzle-orm';
import type {
  DeclineCode,
  Holiday,
  OrderDecline,
  SpendingException,
  SpendingExceptionBody,
  SpendingRules,
  SpendingRuleVersion,
} from '@app/contract';
import { queryRows, type Executor } from '../../db/client';
import type { TenantScope } from '../../lib/scope';

const ISO = (column: SQL) =>
  sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

interface VersionRow {
  effective_from: string;
  daily_limit: string | null;
  order_limit: string | null;
  weekdays: number[] | null;
  hours: { from: string; to: string }[] | null;
  closed_on_holidays: boolean;
  merchant_categories: string[] | null;
  partial_payment: boolean;
  created_at: string;
  created_by: string | null;
}
const num = (v: string | number | null) => (v === null ? null : Number(v));
const toVersion = (r: VersionRow): SpendingRuleVersion => ({
  effective_from: r.effective_from,
  daily_limit: num(r.daily_limit),
  order_limit: num(r.order_limit),
  weekdays: r.weekdays,
  hours: r.hours,
  closed_on_holidays: r.closed_on_holidays,
  merchant_categories: r.merchant_categories as SpendingRuleVersion['merchant_categories'],
  partial_payment: r.partial_payment,
  created_at: r.created_at,
  created_by: num(r.created_by),
});

/** Every version of a company's rules, oldest first. */
export async function findRuleVersions(
  executor: Executor,
  companyId: number,
): Promise<SpendingRuleVersion[]> {
  const rows = await queryRows<VersionRow>(
    executor,
    sql`SELECT to_char(effective_from, 'YYYY-MM-DD') AS effective_from, daily_limit, order_limit,
               weekdays::int[] AS weekdays, hours, closed_on_holidays, merchant_categories,
               partial_payment, ${ISO(sql`created_at`)} AS created_at, created_by
          FROM spending_rule_versions WHERE company_id = ${companyId}
         ORDER BY effective_from`,
  );
  return rows.map(toVersion);
}

/** Adds a version, or replaces the one of the same date. */
export async function upsertRuleVersion(
  executor: Executor,
  companyId: number,
  effectiveFrom: string,
  rules: SpendingRules,
  by: { userId: number | null; at: Date },
): Promise<void> {
  await queryRows(
    executor,
    sql`INSERT INTO spending_rule_versions (company_id, effective_from, daily_limit, order_limit,
          weekdays, hours, closed_on_holidays, merchant_categories, partial_payment, created_at,
          created_by)
        VALUES (${companyId}, ${effectiveFrom}::date, ${rules.daily_limit}, ${rules.order_limit},
          ${rules.weekdays ? `{${rules.weekdays.join(',')}}` : null}::smallint[],
          ${rules.hours ? JSON.stringify(rules.hours) : null}::jsonb, ${rules.closed_on_holidays},
          ${rules.merchant_categories ? `{${rules.merchant_categories.join(',')}}` : null}::text[],
          ${rules.partial_payment}, ${by.at.toISOString()}::timestamptz, ${by.userId})
        ON CONFLICT (company_id, effective_from) DO UPDATE SET
          daily_limit = EXCLUDED.daily_limit, order_limit = EXCLUDED.order_limit,
          weekdays = EXCLUDED.weekdays, hours = EXCLUDED.hours,
          closed_on_holidays = EXCLUDED.closed_on_holidays,
          merchant_categories = EXCLUDED.merchant_categories,
          partial_payment = EXCLUDED.partial_payment, created_at = EXCLUDED.created_at,
          created_by = EXCLUDED.created_by`,
  );
}

/** Removes a version taking effect after `today`; false when there is none. */
export async function deleteScheduledVersion(
  executor: Executor,
  companyId: number,
  effectiveFrom: string,
  today: string,
): Promise<boolean> {
  const rows = await queryRows(
    executor,
    sql`DELETE FROM spending_rule_versions
         WHERE company_id = ${companyId} AND effective_from = ${effectiveFrom}::date
           AND effective_from > ${today}::date
        RETURNING 1`,
  );
  return rows.length > 0;
}

interface ExceptionRow {
  employee_id: string;
  weekdays: number[] | null;
  closed_on_holidays: boolean | null;
  daily_limit: string | null;
  until: string | null;
  updated_at: string;
}
const toException = (r: ExceptionRow): SpendingException => ({
  employee_id: Number(r.employee_id),
  weekdays: r.weekdays,
  closed_on_holidays: r.closed_on_holidays,
  daily_limit: num(r.daily_limit),
  until: r.until,
  updated_at: r.updated_at,
});
const EXCEPTION_COLUMNS = sql`employee_id, weekdays::int[] AS weekdays, closed_on_holidays,
  daily_limit, to_char(until, 'YYYY-MM-DD') AS until, ${ISO(sql`updated_at`)} AS updated_at`;

export async function lookupException(
  executor: Executor,
  employeeId: number,
): Promise<SpendingException | null> {
  const [row] = await queryRows<ExceptionRow>(
    executor,
    sql`SELECT ${EXCEPTION_COLUMNS} FROM spending_exceptions WHERE employee_id = ${employeeId}`,
  );
  return row ? toException(row) : null;
}

export async function upsertException(
  executor: Executor,
  employeeId: number,
  body: SpendingExceptionBody,
  by: { userId: number | null; at: Date },
): Promise<SpendingException> {
  const [row] = await queryRows<ExceptionRow>(
    executor,
    sql`INSERT INTO spending_exceptions (employee_id, weekdays, closed_on_holidays, daily_limit,
          until, updated_at, updated_by)
        VALUES (${employeeId}, ${body.weekdays ? `{${body.weekdays.join(',')}}` : null}::smallint[],
          ${body.closed_on_holidays ?? null}, ${body.daily_limit ?? null}, ${body.until ?? null}::date,
          ${by.at.toISOString()}::timestamptz, ${by.userId})
        ON CONFLICT (employee_id) DO UPDATE SET
          weekdays = EXCLUDED.weekdays, closed_on_holidays = EXCLUDED.closed_on_holidays,
          daily_limit = EXCLUDED.daily_limit, until = EXCLUDED.until,
          updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by
        RETURNING ${EXCEPTION_COLUMNS}`,
  );
  return toException(row!);
}

export async function deleteException(executor: Executor, employeeId: number): Promise<boolean> {
  const rows = await queryRows(
    executor,
    sql`DELETE FROM spending_exceptions WHERE employee_id = ${employeeId} RETURNING 1`,
  );
  return rows.length > 0;
}

export async function findHolidays(executor: Executor, year: number): Promise<Holiday[]> {
  return queryRows<Holiday>(
    executor,
    sql`SELECT to_char(day, 'YYYY-MM-DD') AS date, name FROM holidays
         WHERE day >= make_date(${year}, 1, 1) AND day < make_date(${year} + 1, 1, 1)
         ORDER BY day`,
  );
}

/** Replaces a year's holidays with `days`. */
export async function replaceHolidays(
  executor: Executor,
  year: number,
  days: Holiday[],
): Promise<void> {
  await queryRows(
    executor,
    sql`DELETE FROM holidays
         WHERE day >= make_date(${year}, 1, 1) AND day < make_date(${year} + 1, 1, 1)`,
  );
  if (days.length === 0) return;
  await queryRows(
    executor,
    sql`INSERT INTO holidays (day, name)
        SELECT (d ->> 'date')::date, d ->> 'name' FROM jsonb_array_elements(${JSON.stringify(days)}::jsonb) d`,
  );
}

/** The declines of a scope, newest first, with the names the lists show. */
export async function findDeclines(
  executor: Executor,
  scope: TenantScope,
  query: {
    companyId?: number | undefined;
    merchantId?: number | undefined;
    employeeId?: number | undefined;
    code?: DeclineCode | undefined;
    from?: Date | undefined;
    to?: Date | undefined;
    page: number;
    pageSize: number;
  },
): Promise<{ rows: OrderDecline[]; total: number }> {
  const conditions: SQL[] = [sql`true`];
  if (scope.kind === 'company') conditions.push(sql`d.company_id = ${scope.companyId}`);
  if (scope.kind === 'merchant') conditions.push(sql`d.merchant_id = ${scope.merchantId}`);
  if (scope.kind === 'self') {
    conditions.push(sql`d.company_id = ${scope.companyId} AND e.employee_id = ${scope.employeeId}`);
  }
  if (query.companyId) conditions.push(sql`d.company_id = ${query.companyId}`);
  if (query.merchantId) conditions.push(sql`d.merchant_id = ${query.merchantId}`);
  if (query.employeeId) conditions.push(sql`d.employee_id = ${query.employeeId}`);
  if (query.code) conditions.push(sql`d.code = ${query.code}`);
  if (query.from) conditions.push(sql`d.declined_at >= ${query.from.toISOString()}::timestamptz`);
  if (query.to) conditions.push(sql`d.declined_at < ${query.to.toISOString()}::timestamptz`);
  const where = sql.join(conditions, sql` AND `);
  const rows = await queryRows<
    Omit<
      OrderDecline,
      'id' | 'company_id' | 'employee_id' | 'merchant_id' | 'terminal_id' | 'subtotal'
    > & {
      id: string;
      company_id: string;
      employee_id: string;
      merchant_id: string;
      terminal_id: string;
      subtotal: string;
      total: string;
    }
  >(
    executor,
    sql`SELECT d.id, ${ISO(sql`d.declined_at`)} AS declined_at, d.company_id, d.employee_id,
               d.merchant_id, d.terminal_id, d.subtotal, d.code, d.details,
               c.name AS company_name, coalesce(e.name, '') AS employee_name, e.employee_id AS staff_number,
               m.name AS merchant_name, count(*) OVER () AS total
          FROM order_declines d
          JOIN companies c ON c.id = d.company_id
          JOIN employees e ON e.id = d.employee_id
          JOIN merchants m ON m.id = d.merchant_id
         WHERE ${where}
         ORDER BY d.declined_at DESC, d.id DESC
         LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}`,
  );
  return {
    rows: rows.map(({ total: _total, ...r }) => ({
      ...r,
      id: Number(r.id),
      company_id: Number(r.company_id),
      employee_id: Number(r.employee_id),
      merchant_id: Number(r.merchant_id),
      terminal_id: Number(r.terminal_id),
      subtotal: Number(r.subtotal),
    })),
    total: rows.length > 0 ? Number(rows[0]!.total) : 0,
  };
}
