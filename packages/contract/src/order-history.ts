import { z } from 'zod';
import { orderSchema } from './orders';
import { orderStatusSchema, refundStateSchema } from './statuses';
import { refundReasonSchema } from './events';
import { datesInOrder, daySchema as calendarDaySchema, orderCursor } from './calendar';
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
 * GET /orders/admin (admin, Group HR): newest first (ties in order of creation). Page with
 * `page`/`page_size`, or — fast at any depth — pass the `next_cursor` of the previous answer as
 * `cursor` (then `page` is ignored).
 */
export const orderHistoryQuerySchema = z
  .object({
    ...filterShape,
    ...pageQuerySchema.shape,
    cursor: orderCursor.schema.optional(),
  })
  .refine(...datesInOrder);
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
