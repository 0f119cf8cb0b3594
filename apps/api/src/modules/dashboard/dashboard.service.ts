import type {
  Dashboard,
  DashboardDay,
  DashboardQuery,
  DashboardSummary,
  DashboardSummaryQuery,
  DashboardTotals,
  DashboardViewTotals,
} from '@app/contract';
import { AppError } from '../../lib/app-error';
import type { ServiceDeps } from '../../lib/deps';
import { addTokens } from '../../lib/numbers';
import { nextPeriod, periodStart, zonedParts } from '../../lib/periods';
import type { TenantScope } from '../../lib/scope';
import {
  lookupCompanyInScope,
  findCompanyMonthTotals,
  findDailyFlowsBetween,
  lookupEmployeeMonth,
  getMerchantMonth,
  type LedgerSlice,
  type MonthFlows,
} from '../reports';
import { calendarMonth, sumTotals, totalsOf, viewTotals, ZERO_TOTALS } from '../reports';

const pad = (n: number) => String(n).padStart(2, '0');
const localDay = (instant: Date, timeZone: string) => {
  const p = zonedParts(instant, timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
};
const dayAfter = (day: string) => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(y, m - 1, d + 1));
  return `${next.getUTCFullYear()}-${pad(next.getUTCMonth() + 1)}-${pad(next.getUTCDate())}`;
};

/**
 * The chart's window (decision 0022): the calendar month chosen, first to last day in the
 * programme's time zone, whatever the companies' reset days. Never a union of token months.
 */
export function calendarMonthWindow(
  month: string,
  timeZone: string,
): { from: Date; to: Date; firstDay: string; lastDay: string } {
  const from = periodStart(month, 1, timeZone);
  const to = periodStart(nextPeriod(month), 1, timeZone);
  return {
    from,
    to,
    firstDay: localDay(from, timeZone),
    lastDay: localDay(new Date(to.getTime() - 1), timeZone),
  };
}

/** The days of the chosen calendar month up to today (none for a month still to come). */
export function monthWindowDays(month: string, timeZone: string, now: Date): string[] {
  const window = calendarMonthWindow(month, timeZone);
  if (window.from > now) return [];
  const today = localDay(now, timeZone);
  const last = window.lastDay < today ? window.lastDay : today;
  const days: string[] = [];
  for (let day = window.firstDay; day <= last; day = dayAfter(day)) days.push(day);
  return days;
}

/** The month's days with activity, merged into its window so a chart has every day. */
function fillDays(window: string[], active: DashboardDay[]): DashboardDay[] {
  const byDay = new Map(active.map((d) => [d.date, d]));
  const days = [...new Set([...window, ...byDay.keys()])].sort();
  return days.map(
    (date) =>
      byDay.get(date) ?? {
        date,
        tokens_from_admin: 0,
        distributed_to_employees: 0,
        consumed_by_employees: 0,
        purchased: 0,
        refunded: 0,
      },
  );
}

const consumption = (f: MonthFlows) => ({
  consumed_by_employees: f.purchased - f.refunded,
  purchased: f.purchased,
  refunded: f.refunded,
});

interface View {
  view: Dashboard['view'];
  month: string;
  companyId: number | null;
  employeeId: number | null;
  merchantId: number | null;
  totals: DashboardViewTotals;
  slice: LedgerSlice | null;
}

async function companyView(
  { database }: ServiceDeps,
  scope: TenantScope,
  companyId: number,
  month: string | undefined,
): Promise<View> {
  const company = await lookupCompanyInScope(database.read, scope, companyId);
  if (!company) throw new AppError('RECORD_NOT_FOUND');
  const resolved = month ?? company.tokenMonth;
  const [row] = await findCompanyMonthTotals(database.read, scope, resolved, { companyId });
  return {
    view: 'company',
    month: resolved,
    companyId,
    employeeId: null,
    merchantId: null,
    totals: row ? totalsOf(row) : ZERO_TOTALS,
    slice: { kind: 'company', companyId },
  };
}

