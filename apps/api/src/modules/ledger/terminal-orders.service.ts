// Orders at terminals and their refunds (DESIGN 3.4: order_purchased, order_refunded), each one
// call of its function in sql/terminal-orders.sql, which share one idempotency mechanism.
import type { ErrorCode, OrderItem, RefundReason } from '@app/contract';
import type { Executor } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { SPENDING_REFUSALS } from '../spending-judge';
import type { TerminalIdentity } from '../../lib/principal';
import type { ItemResult } from '../../lib/group-commit';
import {
  placeTerminalOrderRow,
  placeTerminalOrderRows,
  refundTerminalOrderRow,
  type TerminalOrderOutcome,
  type TerminalOrderRow,
} from './ledger.repository';

export type { TerminalOrderOutcome, TerminalOrderRow };

/** The terminal's answer to a request: an HTTP status and the body sent. */
export interface TerminalAnswer {
  status: number;
  body: unknown;
  /** True when the answer is the stored one of an earlier request with the same key (a retry). */
  replayed: boolean;
}

const ORDER_REFUSALS = new Set<ErrorCode>([
  'NO_PAYEE_FOUND',
  'COMPANY_INACTIVE',
  'USER_INACTIVE',
  'INSUFFICIENT_TOKENS',
  // DESIGN 8: a company that takes pay codes only.
  'PAY_CODE_REQUIRED',
  // A pay code spent by the order's own statement (decision 0082) that was used already.
  'PAY_CODE_INVALID',
  // The spending rules' refusals (DESIGN 7), each with its figures as the envelope's `details`.
  ...SPENDING_REFUSALS,
]);

/** What a terminal's order asks for. */
export interface OrderRequest {
  terminal: TerminalIdentity;
  idempotencyKey: string;
  /** Hash of the request, to tell a retry from another request with the same key. */
  requestHash: string;
  companyCode: string;
  staffNumber: string;
  orderType: string;
  items: OrderItem[];
  /** Split tender asked for (DESIGN 7). */
  partial?: boolean;
  /** The payee was named by a pay code (DESIGN 8), which a company may require. */
  byPayCode?: boolean;
  /**
   * The pay code's step the order's statement spends with it (decision 0082): the order is
   * refused with PAY_CODE_INVALID when the device has paid with that step or a later one already,
   * is gone, or is not the payee's.
   */
  payCodeStep?: { deviceId: number; step: number } | undefined;
  /** The programme's time zone (APP_TIMEZONE): the spending rules' local day and hours. */
  timeZone?: string;
  at: Date;
}

/**
 * The function's arguments for an order; BODY_INVALID when its subtotal is not a positive integer.
 * The orders keyed with their terminal key (modules/orders) send the same row.
 */
export function terminalOrderRow(input: OrderRequest): TerminalOrderRow {
  const subtotal = input.items.reduce((sum, i) => sum + i.quantity * i.unit_tokens, 0);
  if (!Number.isSafeInteger(subtotal) || subtotal <= 0) {
    throw new AppError('BODY_INVALID', { metadata: { items: 'v.amount_positive' } });
  }
  return {
    terminalId: input.terminal.id,
    merchantId: input.terminal.merchantId,
    idempotencyKey: input.idempotencyKey,
    requestHash: input.requestHash,
    companyCode: input.companyCode,
    staffNumber: input.staffNumber,
    orderType: input.orderType,
    items: input.items.map((i) => ({
      name: i.name,
      quantity: i.quantity,
      unit_tokens: i.unit_tokens,
    })),
    subtotal,
    partial: input.partial ?? false,
    byPayCode: input.byPayCode ?? false,
    payCodeStep: input.payCodeStep,
    timeZone: input.timeZone ?? 'UTC',
    at: input.at,
  };
}

/**
 * An order paid at a terminal (`order_purchased`), at most once per (terminal, Idempotency-Key):
 * one call of `place_terminal_order`, a batch of one of `place_terminal_orders` (terminal-orders.sql,
 * decisions 0011 and 0061), which finds a stored answer for the key, locks the employee's wallet,
 * checks it, inserts the order and its ledger row and claims the key with the answer. A refusal
 * writes nothing (the key may be retried). When another request claimed the key meanwhile it
 * throws serialization_failure, having written nothing: run it again (`retrying`) and it gets
 * that request's answer.
 */
