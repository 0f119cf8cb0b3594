import crypto from 'node:crypto';
import type { CreateOrderBody, RefundOrderBody, RefundResult } from '@app/contract';
import { IDEMPOTENCY_KEY_MAX } from '@app/contract';
import type { Executor, Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { ServiceDeps } from '../../lib/deps';
import { inTransaction, retrying } from '../../lib/transaction';
import type { TerminalIdentity } from '../../lib/principal';
import { placeOrder, refundOrder, type TerminalAnswer } from '../ledger/ledger.service';
import { claimIdempotencyKey, getOrderView, storeIdempotentAnswer } from './orders.repository';

export type { TerminalAnswer };

/** JSON with keys sorted at every level, so equal requests hash equally. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** What tells a retry (same hash) from another request sent with the same key. */
const hashRequest = (path: string, body: unknown): string =>
  crypto
    .createHash('sha256')
    .update(canonicalJson({ method: 'POST', path, body }))
    .digest('hex');

export function checkIdempotencyKey(value: unknown): string {
  if (typeof value !== 'string') throw new AppError('IDEMPOTENCY_KEY_REQUIRED');
  const key = value.trim();
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX) {
    throw new AppError('IDEMPOTENCY_KEY_REQUIRED');
  }
  return key;
}

type TerminalRequest = (
  tx: Tx,
  at: Date,
) => Promise<{ status: number; body: unknown; orderId: number }>;

/**
 * Runs a terminal request at most once per (terminal, Idempotency-Key). The key is claimed in the
 * same transaction as the ledger writes, so the key, the order and the ledger row commit together
 * or not at all. Only successful answers are kept: a refused request (e.g. INSUFFICIENT_TOKENS)
 * created nothing and may be retried with the same key.
 */
async function onceIn(
  tx: Tx,
  { clock }: Pick<ServiceDeps, 'clock'>,
  terminal: TerminalIdentity,
  idempotencyKey: string,
  request: { path: string; body: unknown },
  run: TerminalRequest,
): Promise<TerminalAnswer> {
  const requestHash = hashRequest(request.path, request.body);
  const at = clock.now();
  const stored = await claimIdempotencyKey(tx, {
    terminalId: terminal.id,
    key: idempotencyKey,
    requestHash,
    createdAt: at,
  });
  if (stored) {
    if (stored.requestHash !== requestHash || stored.responseStatus === null) {
      throw new AppError('IDEMPOTENCY_KEY_REUSED');
    }
    return { status: stored.responseStatus, body: stored.responseBody };
  }
  const answer = await run(tx, at);
  await storeIdempotentAnswer(tx, {
    terminalId: terminal.id,
    key: idempotencyKey,
    status: answer.status,
    body: answer.body,
    orderId: answer.orderId,
  });
  return { status: answer.status, body: answer.body };
}

const refunding =
  (terminal: TerminalIdentity, orderId: number, body: RefundOrderBody): TerminalRequest =>
  async (tx, at) => {
    const { refund } = await refundOrder(tx, {
      orderId,
      merchantId: terminal.merchantId,
      terminalId: terminal.id,
      reason: body.reason,
      amount: body.amount,
      at,
    });
    const result: RefundResult = { order: await getOrderView(tx, orderId), refund };
    return { status: 200, body: { data: result }, orderId };
  };

/**
 * POST /orders on `executor`: the database or a caller's transaction. One statement (migration
 * 0012), so on its own it needs no transaction of its own.
 */
export function placeTerminalOrderIn(
  executor: Executor,
  { clock }: Pick<ServiceDeps, 'clock'>,
  terminal: TerminalIdentity,
  idempotencyKey: string,
  body: CreateOrderBody,
): Promise<TerminalAnswer> {
  return placeOrder(executor, {
    terminal,
    idempotencyKey,
    requestHash: hashRequest('/orders', body),
    companyCode: body.company_code,
    staffNumber: body.employee_id,
    orderType: body.order_type,
    items: body.items,
    at: clock.now(),
  });
}

/** POST /orders/{id}/refund, inside `tx`: returns tokens to the employee who paid. */
export function refundTerminalOrderIn(
  tx: Tx,
  deps: Pick<ServiceDeps, 'clock'>,
  terminal: TerminalIdentity,
  idempotencyKey: string,
  orderId: number,
  body: RefundOrderBody,
): Promise<TerminalAnswer> {
  return onceIn(
    tx,
    deps,
    terminal,
    idempotencyKey,
    { path: `/orders/${orderId}/refund`, body },
    refunding(terminal, orderId, body),
  );
}

/** POST /orders. */
export async function placeTerminalOrder(
  deps: ServiceDeps,
  terminal: TerminalIdentity,
  idempotencyKey: string,
  body: CreateOrderBody,
): Promise<TerminalAnswer> {
  return retrying(() =>
    placeTerminalOrderIn(deps.database.db, deps, terminal, idempotencyKey, body),
  );
}

/** POST /orders/{id}/refund. */
export async function refundTerminalOrder(
  deps: ServiceDeps,
  terminal: TerminalIdentity,
  idempotencyKey: string,
  orderId: number,
  body: RefundOrderBody,
): Promise<TerminalAnswer> {
  return inTransaction(deps.database, (tx) =>
    refundTerminalOrderIn(tx, deps, terminal, idempotencyKey, orderId, body),
  );
}
