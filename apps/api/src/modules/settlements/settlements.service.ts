import type {
  SettlementCompany,
  SettlementExportQuery,
  SettlementList,
  SettlementListQuery,
  SettlementOrder,
  SettlementPeriod,
  SettlementStatement,
} from '@app/contract';
import { SETTLEMENT_MAX_DAYS } from '@app/contract';
import { AppError } from '../../lib/app-error';
import type { ServiceDeps } from '../../lib/deps';
import type { TenantScope } from '../../lib/scope';
import { inTransaction } from '../../lib/transaction';
import { recordEvent } from '../webhooks';
import {
  countStatementOrders,
  insertClosing,
  lookupLastClosing,
  lookupMerchantInScope,
  findMerchantsInScope,
  findSettlementSums,
  findStatementOrders,
  type MerchantRef,
  type SettlementSums,
} from './settlements.repository';
import {
  halfMonthOf,
  halfMonthsBetween,
  localToday,
  monthsBefore,
  nextHalfMonth,
  previousHalfMonth,
  type HalfMonth,
} from './settlement-periods';

/** The days a list reads: the query's, or this month and the last (about four half-months). */
export function settlementRange(
  { clock, config }: Pick<ServiceDeps, 'clock' | 'config'>,
  query: { from?: string | undefined; to?: string | undefined },
): { from: string; to: string } {
  const today = localToday(clock.now(), config.APP_TIMEZONE);
  const to = query.to ?? (query.from && query.from > today ? query.from : today);
  const from = query.from ?? monthsBefore(to, 1);
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
  if (from > to) throw new AppError('QUERY_PARAM_INVALID', { metadata: { to: 'v.date_order' } });
  if (days >= SETTLEMENT_MAX_DAYS)
    throw new AppError('QUERY_PARAM_INVALID', { metadata: { to: 'v.settlement_range' } });
  return { from, to };
}

const emptyFigures = () => ({
  orders: 0,
  refunds: 0,
  purchased_tokens: 0,
  refunded_tokens: 0,
  net_tokens: 0,
});

function addTo(
  figures: ReturnType<typeof emptyFigures>,
  s: Pick<SettlementSums, 'orders' | 'refunds' | 'purchased' | 'refunded'>,
) {
  figures.orders += s.orders;
  figures.refunds += s.refunds;
  figures.purchased_tokens += s.purchased;
  figures.refunded_tokens += s.refunded;
  figures.net_tokens += s.purchased - s.refunded;
}

/** One statement's head: the merchant, the period, its totals and the split by company. */
function periodOf(
  merchant: MerchantRef,
  period: HalfMonth,
  sums: SettlementSums[],
  now: Date,
): SettlementPeriod {
  const totals = emptyFigures();
  const companies: SettlementCompany[] = sums.map((s) => {
    const figures = emptyFigures();
    addTo(figures, s);
    addTo(totals, s);
    return {
      company_id: s.companyId,
      company_code: s.companyCode,
      company_name: s.companyName,
      ...figures,
    };
  });
  return {
    merchant_id: merchant.id,
    merchant_code: merchant.code,
    merchant_name: merchant.name,
    period_start: period.start,
    period_end: period.end,
    status: period.endsAt <= now ? 'closed' : 'open',
    ...totals,
    companies,
  };
}

/** Every statement of the range in scope that has an order or a refund, newest period first. */
async function findPeriods(
  deps: ServiceDeps,
  scope: TenantScope,
  query: { merchant_id?: number | undefined; from?: string | undefined; to?: string | undefined },
): Promise<{ periods: SettlementPeriod[]; from: string; to: string }> {
  const { database, config, clock } = deps;
  const range = settlementRange(deps, query);
  if (
    query.merchant_id !== undefined &&
    !(await lookupMerchantInScope(database.read, scope, query.merchant_id))
  ) {
    throw new AppError('RECORD_NOT_FOUND');
  }
  const halves = halfMonthsBetween(range.from, range.to, config.APP_TIMEZONE);
  const byStart = new Map(halves.map((h) => [h.start, h]));
  const sums = await findSettlementSums(database.read, scope, halves, query.merchant_id);
  // Rows come grouped by period (newest first) and merchant: one statement per run of rows.
  const groups = new Map<string, SettlementSums[]>();
  for (const s of sums) {
    const key = `${s.periodStart}/${s.merchantId}`;
    const group = groups.get(key);
    if (group) group.push(s);
    else groups.set(key, [s]);
  }
  const now = clock.now();
  const periods = [...groups.values()].map((group) => {
    const first = group[0]!;
    return periodOf(
      { id: first.merchantId, code: first.merchantCode, name: first.merchantName },
      byStart.get(first.periodStart)!,
      group,
      now,
    );
  });
  return { periods, ...range };
}

/**
 * GET /settlements/merchants: the merchants the caller may read statements of. Group HR reads
 * every merchant's statements but may not manage (or list) merchants: this is its filter's list.
 */
export async function listSettlementMerchants(
  { database }: ServiceDeps,
  scope: TenantScope,
): Promise<{ data: MerchantRef[] }> {
  return { data: await findMerchantsInScope(database.read, scope) };
}

