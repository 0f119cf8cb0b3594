import { sql, type SQL } from 'drizzle-orm';
import type { SettlementOrder } from '@app/contract';
import { queryRows, type Executor } from '../../db/client';
import { iso, toInt } from '../../lib/numbers';
import type { TenantScope } from '../../lib/scope';
import type { HalfMonth } from './settlement-periods';

/**
 * The merchants whose statements a scope may read, on the alias `m` (DESIGN 2, decision 0040):
 * the admin and Group HR all, a merchant role its own merchant; no other role reaches this (the
 * permission table), and would see nothing.
 */
export function settlementScope(scope: TenantScope): SQL {
  switch (scope.kind) {
    case 'all':
      return sql`true`;
    case 'merchant':
      return sql`m.id = ${scope.merchantId}`;
    case 'company':
    case 'self':
      return sql`false`;
  }
}

export interface MerchantRef {
  id: number;
  code: string;
  name: string;
}

/** A merchant in scope, or undefined. */
export async function lookupMerchantInScope(
  executor: Executor,
  scope: TenantScope,
  merchantId: number,
): Promise<MerchantRef | undefined> {
  const [row] = await queryRows<{ id: unknown; code: string; name: string }>(
    executor,
    sql`SELECT m.id, m.code, m.name FROM merchants m
         WHERE m.id = ${merchantId} AND ${settlementScope(scope)}`,
  );
  return row && { id: toInt(row.id), code: row.code, name: row.name };
}

/** Every merchant in scope, by code (the screen's merchant filter). */
export async function findMerchantsInScope(
  executor: Executor,
  scope: TenantScope,
): Promise<MerchantRef[]> {
  const rows = await queryRows<{ id: unknown; code: string; name: string }>(
    executor,
    sql`SELECT m.id, m.code, m.name FROM merchants m
         WHERE ${settlementScope(scope)} ORDER BY m.code, m.id`,
  );
  return rows.map((r) => ({ id: toInt(r.id), code: r.code, name: r.name }));
}

/** The figures of one merchant, period and company, summed from the ledger. */
export interface SettlementSums {
  merchantId: number;
  merchantCode: string;
  merchantName: string;
  periodStart: string;
  companyId: number;
  companyCode: string;
  companyName: string;
  orders: number;
  refunds: number;
  purchased: number;
  refunded: number;
}

/**
 * An instant as PostgreSQL reads it: the end of 9999-12-31 lies in year 10000, whose ISO text
 * (`+010000-…`) PostgreSQL refuses, so the sign and the extra zero go.
 */
export const pgInstant = (instant: Date): string =>
  instant.toISOString().replace(/^\+0*(\d{5,})/, '$1');

/** The periods as a VALUES list: their first day and their two instants. */
const periodValues = (periods: HalfMonth[]): SQL =>
  sql.join(
    periods.map(
      (p) =>
        sql`(${p.start}::text, ${pgInstant(p.startsAt)}::timestamptz, ${pgInstant(p.endsAt)}::timestamptz)`,
    ),
    sql`, `,
  );

/**
 * The sums of the order_purchased and order_refunded rows of each merchant in scope, period and
 * company: a row counts in the period its `occurred_at` lies in (the purchase when the order was
 * placed, a refund when it was made). Rows are appended, never changed, and written at the
 * server's clock, so a period that is over keeps its sums. One range of
 * token_tx_merchant_time_idx (migration 0020) per merchant and period, read from the index alone.
 */
export async function findSettlementSums(
  executor: Executor,
  scope: TenantScope,
  periods: HalfMonth[],
  merchantId: number | undefined,
): Promise<SettlementSums[]> {
  if (periods.length === 0) return [];
  const rows = await queryRows<{
    merchant_id: unknown;
    merchant_code: string;
    merchant_name: string;
    period_start: string;
    company_id: unknown;
    company_code: string;
    company_name: string;
    orders: unknown;
    refunds: unknown;
    purchased: unknown;
    refunded: unknown;
  }>(
    executor,
    sql`WITH p (period_start, starts_at, ends_at) AS (VALUES ${periodValues(periods)}),
        sums AS (
          SELECT m.id AS merchant_id, p.period_start, s.company_id, s.orders, s.refunds,
                 s.purchased, s.refunded
            FROM merchants m
           CROSS JOIN p
           CROSS JOIN LATERAL (
             SELECT t.company_id,
                    count(*) FILTER (WHERE t.event = 'order_purchased') AS orders,
                    count(*) FILTER (WHERE t.event = 'order_refunded') AS refunds,
                    coalesce(sum(t.amount) FILTER (WHERE t.event = 'order_purchased'), 0) AS purchased,
                    coalesce(sum(t.amount) FILTER (WHERE t.event = 'order_refunded'), 0) AS refunded
               FROM token_transactions t
              WHERE t.merchant_id = m.id
                AND t.occurred_at >= p.starts_at AND t.occurred_at < p.ends_at
              GROUP BY t.company_id
           ) s
           WHERE ${settlementScope(scope)}
             ${merchantId !== undefined ? sql`AND m.id = ${merchantId}` : sql``}
        )
        SELECT s.*, m.code AS merchant_code, m.name AS merchant_name,
               c.code AS company_code, c.name AS company_name
          FROM sums s
          JOIN merchants m ON m.id = s.merchant_id
          JOIN companies c ON c.id = s.company_id
         ORDER BY s.period_start DESC, m.code, m.id, c.code, c.id`,
  );
  return rows.map((r) => ({
    merchantId: toInt(r.merchant_id),
    merchantCode: r.merchant_code,
    merchantName: r.merchant_name,
    periodStart: r.period_start,
    companyId: toInt(r.company_id),
    companyCode: r.company_code,
    companyName: r.company_name,
    orders: toInt(r.orders),
    refunds: toInt(r.refunds),
    purchased: toInt(r.purchased),
    refunded: toInt(r.refunded),
  }));
}