async function resolveView(
  deps: ServiceDeps,
  scope: TenantScope,
  query: DashboardQuery,
): Promise<View> {
  const { database, clock, config } = deps;
  switch (scope.kind) {
    case 'all': {
      if (query.company_id !== undefined) {
        return companyView(deps, scope, query.company_id, query.month);
      }
      const month = query.month ?? calendarMonth(clock, config.APP_TIMEZONE);
      const rows = await findCompanyMonthTotals(database.read, scope, month);
      return {
        view: 'all',
        month,
        companyId: null,
        employeeId: null,
        merchantId: null,
        totals: sumTotals(rows),
        slice: { kind: 'all' },
      };
    }
    case 'company':
      if (query.company_id !== undefined && query.company_id !== scope.companyId) {
        throw new AppError('RECORD_NOT_FOUND');
      }
      return companyView(deps, scope, scope.companyId, query.month);
    case 'self': {
      if (query.company_id !== undefined && query.company_id !== scope.companyId) {
        throw new AppError('RECORD_NOT_FOUND');
      }
      const company = await lookupCompanyInScope(database.read, scope, scope.companyId);
      if (!company) throw new AppError('RECORD_NOT_FOUND');
      const month = query.month ?? company.tokenMonth;
      const wallet = await lookupEmployeeMonth(
        database.read,
        scope.companyId,
        scope.employeeId,
        month,
      );
      // An employee user without a wallet has nothing to show rather than an error.
      const totals: DashboardTotals = wallet
        ? {
            ...ZERO_TOTALS,
            distributed_to_employees: wallet.flows.distributed,
            ...consumption(wallet.flows),
            employee_unused: addTokens(
              wallet.flows.employeeExpired,
              wallet.tokenMonth === month ? wallet.availableTokens : 0,
            ),
          }
        : ZERO_TOTALS;
      return {
        view: 'employee',
        month,
        companyId: scope.companyId,
        employeeId: wallet?.id ?? null,
        merchantId: null,
        totals,
        slice: wallet ? { kind: 'employee', employeeId: wallet.id } : null,
      };
    }
    case 'merchant': {
      const month = query.month ?? calendarMonth(clock, config.APP_TIMEZONE);
      const flows = await getMerchantMonth(
        database.read,
        scope.merchantId,
        month,
        query.company_id,
      );
      return {
        view: 'merchant',
        month,
        companyId: query.company_id ?? null,
        employeeId: null,
        merchantId: scope.merchantId,
        // Nothing of any wallet: the unused amounts are balances (DESIGN 2).
        totals: viewTotals(scope, { ...ZERO_TOTALS, ...consumption(flows) }),
        slice: { kind: 'merchant', merchantId: scope.merchantId, companyId: query.company_id },
      };
    }
  }
}

/**
 * GET /dashboard: the five totals of a token month and its daily flows, for the caller's view —
 * every company or one (admin, Group HR), its company (company admin), its own wallet (employee),
 * its terminals' orders (merchant roles). Another company than one's own is 404.
 */
export async function getDashboard(
  deps: ServiceDeps,
  scope: TenantScope,
  query: DashboardQuery,
): Promise<Dashboard> {
  const view = await resolveView(deps, scope, query);
  const timeZone = deps.config.APP_TIMEZONE;
  const window = calendarMonthWindow(view.month, timeZone);
  const days = view.slice
    ? await findDailyFlowsBetween(deps.database.read, view.slice, window, timeZone)
    : [];
  const active: DashboardDay[] = days.map((d) => ({
    date: localDay(d.dayStart, timeZone),
    tokens_from_admin: d.tokensFromAdmin,
    distributed_to_employees: d.distributed,
    ...consumption(d),
  }));
  return {
    month: view.month,
    view: view.view,
    company_id: view.companyId,
    employee_id: view.employeeId,
    merchant_id: view.merchantId,
    totals: view.totals,
    window_start: window.firstDay,
    window_end: window.lastDay,
    daily: fillDays(monthWindowDays(view.month, timeZone, deps.clock.now()), active),
  };
}

/** GET /dashboard/summary (admin, Group HR): every company's totals for a month, and their sum. */
export async function getDashboardSummary(
  { database, clock, config }: ServiceDeps,
  scope: TenantScope,
  query: DashboardSummaryQuery,
): Promise<DashboardSummary> {
  const month = query.month ?? calendarMonth(clock, config.APP_TIMEZONE);
  const companies = await findCompanyMonthTotals(database.read, scope, month);
  return { month, totals: sumTotals(companies), companies };
}
