import type {
  CompanyReport,
  CompanyReportQuery,
  CompanyTotals,
  DashboardTotals,
  DashboardViewTotals,
  ReportSummary,
  ReportSummaryFilter,
  ReportSummaryQuery,
} from '@app/contract';
import { AppError } from '../../lib/app-error';
import type { Clock } from '../../lib/clock';
import { addTokens } from '../../lib/numbers';
import type { ServiceDeps } from '../../lib/deps';
import { formatPeriod, zonedParts } from '../../lib/periods';
import type { TenantScope } from '../../lib/scope';
import {
  lookupCompanyInScope,
  findCompanyMonthTotals,
  findEmployeeMonthRows,
  type MonthView,
} from './reports.repository';

// The dashboard and the exports read the reports' figures through these.

/** The calendar month (YYYY-MM) of now in the programme's time zone. */
export function calendarMonth(clock: Clock, timeZone: string): string {
  const now = zonedParts(clock.now(), timeZone);
  return formatPeriod({ year: now.year, month: now.month });
}

/**
 * The month a view is of (decision 0088): the one asked for, else the calendar month of today;
 * `underWay` when it is today's.
 */
export function monthViewOf(
  { clock, config }: Pick<ServiceDeps, 'clock' | 'config'>,
  month: string | undefined,
): MonthView {
  const today = calendarMonth(clock, config.APP_TIMEZONE);
  const chosen = month ?? today;
  return { month: chosen, underWay: chosen === today, timeZone: config.APP_TIMEZONE };
}

export const ZERO_TOTALS: DashboardTotals = {
  tokens_from_admin: 0,
  distributed_to_employees: 0,
  consumed_by_employees: 0,
  company_unused: 0,
  employee_unused: 0,
  purchased: 0,
  refunded: 0,
};

/** The totals part of a company's row. */
export const totalsOf = (row: DashboardTotals): DashboardTotals => ({
  tokens_from_admin: row.tokens_from_admin,
  distributed_to_employees: row.distributed_to_employees,
  consumed_by_employees: row.consumed_by_employees,
  company_unused: row.company_unused,
  employee_unused: row.employee_unused,
  purchased: row.purchased,
  refunded: row.refunded,
});

export function sumTotals(rows: DashboardTotals[]): DashboardTotals {
  const sum = { ...ZERO_TOTALS };
  for (const row of rows) {
    for (const key of Object.keys(sum) as (keyof DashboardTotals)[]) {
      sum[key] = addTokens(sum[key], row[key]);
    }
  }
  return sum;
}

/**
 * Totals as a scope may read them: the unused amounts are wallet balances, which merchant roles
 * never learn (DESIGN 2), so theirs are null. The dashboard and the summary report both use this.
 */
export function viewTotals(scope: TenantScope, totals: DashboardTotals): DashboardViewTotals {
  return scope.kind === 'merchant'
    ? { ...totals, company_unused: null, employee_unused: null }
    : totals;
}

/**
 * The companies of the caller's scope with their totals for a month (the calendar month of today
 * unless named), by name: each the token month its view of the month counts (decision 0088).
 * Naming a company the caller cannot see (or that does not exist) is 404.
 */
export async function findSummaryRows(
  deps: ServiceDeps,
  scope: TenantScope,
  filter: ReportSummaryFilter,
): Promise<{ month: string; rows: CompanyTotals[] }> {
  const view = monthViewOf(deps, filter.month);
  const rows = await findCompanyMonthTotals(deps.database.read, scope, view, {
    companyId: filter.company_id,
    search: filter.search,
  });
  if (filter.company_id !== undefined && rows.length === 0) {
    throw new AppError('RECORD_NOT_FOUND');
  }
  return { month: view.month, rows };
}

/** GET /reports/summary: a page of the companies' rows and the grand total of all of them. */
export async function findReportSummary(
  deps: ServiceDeps,
  scope: TenantScope,
  query: ReportSummaryQuery,
): Promise<ReportSummary> {
  const { month, rows } = await findSummaryRows(deps, scope, query);
  const start = (query.page - 1) * query.page_size;
  return {
    data: rows.slice(start, start + query.page_size),
    total: rows.length,
    month,
    grand_total: viewTotals(scope, sumTotals(rows)),
  };
}

/**
 * One company's view of a month (the calendar month of today unless named) and its totals row,
 * whose `counted_month` is the token month counted (decision 0088); 404 when out of scope.
 */
export async function getCompanyMonth(
  deps: ServiceDeps,
  scope: TenantScope,
  companyId: number,
  month: string | undefined,
): Promise<{ month: string; company: CompanyTotals }> {
  const found = await lookupCompanyInScope(deps.database.read, scope, companyId);
  if (!found) throw new AppError('RECORD_NOT_FOUND');
  const view = monthViewOf(deps, month);
  const [company] = await findCompanyMonthTotals(deps.database.read, scope, view, { companyId });
  if (!company) throw new AppError('RECORD_NOT_FOUND');
  return { month: view.month, company };
}

/**
 * GET /reports/summary/{companyId}: the company's employees with the token month its view of the
 * month counts (decision 0088), by staff number.
 */
export async function findCompanyReport(
  deps: ServiceDeps,
  scope: TenantScope,
  companyId: number,
  query: CompanyReportQuery,
): Promise<CompanyReport> {
  const { month, company } = await getCompanyMonth(deps, scope, companyId, query.month);
  const { rows, total } = await findEmployeeMonthRows(
    deps.database.read,
    companyId,
    company.counted_month,
    {
      status: query.status,
      search: query.search,
      page: query.page,
      pageSize: query.page_size,
    },
  );
  return { data: rows, total, month, company };
}
