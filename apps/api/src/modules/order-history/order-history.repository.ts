import { sql, type SQL } from 'drizzle-orm';
import {
  refundStateOf,
  type OrderDetail,
  type OrderHistoryItem,
  type OrderRefund,
  type OrderSort,
  type OrderStatus,
  type RefundState,
  type SortOrder,
} from '@app/contract';
import { queryRows, type Executor } from '../../db/client';
import { iso, isoOrNull, toInt, toIntOrNull } from '../../lib/numbers';
import type { TenantScope } from '../../lib/scope';

/** The filters of the order history, already in database terms. */
export interface OrderFilter {
  status?: OrderStatus | undefined;
  refundState?: RefundState | undefined;
  companyId?: number | undefined;
  merchantId?: number | undefined;
  terminalId?: number | undefined;
  employeeId?: number | undefined;
  orderNo?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

/** Where a page starts: after the order last shown (newest first, ties in order of creation). */
export interface OrderCursor {
  /** `ordered_at` to the microsecond, as the database gave it (ISO 8601, UTC). */
  orderedAt: string;
  id: number;
}

/**
 * A sorted order history (issue 19): by one of the order's own columns, ties by id in the same
 * direction; `after` is the sorted column's value and the id of the last order shown.
 */
export interface OrderSorting {
  by: OrderSort;
  order: SortOrder;
  after?: { value: string | number; id: number } | undefined;
}

/** Each sortable column, and how a cursor's value is read back as one of its values. */
const ORDER_SORT_COLUMNS: Record<OrderSort, { column: SQL; value: (v: string | number) => SQL }> = {
  ordered_at: { column: sql`o.ordered_at`, value: (v) => sql`${v}::timestamptz` },
  order_no: { column: sql`o.order_no`, value: (v) => sql`${v}::text` },
  subtotal: { column: sql`o.subtotal`, value: (v) => sql`${v}::bigint` },
  refunded_amount: { column: sql`o.refunded_amount`, value: (v) => sql`${v}::bigint` },
};

/** The orders a scope may see, on the alias `o` (DESIGN 2: the tenant is part of the query). */
function orderScope(scope: TenantScope): SQL {
  switch (scope.kind) {
    case 'all':
      return sql`true`;
    case 'company':
      return sql`o.company_id = ${scope.companyId}`;
    case 'merchant':
      return sql`o.merchant_id = ${scope.merchantId}`;
    case 'self':
      return sql`o.company_id = ${scope.companyId} AND o.employee_id IN (
        SELECT id FROM employees WHERE company_id = ${scope.companyId}
          AND employee_id = ${scope.employeeId})`;
  }
}

function whereOf(scope: TenantScope, f: OrderFilter): SQL {
  const where: SQL[] = [orderScope(scope)];
  if (f.status) where.push(sql`o.status = ${f.status}`);
  // `full` is `status = 'refunded'` (invariant 4), so the status indexes serve all three.
  if (f.refundState === 'none') where.push(sql`o.status = 'ordered' AND o.refunded_amount = 0`);
  if (f.refundState === 'partial') where.push(sql`o.status = 'ordered' AND o.refunded_amount > 0`);
  if (f.refundState === 'full') where.push(sql`o.status = 'refunded'`);
  if (f.companyId !== undefined) where.push(sql`o.company_id = ${f.companyId}`);
  if (f.merchantId !== undefined) where.push(sql`o.merchant_id = ${f.merchantId}`);
  if (f.terminalId !== undefined) where.push(sql`o.terminal_id = ${f.terminalId}`);
  if (f.employeeId !== undefined) where.push(sql`o.employee_id = ${f.employeeId}`);
  if (f.orderNo !== undefined) where.push(sql`o.order_no = ${f.orderNo}`);
  if (f.from) where.push(sql`o.ordered_at >= ${f.from.toISOString()}::timestamptz`);
  if (f.to) where.push(sql`o.ordered_at < ${f.to.toISOString()}::timestamptz`);
  return sql.join(where, sql` AND `);
}

interface Row {
  id: unknown;
  order_no: string;
  status: OrderStatus;
  subtotal: unknown;
  refunded_amount: unknown;
  company_id: unknown;
  company_code: string;
  company_name: string;
  staff_number: string;
  employee_internal_id: unknown;
  employee_name: string | null;
  merchant_id: unknown;
  merchant_code: string;
  merchant_name: string;
  terminal_id: unknown;
  terminal_code: string;
  terminal_name: string;
  order_type: string;
  items: OrderHistoryItem['items'];
  ordered_at: Date | string;
  last_refunded_at: Date | string | null;
  cursor_at: string;
}

export type OrderHistoryRow = OrderHistoryItem & { cursor: OrderCursor };

/** The value a sorted cursor holds for `row`: what the database compares, to the microsecond. */
export function sortValueOf(row: OrderHistoryRow, by: OrderSort): string | number {
  switch (by) {
    case 'ordered_at':
      return row.cursor.orderedAt;
    case 'order_no':
      return row.order_no;
    case 'subtotal':
      return row.subtotal;
    case 'refunded_amount':
      return row.refunded_amount;
  }
}

const toItem = (r: Row): OrderHistoryRow => ({
  id: toInt(r.id),
  order_no: r.order_no,
  status: r.status,
  subtotal: toInt(r.subtotal),
  refunded_amount: toInt(r.refunded_amount),
  company_id: toInt(r.company_id),
  company_code: r.company_code,
  company_name: r.company_name,
  employee_id: r.staff_number,
  employee_internal_id: toInt(r.employee_internal_id),
  employee_name: r.employee_name,
  merchant_id: toInt(r.merchant_id),
  merchant_code: r.merchant_code,
  merchant_name: r.merchant_name,
  terminal_id: toInt(r.terminal_id),
  terminal_code: r.terminal_code,
  terminal_name: r.terminal_name,
  order_type: r.order_type,
  items: r.items,
  ordered_at: iso(r.ordered_at),
  last_refunded_at: isoOrNull(r.last_refunded_at),
  refund_state: refundStateOf({
    subtotal: toInt(r.subtotal),
    refunded_amount: toInt(r.refunded_amount),
  }),
  cursor: { orderedAt: r.cursor_at, id: toInt(r.id) },
});

const SELECT = sql`
  SELECT o.id, o.order_no, o.status, o.subtotal, o.refunded_amount,
         o.company_id, c.code AS company_code, c.name AS company_name,
         e.employee_id AS staff_number, o.employee_id AS employee_internal_id,
         e.name AS employee_name,
         o.merchant_id, m.code AS merchant_code, m.name AS merchant_name,
         o.terminal_id, tm.code AS terminal_code, tm.name AS terminal_name,
         o.order_type, o.items, o.ordered_at, o.last_refunded_at,
         to_char(o.ordered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_at
    FROM orders o
    JOIN companies c ON c.id = o.company_id
    JOIN employees e ON e.id = o.employee_id
    JOIN merchants m ON m.id = o.merchant_id
    JOIN terminals tm ON tm.id = o.terminal_id`;

/**
 * Orders newest first, ties in order of creation (ORDER BY ordered_at DESC, id), which the
 * company, merchant, terminal, time and refunded indexes of migrations 0002 and 0006 serve. Either
 * after a keyset `cursor` (any depth costs what page 1 costs) or at an `offset`.
 */
export async function findOrderHistory(
  executor: Executor,
  scope: TenantScope,
  f: OrderFilter,
  page: {
    cursor?: OrderCursor | undefined;
    offset?: number;
    limit: number;
    sort?: OrderSorting | undefined;
  },
): Promise<OrderHistoryRow[]> {
  if (page.sort) return findSortedOrderHistory(executor, scope, f, { ...page, sort: page.sort });
  const keyset = page.cursor
    ? sql`AND o.ordered_at <= ${page.cursor.orderedAt}::timestamptz
          AND (o.ordered_at < ${page.cursor.orderedAt}::timestamptz OR o.id > ${page.cursor.id})`
    : sql``;
  const rows = await queryRows<Row>(
    executor,
    sql`${SELECT}
         WHERE ${whereOf(scope, f)} ${keyset}
         ORDER BY o.ordered_at DESC, o.id
         LIMIT ${page.limit} OFFSET ${page.cursor ? 0 : (page.offset ?? 0)}`,
  );
  return rows.map(toItem);
}

/**
 * Orders by a sorted column, ties by id in the same direction, after the keyset `sort.after` (a
 * row comparison, so equal values page by id without a gap or a repeat) or at an `offset`.
 */
async function findSortedOrderHistory(
  executor: Executor,
  scope: TenantScope,
  f: OrderFilter,
  page: { offset?: number; limit: number; sort: OrderSorting },
): Promise<OrderHistoryRow[]> {
  const { column, value } = ORDER_SORT_COLUMNS[page.sort.by];
  const desc = page.sort.order === 'desc';
  const after = page.sort.after;
  const keyset = after
    ? desc
      ? sql`AND (${column}, o.id) < (${value(after.value)}, ${after.id}::bigint)`
      : sql`AND (${column}, o.id) > (${value(after.value)}, ${after.id}::bigint)`
    : sql``;
  const rows = await queryRows<Row>(
    executor,
    sql`${SELECT}
         WHERE ${whereOf(scope, f)} ${keyset}
         ORDER BY ${column} ${desc ? sql`DESC` : sql`ASC`}, o.id ${desc ? sql`DESC` : sql`ASC`}
         LIMIT ${page.limit} OFFSET ${after ? 0 : (page.offset ?? 0)}`,
  );
  return rows.map(toItem);
}

/** How many orders match, counting no further than `max` (bounded cost on any table size). */
export async function countOrdersUpTo(
  executor: Executor,
  scope: TenantScope,
  f: OrderFilter,
  max: number,
): Promise<number> {
  const [row] = await queryRows<{ n: unknown }>(
    executor,
    sql`SELECT count(*) AS n FROM (
          SELECT 1 FROM orders o WHERE ${whereOf(scope, f)} LIMIT ${max}
        ) capped`,
  );
  return toInt(row?.n ?? 0);
}

/** One order with its purchase and refunds (ledger rows), or undefined when out of scope. */
export async function lookupOrderDetail(
  executor: Executor,
  scope: TenantScope,
  id: number,
): Promise<OrderDetail | undefined> {
  const [row] = await queryRows<Row>(
    executor,
    sql`${SELECT} WHERE o.id = ${id} AND ${orderScope(scope)}`,
  );
  if (!row) return undefined;
  const ledger = await queryRows<{
    id: unknown;
    event: 'order_purchased' | 'order_refunded';
    occurred_at: Date | string;
    amount: unknown;
    refund_reason: OrderRefund['reason'] | null;
    terminal_id: unknown;
    actor_user_id: unknown;
  }>(
    executor,
    sql`SELECT t.id, t.event, t.occurred_at, t.amount, t.refund_reason, t.terminal_id,
               t.actor_user_id
          FROM token_transactions t
         WHERE t.order_id = ${id}
         ORDER BY t.id`,
  );
  const { cursor: _cursor, ...item } = toItem(row);
  const purchase = ledger.find((t) => t.event === 'order_purchased');
  return {
    ...item,
    purchase_transaction_id: purchase ? toInt(purchase.id) : null,
    refunds: ledger
      .filter((t) => t.event === 'order_refunded')
      .map((t) => ({
        transaction_id: toInt(t.id),
        occurred_at: iso(t.occurred_at),
        amount: toInt(t.amount),
        reason: t.refund_reason!,
        terminal_id: toIntOrNull(t.terminal_id),
        actor_user_id: toIntOrNull(t.actor_user_id),
      })),
  };
}
