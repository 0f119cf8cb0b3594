import { z } from 'zod';
import { directionSchema, refundReasonSchema, tokenEventSchema } from './events';
import { orderStatusSchema, refundStateSchema } from './statuses';
import { decimalInteger, idSchema } from './validation';
import { datesInOrder, daySchema, transactionCursor } from './calendar';

const tokens = z.number().int();

/** One ledger row (DESIGN 3.2), with the order and employee it concerns for display. */
export const tokenTransactionSchema = z.object({
  id: z.number().int(),
  /** The ledger's write order: each wallet's rows chain in this order (DESIGN 4, transaction). */
  seq: z.number().int(),
  /** When the row was written, by the server's clock: for display; lists sort by `seq`. */
  occurred_at: z.string(),
  event: tokenEventSchema,
  company_id: z.number().int(),
  /** The company the wallet belongs to, named (lists spanning companies show it). */
  company_code: z.string(),
  company_name: z.string(),
  /** Our employee id; null for the company wallet. */
  employee_id: z.number().int().nullable(),
  /** The employee's staff number. */
  employee_number: z.string().nullable(),
  employee_name: z.string().nullable(),
  direction: directionSchema,
  amount: tokens,
  /** Null for merchant roles, which never learn a wallet's balance (DESIGN 2). */
  balance_before: tokens.nullable(),
  balance_after: tokens.nullable(),
  period: z.string(),
  order_id: z.number().int().nullable(),
  order_no: z.string().nullable(),
  order_type: z.string().nullable(),
  order_status: orderStatusSchema.nullable(),
  order_subtotal: tokens.nullable(),
  order_refunded_amount: tokens.nullable(),
  /** The order's refund state (`partial`: 0 < refunded < subtotal); null off order rows. */
  order_refund_state: refundStateSchema.nullable(),
  ordered_at: z.string().nullable(),
  refund_reason: refundReasonSchema.nullable(),
  transfer_id: z.string().nullable(),
  actor_user_id: z.number().int().nullable(),
  terminal_id: z.number().int().nullable(),
  merchant_id: z.number().int().nullable(),
  merchant_code: z.string().nullable(),
  merchant_name: z.string().nullable(),
  /**
   * The other row of a transfer (employee_issued, monthly_tokens_reset): on the company's row the
   * employee who received, on the employee's row the company's row. Null off transfers.
   */
  counterparty_transaction_id: z.number().int().nullable(),
  counterparty_employee_id: z.number().int().nullable(),
  counterparty_employee_number: z.string().nullable(),
  counterparty_employee_name: z.string().nullable(),
  note: z.string().nullable(),
});
export type TokenTransaction = z.infer<typeof tokenTransactionSchema>;

export const TRANSACTION_SCOPES = ['company', 'employee'] as const;
export const TRANSACTIONS_LIMIT_DEFAULT = 20;
export const TRANSACTIONS_LIMIT_MAX = 100;

/** Repeated keys arrive as an array, a single one as a string. */
const repeated = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(item));

/**
 * GET /tokens/transactions: `scope` picks the company wallet or the employees' wallets (both when
 * absent); dates are days in the programme's time zone, both ends included; newest first.
 */
export const transactionListQuerySchema = z
  .object({
    scope: z.enum(TRANSACTION_SCOPES).optional(),
    company_id: idSchema.optional(),
    employee_id: idSchema.optional(),
    event: repeated(tokenEventSchema).optional(),
    type: directionSchema.optional(),
    date_from: daySchema.optional(),
    date_to: daySchema.optional(),
    cursor: transactionCursor.schema.optional(),
    limit: decimalInteger(
      z.number().int().min(1).max(TRANSACTIONS_LIMIT_MAX).default(TRANSACTIONS_LIMIT_DEFAULT),
    ),
  })
  .refine(...datesInOrder);
export type TransactionListQuery = z.infer<typeof transactionListQuerySchema>;
