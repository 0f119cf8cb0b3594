import { z } from 'zod';

/** Token events of DESIGN 3.2. */
export const TOKEN_EVENTS = [
  'company_issued',
  'employee_issued',
  'order_purchased',
  'order_refunded',
  'company_expired',
  'employee_expired',
  'monthly_tokens_added',
  'monthly_tokens_reset',
] as const;
export const tokenEventSchema = z.enum(TOKEN_EVENTS);
export type TokenEvent = z.infer<typeof tokenEventSchema>;

export const DIRECTIONS = ['received', 'sent'] as const;
export const directionSchema = z.enum(DIRECTIONS);
export type Direction = z.infer<typeof directionSchema>;

export const REFUND_REASONS = ['cancelled', 'rejected', 'item_removed', 'auto_archived'] as const;
export const refundReasonSchema = z.enum(REFUND_REASONS);
export type RefundReason = z.infer<typeof refundReasonSchema>;
