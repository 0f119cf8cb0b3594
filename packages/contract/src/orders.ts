import { z } from 'zod';
import { orderStatusSchema } from './statuses';
import { refundReasonSchema } from './events';
import {
  codeSchema,
  employeeIdSchema,
  idSchema,
  numberError,
  tokenAmountSchema,
  wholeNumber,
} from './validation';
import { payCodeSchema } from './pay-codes';

const tokens = z.number().int();

/** The header every terminal order and refund carries; a retry with the same key is answered once. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_KEY_MAX = 200;

export const orderItemSchema = z.strictObject({
  name: z.string('v.required').trim().min(1, 'v.required').max(200),
  quantity: z
    .number({ error: numberError() })
    .int(wholeNumber())
    .min(1, 'v.amount_positive')
    .max(10_000, 'v.number_range'),
  unit_tokens: z
    .number({ error: numberError() })
    .int(wholeNumber('v.amount_too_large'))
    .min(0, 'v.initial_token_min')
    .max(Number.MAX_SAFE_INTEGER, 'v.amount_too_large'),
});
export type OrderItem = z.infer<typeof orderItemSchema>;

/**
 * POST /orders (terminal): the employee is named by company code and staff number, or by a pay
 * code of its wallet (DESIGN 8), one or the other.
 */
export const createOrderBodySchema = z
  .strictObject({
    company_code: codeSchema.optional(),
    employee_id: employeeIdSchema.optional(),
    /** The 18 digits the employee's wallet shows (DESIGN 8): good once, for about 30 s. */
    pay_code: payCodeSchema.optional(),
    order_type: z.string('v.required').trim().min(1, 'v.required').max(50),
    items: z
      .array(orderItemSchema, 'v.required')
      .min(1, 'v.required')
      .max(100, 'v.invalid')
      .superRefine((items, ctx) => {
        // An item already refused says what is wrong with it; the total only of valid items.
        if (!items.every((item) => orderItemSchema.safeParse(item).success)) return;
        const subtotal = items.reduce((sum, i) => sum + i.quantity * i.unit_tokens, 0);
        // Past 2^53 - 1 the sum is no longer exact: too large, not "not positive" (issue 14).
        if (!Number.isSafeInteger(subtotal)) {
          ctx.addIssue({ code: 'custom', message: 'v.subtotal_too_large', input: items });
        } else if (subtotal <= 0) {
          ctx.addIssue({ code: 'custom', message: 'v.amount_positive', input: items });
        }
      }),
    /**
     * Split tender (DESIGN 7): where the company's rules allow it, an order the balance or the
     * day's remaining limit covers only in part is accepted for what is covered.
     */
    partial: z.boolean('v.invalid').optional(),
  })
  .superRefine((body, ctx) => {
    if (body.pay_code !== undefined) return;
    for (const field of ['company_code', 'employee_id'] as const) {
      if (body[field] === undefined) {
        ctx.addIssue({ code: 'custom', message: 'v.pay_code_or_payee', path: [field] });
      }
    }
  });
export type CreateOrderBody = z.infer<typeof createOrderBodySchema>;
/** An order's body once its payee is named by company code and staff number. */
export type PayeeOrderBody = Omit<CreateOrderBody, 'company_code' | 'employee_id' | 'pay_code'> & {
  company_code: string;
  employee_id: string;
};

export const orderSchema = z.object({
  id: z.number().int(),
  order_no: z.string(),
  status: orderStatusSchema,
  subtotal: tokens,
  refunded_amount: tokens,
  /** What the wallet paid (DESIGN 7): refunds are bounded by it. */
  paid_tokens: tokens.optional(),
  /** The bill less what the wallet paid: what the till collected otherwise (DESIGN 7). */
  to_pay_otherwise: tokens.optional(),
  company_id: z.number().int(),
  company_code: z.string(),
  /** The staff number the order was placed for. */
  employee_id: z.string(),
  merchant_id: z.number().int(),
  terminal_id: z.number().int(),
  order_type: z.string(),
  items: z.array(z.object({ name: z.string(), quantity: z.number(), unit_tokens: z.number() })),
  ordered_at: z.string(),
});
export type Order = z.infer<typeof orderSchema>;

/** The answer to POST /orders: the order and the employee's balance after paying. */
export const placedOrderSchema = orderSchema.extend({
  available_tokens: tokens,
  /** What the wallet paid: the subtotal, or less for a partial order (DESIGN 7). */
  paid_tokens: tokens,
  /** subtotal − paid_tokens: what the till collects otherwise. */
  to_pay_otherwise: tokens,
});
export type PlacedOrder = z.infer<typeof placedOrderSchema>;

/**
 * POST /orders/{id}/refund (terminal). `cancelled`, `rejected` and `auto_archived` refund what is
 * left of the order; `item_removed` refunds `amount`, which it alone carries.
 */
export const refundOrderBodySchema = z
  .strictObject({ reason: refundReasonSchema, amount: tokenAmountSchema.optional() })
  .superRefine((body, ctx) => {
    if (body.reason === 'item_removed' && body.amount === undefined) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'v.required' });
    }
    if (body.reason !== 'item_removed' && body.amount !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'v.unknown_field' });
    }
  });
export type RefundOrderBody = z.infer<typeof refundOrderBodySchema>;

export const refundResultSchema = z.object({
  order: orderSchema,
  refund: z.object({
    amount: tokens,
    reason: refundReasonSchema,
    transaction_id: z.number().int(),
    available_tokens: tokens,
  }),
});
export type RefundResult = z.infer<typeof refundResultSchema>;

export const orderIdParamsSchema = z.object({ id: idSchema });