/** GET /settlements: a page of statements (each with its split by company). */
export async function listSettlements(
  deps: ServiceDeps,
  scope: TenantScope,
  query: SettlementListQuery,
): Promise<SettlementList> {
  const { periods, from, to } = await findPeriods(deps, scope, query);
  const offset = (query.page - 1) * query.page_size;
  const totals = emptyFigures();
  for (const p of periods) {
    addTo(totals, {
      orders: p.orders,
      refunds: p.refunds,
      purchased: p.purchased_tokens,
      refunded: p.refunded_tokens,
    });
  }
  return {
    data: periods.slice(offset, offset + query.page_size),
    total: periods.length,
    totals,
    from,
    to,
  };
}

/** The statements of GET /exports/settlements: the list's, unpaged. */
export async function findSettlementsForExport(
  deps: ServiceDeps,
  scope: TenantScope,
  query: SettlementExportQuery,
): Promise<SettlementPeriod[]> {
  return (await findPeriods(deps, scope, query)).periods;
}

/** A statement's merchant (in scope, else 404) and its totals. */
export async function getStatementHead(
  deps: ServiceDeps,
  scope: TenantScope,
  merchantId: number,
  periodStart: string,
): Promise<{ statement: SettlementPeriod; period: HalfMonth }> {
  const { database, config, clock } = deps;
  const merchant = await lookupMerchantInScope(database.read, scope, merchantId);
  if (!merchant) throw new AppError('RECORD_NOT_FOUND');
  const period = halfMonthOf(periodStart, config.APP_TIMEZONE);
  const sums = await findSettlementSums(database.read, scope, [period], merchantId);
  return { statement: periodOf(merchant, period, sums, clock.now()), period };
}

/** GET /settlements/{merchant_id}/{period_start}: the statement and a page of its orders. */
export async function getSettlementStatement(
  deps: ServiceDeps,
  scope: TenantScope,
  merchantId: number,
  periodStart: string,
  page: { page: number; page_size: number },
): Promise<SettlementStatement> {
  const { statement, period } = await getStatementHead(deps, scope, merchantId, periodStart);
  const [orders, total] = await Promise.all([
    findStatementOrders(deps.database.read, merchantId, period, {
      offset: (page.page - 1) * page.page_size,
      limit: page.page_size,
    }),
    countStatementOrders(deps.database.read, merchantId, period),
  ]);
  return { data: { statement, orders }, total };
}

/**
 * Every order of a statement (the CSV and the PDF), refused up front past EXPORT_MAX_ROWS.
 * A half-month of one merchant is thousands of orders at the bench's scale: one read.
 */
export async function findAllStatementOrders(
  deps: ServiceDeps,
  merchantId: number,
  period: HalfMonth,
): Promise<SettlementOrder[]> {
  const { database, config } = deps;
  const count = await countStatementOrders(database.read, merchantId, period);
  if (count > config.EXPORT_MAX_ROWS) throw new AppError('EXPORT_TOO_LARGE');
  return findStatementOrders(database.read, merchantId, period, { offset: 0, limit: count });
}

/** A server down for longer than this catches up over several runs (two years of halves). */
const CLOSINGS_PER_RUN = 48;

/**
 * The jobs timer's announcement of closed settlement periods (decision 0084): for each half-month
 * that has ended since the last one announced (on a first run, the last one only), one
 * `settlement.closed` event per merchant with its statement's figures, zeros included, written in
 * the transaction that records the period in `settlement_closings`. Every instance may run it: the
 * period's row is written once (ON CONFLICT DO NOTHING), and the instance that did not write it
 * writes no event. A closed period never changes (decision 0040), so the figures are final.
 * Answers the periods announced, oldest first.
 */
export async function announceClosedSettlements(deps: ServiceDeps): Promise<string[]> {
  const { database, clock, config } = deps;
  const zone = config.APP_TIMEZONE;
  const now = clock.now();
  const lastClosed = previousHalfMonth(halfMonthOf(localToday(now, zone), zone), zone);
  const last = await lookupLastClosing(database.db);
  if (last !== undefined && last >= lastClosed.start) return [];
  const due: HalfMonth[] = [];
  for (
    let period = last === undefined ? lastClosed : nextHalfMonth(halfMonthOf(last, zone), zone);
    period.start <= lastClosed.start && due.length < CLOSINGS_PER_RUN;
    period = nextHalfMonth(period, zone)
  ) {
    due.push(period);
  }
  const announced: string[] = [];
  for (const period of due) {
    const wrote = await inTransaction(database, async (tx) => {
      const at = clock.now();
      if (!(await insertClosing(tx, period, at))) return false;
      const merchants = await findMerchantsInScope(tx, { kind: 'all' });
      const sums = await findSettlementSums(tx, { kind: 'all' }, [period], undefined);
      for (const merchant of merchants) {
        const figures = emptyFigures();
        for (const s of sums) if (s.merchantId === merchant.id) addTo(figures, s);
        await recordEvent(tx, {
          type: 'settlement.closed',
          companyId: null,
          merchantId: merchant.id,
          data: {
            merchant_code: merchant.code,
            merchant_name: merchant.name,
            period_start: period.start,
            period_end: period.end,
            ...figures,
            closed_at: period.endsAt.toISOString(),
          },
          at,
        });
      }
      return true;
    });
    if (wrote) announced.push(period.start);
  }
  return announced;
}