export async function placeOrder(executor: Executor, input: OrderRequest): Promise<TerminalAnswer> {
  return orderAnswer(await placeTerminalOrderRow(executor, terminalOrderRow(input)));
}

/** An order's answer, or its refusal's AppError, from its outcome (whichever function placed it). */
export function orderAnswer(outcome: TerminalOrderOutcome): TerminalAnswer {
  return terminalAnswer(outcome, ORDER_REFUSALS);
}

/**
 * Several orders in one statement and one transaction (`place_terminal_orders`, group commit,
 * decision 0034, set-based since decision 0061), each decided exactly as `placeOrder` would decide
 * it alone: each answer or refusal is its own, in the order given. Throws only when the statement
 * fails as a whole (then nothing of it committed), as when another request claimed one of its
 * keys meanwhile.
 */
export async function placeOrders(
  executor: Executor,
  inputs: OrderRequest[],
): Promise<ItemResult<TerminalAnswer>[]> {
  const results: ItemResult<TerminalAnswer>[] = [];
  const rows: TerminalOrderRow[] = [];
  const positions: number[] = [];
  inputs.forEach((input, i) => {
    try {
      rows.push(terminalOrderRow(input));
      positions.push(i);
    } catch (error) {
      results[i] = { ok: false, error };
    }
  });
  const outcomes = rows.length > 0 ? await placeTerminalOrderRows(executor, rows) : [];
  outcomes.forEach((outcome, j) => {
    try {
      results[positions[j]!] = { ok: true, value: orderAnswer(outcome) };
    } catch (error) {
      results[positions[j]!] = { ok: false, error };
    }
  });
  return results;
}

const REFUND_REFUSALS = new Set<ErrorCode>([
  'ORDER_NOT_FOUND',
  'ORDER_ALREADY_REFUNDED',
  'REFUND_EXCEEDS_SUBTOTAL',
]);

/**
 * A refund (`order_refunded`): what is left of the order for `cancelled`, `rejected` and
 * `auto_archived`; `amount` for `item_removed`. One call of `refund_terminal_order`, which shares
 * the orders' idempotency mechanism: with `idempotency`, at most once per (terminal, key), a retry
 * answered from the key. A terminal may refund only its merchant's orders (`merchantId`); the
 * auto-archive job passes a null merchant and no key.
 */
export async function refundOrder(
  executor: Executor,
  input: {
    orderId: number;
    merchantId: number | null;
    terminalId: number;
    reason: RefundReason;
    amount?: number | undefined;
    actorUserId?: number | null;
    idempotency?: { key: string; requestHash: string };
    at: Date;
  },
): Promise<TerminalAnswer> {
  const answer = await refundTerminalOrderRow(executor, {
    terminalId: input.terminalId,
    merchantId: input.merchantId,
    idempotencyKey: input.idempotency?.key ?? null,
    requestHash: input.idempotency?.requestHash ?? null,
    orderId: input.orderId,
    reason: input.reason,
    amount: input.amount ?? null,
    actorUserId: input.actorUserId ?? null,
    at: input.at,
  });
  return terminalAnswer(answer, REFUND_REFUSALS);
}

/** The HTTP answer of a terminal function's outcome, or the AppError of its refusal. */
function terminalAnswer(answer: TerminalOrderOutcome, refusals: Set<ErrorCode>): TerminalAnswer {
  switch (answer.outcome) {
    case 'placed':
    case 'refunded':
      return { status: answer.status!, body: answer.body, replayed: false };
    case 'stored':
      return { status: answer.status!, body: answer.body, replayed: true };
    case 'reused':
      throw new AppError('IDEMPOTENCY_KEY_REUSED');
    case 'AMOUNT_REQUIRED':
      throw new AppError('BODY_INVALID', { metadata: { amount: 'v.required' } });
  }
  if (refusals.has(answer.outcome as ErrorCode)) {
    // A refusal's body, when it has one, is its figures (DESIGN 7's `details`).
    const details = answer.body as Record<string, unknown> | null;
    throw new AppError(answer.outcome as ErrorCode, details ? { details } : {});
  }
  throw new Error(`a terminal function answered ${answer.outcome}`);
}
