import { z } from 'zod';
import { ORDER_STATUSES, STATUSES } from './constants';

export { ORDER_STATUSES, STATUSES } from './constants';

export const statusSchema = z.enum(STATUSES, 'v.status_required');
export type Status = z.infer<typeof statusSchema>;

export const orderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof orderStatusSchema>;

export const statusChangeBodySchema = z.strictObject({ status: statusSchema });
export type StatusChangeBody = z.infer<typeof statusChangeBodySchema>;

/**
 * How much of an order came back (derived from `refunded_amount` and `subtotal`): `partial` is
 * 0 < refunded < subtotal. The order's `status` stays `ordered`/`refunded` (DESIGN 3.3, 4).
 */
export const REFUND_STATES = ['none', 'partial', 'full'] as const;
export const refundStateSchema = z.enum(REFUND_STATES);
export type RefundState = z.infer<typeof refundStateSchema>;

export function refundStateOf(order: { subtotal: number; refunded_amount: number }): RefundState {
  if (order.refunded_amount <= 0) return 'none';
  return order.refunded_amount >= order.subtotal ? 'full' : 'partial';
}