/** The orders of one merchant's statement: its ledger rows in the period, by order. */
const statementLines = (merchantId: number, period: HalfMonth): SQL => sql`
  SELECT t.order_id,
         coalesce(sum(t.amount) FILTER (WHERE t.event = 'order_purchased'), 0) AS purchased,
         coalesce(sum(t.amount) FILTER (WHERE t.event = 'order_refunded'), 0) AS refunded
    FROM token_transactions t
   WHERE t.merchant_id = ${merchantId}
     AND t.occurred_at >= ${pgInstant(period.startsAt)}::timestamptz
     AND t.occurred_at < ${pgInstant(period.endsAt)}::timestamptz
   GROUP BY t.order_id`;

/** How many orders a statement holds. */
export async function countStatementOrders(
  executor: Executor,
  merchantId: number,
  period: HalfMonth,
): Promise<number> {
  const [row] = await queryRows<{ n: unknown }>(
    executor,
    sql`SELECT count(*) AS n FROM (${statementLines(merchantId, period)}) l`,
  );
  return toInt(row?.n ?? 0);
}

/** A page of a statement's orders, oldest first (order time, then id). */
export async function findStatementOrders(
  executor: Executor,
  merchantId: number,
  period: HalfMonth,
  page: { offset: number; limit: number },
): Promise<SettlementOrder[]> {
  const rows = await queryRows<{
    order_id: unknown;
    order_no: string;
    ordered_at: Date | string;
    terminal_id: unknown;
    terminal_code: string;
    terminal_name: string;
    company_id: unknown;
    company_code: string;
    company_name: string;
    staff_number: string;
    employee_name: string | null;
    subtotal: unknown;
    purchased: unknown;
    refunded: unknown;
  }>(
    executor,
    sql`SELECT o.id AS order_id, o.order_no, o.ordered_at,
               o.terminal_id, tm.code AS terminal_code, tm.name AS terminal_name,
               o.company_id, c.code AS company_code, c.name AS company_name,
               e.employee_id AS staff_number, e.name AS employee_name,
               o.subtotal, l.purchased, l.refunded
          FROM (${statementLines(merchantId, period)}) l
          JOIN orders o ON o.id = l.order_id
          JOIN terminals tm ON tm.id = o.terminal_id
          JOIN companies c ON c.id = o.company_id
          JOIN employees e ON e.id = o.employee_id
         ORDER BY o.ordered_at, o.id
         LIMIT ${page.limit} OFFSET ${page.offset}`,
  );
  return rows.map((r) => {
    const purchased = toInt(r.purchased);
    const refunded = toInt(r.refunded);
    return {
      order_id: toInt(r.order_id),
      order_no: r.order_no,
      ordered_at: iso(r.ordered_at),
      terminal_id: toInt(r.terminal_id),
      terminal_code: r.terminal_code,
      terminal_name: r.terminal_name,
      company_id: toInt(r.company_id),
      company_code: r.company_code,
      company_name: r.company_name,
      employee_id: r.staff_number,
      employee_name: r.employee_name,
      subtotal: toInt(r.subtotal),
      purchased_tokens: purchased,
      refunded_tokens: refunded,
      net_tokens: purchased - refunded,
    };
  });
}

/** The last half-month whose close was announced (settlement_closings), or undefined. */
export async function lookupLastClosing(executor: Executor): Promise<string | undefined> {
  const [row] = await queryRows<{ period_start: string | null }>(
    executor,
    sql`SELECT max(period_start)::text AS period_start FROM settlement_closings`,
  );
  return row?.period_start ?? undefined;
}

/**
 * Records that a period's close is being announced; false when another instance did it first
 * (its row exists), and then this transaction must write nothing.
 */
export async function insertClosing(
  executor: Executor,
  period: HalfMonth,
  at: Date,
): Promise<boolean> {
  const rows = await queryRows<{ period_start: unknown }>(
    executor,
    sql`INSERT INTO settlement_closings (period_start, period_end, closed_at)
        VALUES (${period.start}::date, ${period.end}::date, ${at.toISOString()}::timestamptz)
        ON CONFLICT (period_start) DO NOTHING
        RETURNING period_start`,
  );
  return rows.length === 1;
}
