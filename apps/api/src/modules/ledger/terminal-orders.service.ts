// Orders at terminals and their refunds (DESIGN 3.4: order_purchased, order_refunded).
import type { ErrorCode, OrderItem, RefundReason, RefundResult } from '@app/contract';
import type { Executor, Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { TerminalIdentity } from '../../lib/principal';
import { lockEmployee, lockOrder, placeTerminalOrderRow } from './ledger.repository';
import { employeeWallet, Postings } from './postings';

/** The terminal's answer to a request: an HTTP status and the body sent. */
export interface TerminalAnswer {
  status: number;
  body: unknown;
}

const ORDER_REFUSALS = new Set<ErrorCode>([
  'NO_PAYEE_FOUND',
  'COMPANY_INACTIVE',
  'USER_INACTIVE',
  'INSUFFICIENT_TOKENS',
]);

/**
 * An order paid at a terminal (`order_purchased`), at most once per (terminal, Idempotency-Key):
 * one call of `place_terminal_order` (migration 0012, decision 0011), which finds a stored answer
 * for the key, locks the employee's wallet, checks it, claims the key, inserts the order and its
 * ledger row and stores the answer. A refusal writes nothing (the key may be retried).
 */
export async function placeOrder(
  executor: Executor,
  input: {
    terminal: TerminalIdentity;
    idempotencyKey: string;
    /** Hash of the request, to tell a retry from another request with the same key. */
    requestHash: string;
    companyCode: string;
    staffNumber: string;
    orderType: string;
    items: OrderItem[];
    at: Date;
  },
): Promise<TerminalAnswer> {
  const subtotal = input.items.reduce((sum, i) => sum + i.quantity * i.unit_tokens, 0);
  if (!Number.isSafeInteger(subtotal) || subtotal <= 0) {
    throw new AppError('BODY_INVALID', { metadata: { items: 'v.amount_positive' } });
  }
  const answer = await placeTerminalOrderRow(executor, {
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
    at: input.at,
  });
  if (answer.outcome === 'placed' || answer.outcome === 'stored') {
    return { status: answer.status!, body: answer.body };
  }
  if (answer.outcome === 'reused') throw new AppError('IDEMPOTENCY_KEY_REUSED');
  if (ORDER_REFUSALS.has(answer.outcome as ErrorCode)) {
    throw new AppError(answer.outcome as ErrorCode);
  }
  throw new Error(`place_terminal_order answered ${answer.outcome}`);
}

/**
 * A refund (`order_refunded`): what is left of the order for `cancelled`, `rejected` and
 * `auto_archived`; `amount` for `item_removed`. A terminal may refund only its merchant's orders
 * (`merchantId`); the auto-archive job passes null.
 */
export async function refundOrder(
  tx: Tx,
  input: {
    orderId: number;
    merchantId: number | null;
    terminalId: number;
    reason: RefundReason;
    amount?: number;
    actorUserId?: number | null;
    at: Date;
  },
): Promise<{ orderId: number; refund: RefundResult['refund'] }> {
  const order = await lockOrder(tx, input.orderId, input.merchantId);
  if (!order) throw new AppError('ORDER_NOT_FOUND');
  const remaining = order.subtotal - order.refundedAmount;
  if (remaining <= 0) throw new AppError('ORDER_ALREADY_REFUNDED');
  const amount = input.reason === 'item_removed' ? input.amount : remaining;
  if (amount === undefined || amount <= 0) {
    throw new AppError('BODY_INVALID', { metadata: { amount: 'v.required' } });
  }
  if (amount > remaining) throw new AppError('REFUND_EXCEEDS_SUBTOTAL');

  const employee = await lockEmployee(tx, order.employeeId);
  if (!employee) throw new Error(`employee ${order.employeeId} of order ${order.id} vanished`);
  const wallet = employeeWallet(employee);
  const postings = new Postings({ at: input.at, actorUserId: input.actorUserId });
  postings.post(wallet, 'order_refunded', 'received', amount, {
    period: employee.tokenMonth,
    orderId: order.id,
    refundReason: input.reason,
    terminalId: input.terminalId,
    merchantId: order.merchantId,
  });
  const [transactionId] = await postings.flush(tx);
  // The caller reads the order back (orders service): the ledger imports nothing from orders.
  return {
    orderId: order.id,
    refund: {
      amount,
      reason: input.reason,
      transaction_id: transactionId!,
      available_tokens: wallet.balance,
    },
  };
}
