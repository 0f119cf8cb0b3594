import { z } from 'zod';
import { orderSchema } from './orders';
import { orderStatusSchema, refundStateSchema } from './statuses';
import { refundReasonSchema } from './events';
import {
  datesInOrder,
  daySchema as calendarDaySchema,
  isCursorInstant,
  orderCursor,
  orderHistoryCursorSchema,
  orderSortedCursor,
} from './calendar';
import { ORDER_SORTS, sortQueryShape } from './sorting';
import { idSchema } from './validation';
import { pageQuerySchema } from './common';

const tokens = z.number().int();

/** An order as the back-office lists it: the terminal's view plus names to show. */
export const orderHistoryItemSchema = orderSchema.extend({
  company_name: z.string(),
  /** Our id of the employee (`employee_id` is the staff number, as terminals send it). */
  employee_internal_id: z.number().int(),
  employee_name: z.string().nullable(),
  merchant_code: z.string(),
  merchant_name: z.string(),
  terminal_code: z.string(),
  terminal_name: z.string(),
  last_refunded_at: z.string().nullable(),
  /** `partial` when 0 < refunded_amount < subtotal; `status` stays `ordered` then (DESIGN 3.3). */
  refund_state: refundStateSchema,
});
export type OrderHistoryItem = z.infer<typeof orderHistoryItemSchema>;

/** A refund of an order: one order_refunded ledger row. */
export const orderRefundSchema = z.object({
  transaction_id: z.number().int(),
  occurred_at: z.string(),
  amount: tokens,
  reason: refundReasonSchema,
  terminal_id: z.number().int().nullable(),
  actor_user_id: z.number().int().nullable(),
});
export type OrderRefund = z.infer<typeof orderRefundSchema>;

/** GET /orders/admin/{id}: the order, its items (on the order) and its refunds, oldest first. */
export const orderDetailSchema = orderHistoryItemSchema.extend({
  purchase_transaction_id: z.number().int().nullable(),
  refunds: z.array(orderRefundSchema),
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;

/** The most rows `total` counts; past it `total` stops here and `total_is_exact` is false. */
export const ORDER_HISTORY_COUNT_LIMIT = 10_000;

const filterShape = {
  status: orderStatusSchema.optional(),
  /** Narrows by how much came back: `partial` finds the orders `status` calls `ordered` yet part-refunded. */
  refund_state: refundStateSchema.optional(),
  company_id: idSchema.optional(),
  merchant_id: idSchema.optional(),
  terminal_id: idSchema.optional(),
  /** Our id of the employee. */
  employee_id: idSchema.optional(),
  order_no: z.string().trim().min(1).max(50).optional(),
  date_from: calendarDaySchema.optional(),
  date_to: calendarDaySchema.optional(),
};

/**
 * The filters of the order history and of its CSV export: dates are days in the programme's time
 * zone on `ordered_at`, both ends included.
 */
export const orderHistoryFilterSchema = z.object(filterShape).refine(...datesInOrder);
export type OrderHistoryFilter = z.infer<typeof orderHistoryFilterSchema>;

/**
 * Whether a cursor was made for the query's sort: the default order's cursor only without `sort`
 * (or with the default, `ordered_at` descending), a sorted cursor only under its own sort and
 * order, holding a value of the sorted column's kind.
 */
export function cursorFitsSort(q: {
  cursor?: string | undefined;
  sort?: OrderHistorySortField | undefined;
  order?: 'asc' | 'desc' | undefined;
}): boolean {
  if (!q.cursor) return true;
  const sort = q.sort;
  const order = q.order ?? 'asc';
  if (orderCursor.decode(q.cursor)) return !sort || (sort === 'ordered_at' && order === 'desc');
  const sorted = orderSortedCursor.decode(q.cursor);
  if (!sorted || sorted[0] !== sort || sorted[1] !== order) return false;
  const value = sorted[2];
  if (sort === 'ordered_at') return isCursorInstant(value);
  if (sort === 'order_no') return typeof value === 'string';
  return typeof value === 'number';
}
type OrderHistorySortField = (typeof ORDER_SORTS)[number];

/**
 * GET /orders/admin (admin, Group HR): newest first (ties in order of creation), or by `sort`
 * and `order` (ties by id in the same direction). Page with `page`/`page_size`, or — fast at any
 * depth — pass the `next_cursor` of the previous answer as `cursor` (then `page` is ignored);
 * a cursor is valid only under the sort it was made for.
 */
export const orderHistoryQuerySchema = z
  .object({
    ...filterShape,
    ...pageQuerySchema.shape,
    ...sortQueryShape(ORDER_SORTS),
    // The document's examples agree with the cursor's (a cursor is valid only under its sort).
    sort: sortQueryShape(ORDER_SORTS).sort.meta({ example: 'ordered_at' }),
    order: sortQueryShape(ORDER_SORTS).order.meta({ example: 'asc' }),
    cursor: orderHistoryCursorSchema.optional(),
  })
  .refine(...datesInOrder)
  .refine(cursorFitsSort, { path: ['cursor'], message: 'v.cursor_invalid' });
export type OrderHistoryQuery = z.infer<typeof orderHistoryQuerySchema>;

export const orderHistoryListSchema = z.object({
  data: z.array(orderHistoryItemSchema),
  /** Matching orders, counted up to ORDER_HISTORY_COUNT_LIMIT. */
  total: z.number().int(),
  total_is_exact: z.boolean(),
  next_cursor: z.string().nullable(),
});
export type OrderHistoryList = z.infer<typeof orderHistoryListSchema>;

export const orderHistoryParamsSchema = z.object({ id: idSchema });
