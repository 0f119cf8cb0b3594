import {
  ORDER_HISTORY_COUNT_LIMIT,
  orderCursor,
  orderSortedCursor,
  type OrderDetail,
  type OrderHistoryFilter,
  type OrderHistoryItem,
  type OrderHistoryList,
  type OrderHistoryQuery,
} from '@app/contract';
import { AppError } from '../../lib/app-error';
import type { ServiceDeps } from '../../lib/deps';
import { dayRange } from '../../lib/periods';
import type { TenantScope } from '../../lib/scope';
import {
  countOrdersUpTo,
  lookupOrderDetail,
  findOrderHistory,
  type OrderCursor,
  sortValueOf,
  type OrderFilter,
  type OrderHistoryRow,
  type OrderSorting,
} from './order-history.repository';

// The orders export reads the same rows as the list, through these.

/** Cursor: the contract's `orderCursor`, `[ordered_at to the microsecond, id]`. Opaque. */
export const encodeOrderCursor = (cursor: OrderCursor): string =>
  orderCursor.encode([cursor.orderedAt, cursor.id]);

/** The query schema has checked it already; a service called directly gets the same refusal. */
export function decodeOrderCursor(cursor: string): OrderCursor {
  const decoded = orderCursor.decode(cursor);
  if (!decoded)
    throw new AppError('QUERY_PARAM_INVALID', { metadata: { cursor: 'v.cursor_invalid' } });
  return { orderedAt: decoded[0], id: decoded[1] };
}

/**
 * The query's sort, with where its cursor says to start; none for the default order (newest
 * first), whose cursor keeps its own shape. The query schema has matched the cursor to the sort
 * (`cursorFitsSort`); a service called directly gets the same refusal.
 */
function sortingOf(query: OrderHistoryQuery): OrderSorting | undefined {
  if (!query.sort) return undefined;
  const order = query.order ?? 'asc';
  if (!query.cursor) return { by: query.sort, order };
  const sorted = orderSortedCursor.decode(query.cursor);
  if (sorted && sorted[0] === query.sort && sorted[1] === order)
    return { by: query.sort, order, after: { value: sorted[2], id: sorted[3] } };
  // The default order's cursor under the sort that equals the default.
  const plain = orderCursor.decode(query.cursor);
  if (plain && query.sort === 'ordered_at' && order === 'desc') return undefined;
  throw new AppError('QUERY_PARAM_INVALID', { metadata: { cursor: 'v.cursor_invalid' } });
}

/** The list's filters in database terms; dates are whole days in the programme's time zone. */
export function toOrderFilter(query: OrderHistoryFilter, timeZone: string): OrderFilter {
  return {
    status: query.status,
    refundState: query.refund_state,
    companyId: query.company_id,
    merchantId: query.merchant_id,
    terminalId: query.terminal_id,
    employeeId: query.employee_id,
    orderNo: query.order_no,
    ...dayRange(query.date_from, query.date_to, timeZone),
  };
}

export const withoutCursor = ({ cursor: _, ...item }: OrderHistoryRow): OrderHistoryItem => item;

/**
 * GET /orders/admin: a page of orders, newest first, with the number matching (counted up to
 * ORDER_HISTORY_COUNT_LIMIT, so a count never scans millions of rows) and a keyset cursor.
 */
export async function listOrderHistory(
  { database, config }: ServiceDeps,
  scope: TenantScope,
  query: OrderHistoryQuery,
): Promise<OrderHistoryList> {
  const filter = toOrderFilter(query, config.APP_TIMEZONE);
  const sort = sortingOf(query);
  const cursor = query.cursor && !sort ? decodeOrderCursor(query.cursor) : undefined;
  const [rows, counted] = await Promise.all([
    findOrderHistory(database.db, scope, filter, {
      cursor,
      sort,
      offset: (query.page - 1) * query.page_size,
      limit: query.page_size + 1,
    }),
    countOrdersUpTo(database.db, scope, filter, ORDER_HISTORY_COUNT_LIMIT + 1),
  ]);
  const page = rows.slice(0, query.page_size);
  const last = page[page.length - 1];
  const hasMore = rows.length > query.page_size && last !== undefined;
  return {
    data: page.map(withoutCursor),
    total: Math.min(counted, ORDER_HISTORY_COUNT_LIMIT),
    total_is_exact: counted <= ORDER_HISTORY_COUNT_LIMIT,
    next_cursor: !hasMore
      ? null
      : sort
        ? orderSortedCursor.encode([sort.by, sort.order, sortValueOf(last, sort.by), last.id])
        : encodeOrderCursor(last.cursor),
  };
}

/** GET /orders/admin/{id}: the order with its items and refunds. */
export async function getOrderDetail(
  { database }: ServiceDeps,
  scope: TenantScope,
  id: number,
): Promise<OrderDetail> {
  const order = await lookupOrderDetail(database.db, scope, id);
  if (!order) throw new AppError('ORDER_NOT_FOUND');
  return order;
}
