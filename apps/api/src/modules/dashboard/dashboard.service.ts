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
import {
  countedTokenMonth,
  nextPeriod,
  periodStart,
  tokenMonthDays,
  zonedParts,
} from '../../lib/periods';
import type { TenantScope } from '../../lib/scope';
import {
  lookupCompanyInScope,
  findCompanyMonthTotals,
  findCountedDailyFlows,
  findDailyFlows,
  findDailyFlowsBetween,
  lookupEmployeeMonth,
  getMerchantMonth,
  type LedgerSlice,
  type MonthFlows,
} from '../reports';
import { monthViewOf, sumTotals, totalsOf, viewTotals, ZERO_TOTALS } from '../reports';

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
 * The calendar month chosen, first to last day in the programme's time zone: a merchant's chart
 * (decision 0022; its orders are of every company's token months).
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

/** The days from `from` to `to` (YYYY-MM-DD, both included) up to `today`; none if all to come. */
export function daysUpTo(from: string, to: string, today: string): string[] {
  const last = to < today ? to : today;
  const days: string[] = [];
  for (let day = from; day <= last; day = dayAfter(day)) days.push(day);
  return days;
}

type DailyFlows = (MonthFlows & { dayStart: Date })[];

interface View {
  view: Dashboard['view'];
  month: string;
  companyId: number | null;
  employeeId: number | null;
  merchantId: number | null;
  totals: DashboardViewTotals;
  /** The token month counted, for one company or one employee (decision 0088). */
  countedMonth: string | null;
  /** The days counted, both included: the chart's window. */
  window: { from: string; to: string };
  /** The flows per day of what the totals count. */
  daily: () => Promise<DailyFlows>;
}

const noDays = (): Promise<DailyFlows> => Promise.resolve([]);

async function companyView(
  deps: ServiceDeps,
  scope: TenantScope,
  companyId: number,
  month: string | undefined,
): Promise<View> {
  const company = await lookupCompanyInScope(deps.database.read, scope, companyId);
  if (!company) throw new AppError('RECORD_NOT_FOUND');
  const view = monthViewOf(deps, month);
  const [row] = await findCompanyMonthTotals(deps.database.read, scope, view, { companyId });
  const counted = countedTokenMonth(view.month, view.underWay, company.tokenMonth);
  return {
    view: 'company',
    month: view.month,
    companyId,
    employeeId: null,
    merchantId: null,
    totals: row ? totalsOf(row) : ZERO_TOTALS,
    countedMonth: counted,
    window: tokenMonthDays(counted, company.resetDay, view.timeZone),
    daily: () =>
      findDailyFlows(deps.database.read, { kind: 'company', companyId }, counted, view.timeZone),
  };
}

async function resolveView(
  deps: ServiceDeps,
  scope: TenantScope,
  query: DashboardQuery,
): Promise<View> {
  const { database, config } = deps;
  switch (scope.kind) {
    case 'all': {
      if (query.company_id !== undefined) {
        return companyView(deps, scope, query.company_id, query.month);
      }
      const view = monthViewOf(deps, query.month);
      const rows = await findCompanyMonthTotals(database.read, scope, view);
      // From the earliest first day counted to the latest last one; the calendar month if no company.
      const calendar = calendarMonthWindow(view.month, view.timeZone);
      const window = rows.length
        ? {
            from: rows.reduce((min, r) => (r.counted_from < min ? r.counted_from : min), '9999'),
            to: rows.reduce((max, r) => (r.counted_to > max ? r.counted_to : max), ''),
          }
        : { from: calendar.firstDay, to: calendar.lastDay };
      return {
        view: 'all',
        month: view.month,
        companyId: null,
        employeeId: null,
        merchantId: null,
        totals: sumTotals(rows),
        countedMonth: null,
        window,
        daily: () => findCountedDailyFlows(database.read, view),
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
      const view = monthViewOf(deps, query.month);
      const counted = countedTokenMonth(view.month, view.underWay, company.tokenMonth);
      const wallet = await lookupEmployeeMonth(
        database.read,
        scope.companyId,
        scope.employeeId,
        counted,
      );
      // An employee user without a wallet has nothing to show rather than an error.
      const totals: DashboardTotals = wallet
        ? {
            ...ZERO_TOTALS,
            distributed_to_employees: wallet.flows.distributed,
            ...consumption(wallet.flows),
            employee_unused: addTokens(
              wallet.flows.employeeExpired,
              wallet.tokenMonth === counted ? wallet.availableTokens : 0,
            ),
          }
        : ZERO_TOTALS;
      return {
        view: 'employee',
        month: view.month,
        companyId: scope.companyId,
        employeeId: wallet?.id ?? null,
        merchantId: null,
        totals,
        countedMonth: counted,
        window: tokenMonthDays(counted, company.resetDay, view.timeZone),
        daily: wallet
          ? () =>
              findDailyFlows(
                database.read,
                { kind: 'employee', employeeId: wallet.id },
                counted,
                view.timeZone,
              )
          : noDays,
      };
    }
    case 'merchant': {
      const view = monthViewOf(deps, query.month);
      const flows = await getMerchantMonth(
        database.read,
        scope.merchantId,
        view.month,
        query.company_id,
      );
      // Orders of every company's employees: the calendar month (decision 0022).
      const calendar = calendarMonthWindow(view.month, config.APP_TIMEZONE);
      const slice: LedgerSlice = {
        kind: 'merchant',
        merchantId: scope.merchantId,
        companyId: query.company_id,
      };
      return {
        view: 'merchant',
        month: view.month,
        companyId: query.company_id ?? null,
        employeeId: null,
        merchantId: scope.merchantId,
        // Nothing of any wallet: the unused amounts are balances (DESIGN 2).
        totals: viewTotals(scope, { ...ZERO_TOTALS, ...consumption(flows) }),
        countedMonth: null,
        window: { from: calendar.firstDay, to: calendar.lastDay },
        daily: () => findDailyFlowsBetween(database.read, slice, calendar, config.APP_TIMEZONE),
      };
    }
  }
}

/**
 * GET /dashboard: the five totals of a month and its daily flows, for the caller's view — every
 * company or one (admin, Group HR), its company (company admin), its own wallet (employee), its
 * terminals' orders (merchant roles). Each company's view counts the token month
 * `countedTokenMonth` gives (decision 0088), and the chart draws the days of what the totals count.
 * Another company than one's own is 404.
 */
export async function getDashboard(
  deps: ServiceDeps,
  scope: TenantScope,
  query: DashboardQuery,
): Promise<Dashboard> {
  const view = await resolveView(deps, scope, query);
  const timeZone = deps.config.APP_TIMEZONE;
  const days = await view.daily();
  // Drawn on the window's days only: a refund written after the token month closed counts in
  // its totals (its row's month) but falls on no day of the window.
  const active: DashboardDay[] = days
    .map((d) => ({
      date: localDay(d.dayStart, timeZone),
      tokens_from_admin: d.tokensFromAdmin,
      distributed_to_employees: d.distributed,
      ...consumption(d),
    }))
    .filter((d) => d.date >= view.window.from && d.date <= view.window.to);
  return {
    month: view.month,
    view: view.view,
    company_id: view.companyId,
    employee_id: view.employeeId,
    merchant_id: view.merchantId,
    totals: view.totals,
    window_start: view.window.from,
    window_end: view.window.to,
    counted_month: view.countedMonth,
    daily: fillDays(
      daysUpTo(view.window.from, view.window.to, localDay(deps.clock.now(), timeZone)),
      active,
    ),
  };
}

/** GET /dashboard/summary (admin, Group HR): every company's totals for a month, and their sum. */
export async function getDashboardSummary(
  deps: ServiceDeps,
  scope: TenantScope,
  query: DashboardSummaryQuery,
): Promise<DashboardSummary> {
  const view = monthViewOf(deps, query.month);
  const companies = await findCompanyMonthTotals(deps.database.read, scope, view);
  return { month: view.month, totals: sumTotals(companies), companies };
}
