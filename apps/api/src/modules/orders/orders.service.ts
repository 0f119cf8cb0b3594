import type { CreateOrderBody, RefundOrderBody } from '@app/contract';
import type { Executor } from '../../db/client';
import { checkIdempotencyKey, hashRequest } from '../../lib/idempotency';
import type { ServiceDeps } from '../../lib/deps';
import { retrying } from '../../lib/transaction';
import type { TerminalIdentity } from '../../lib/principal';
import { groupCommitsByDatabase, terminalGroupCommitLimits } from '../../lib/group-commit';
import {
  placeKeyedOrders,
  placeOrder,
  placeOrders,
  refundOrder,
  type KeyedOrderRequest,
  type KeyedOrderResult,
  type OrderRequest,
  type TerminalAnswer,
} from '../ledger/ledger.service';

export type { KeyedOrderResult, TerminalAnswer };

export { checkIdempotencyKey };

function orderRequest(
  deps: Pick<ServiceDeps, 'clock'>,
  terminal: TerminalIdentity,
  idempotencyKey: string,
  body: CreateOrderBody,
): OrderRequest {
  return { terminal, ...orderOf(deps, idempotencyKey, body) };
}

function orderOf(
  { clock }: Pick<ServiceDeps, 'clock'>,
  idempotencyKey: string,
  body: CreateOrderBody,
): Omit<OrderRequest, 'terminal'> {
  return {
    idempotencyKey,
    requestHash: hashRequest('/orders', body),
    companyCode: body.company_code,
    staffNumber: body.employee_id,
    orderType: body.order_type,
    items: body.items,
    at: clock.now(),
  };
}

/**
 * POST /orders on `executor`: the database or a caller's transaction. One statement (migration
 * 0012), so on its own it needs no transaction of its own.
 */
export function placeTerminalOrderIn(
  executor: Executor,
  deps: Pick<ServiceDeps, 'clock'>,
  terminal: TerminalIdentity,
  idempotencyKey: string,
  body: CreateOrderBody,
): Promise<TerminalAnswer> {
  return placeOrder(executor, orderRequest(deps, terminal, idempotencyKey, body));
}

/**
 * POST /orders/{id}/refund on `executor`: returns tokens to the employee who paid. One statement
 * (terminal-orders.sql), under the same idempotency mechanism as the order.
 */
export function refundTerminalOrderIn(
  executor: Executor,
  { clock }: Pick<ServiceDeps, 'clock'>,
  terminal: TerminalIdentity,
  idempotencyKey: string,
  orderId: number,
  body: RefundOrderBody,
): Promise<TerminalAnswer> {
  return refundOrder(executor, {
    orderId,
    merchantId: terminal.merchantId,
    terminalId: terminal.id,
    reason: body.reason,
    amount: body.amount,
    idempotency: {
      key: idempotencyKey,
      requestHash: hashRequest(`/orders/${orderId}/refund`, body),
    },
    at: clock.now(),
  });
}

/** Each database's (each instance's) group commit of orders: what arrives while it is busy goes together. */
const orderGroupCommits = groupCommitsByDatabase<OrderRequest, TerminalAnswer>();

const orderGroupCommit = (deps: ServiceDeps) =>
  orderGroupCommits(deps.database, () => ({
    runBatch: (requests) => placeOrders(deps.database.db, requests),
    runOne: (request) => retrying(() => placeOrder(deps.database.db, request)),
    ...batchOptions(deps),
  }));

/** The batch limits and the batch-size metric, the same for both order group commits. */
const batchOptions = (deps: ServiceDeps) => ({
  ...terminalGroupCommitLimits(deps.config),
  onBatch: (size: number) => deps.metrics?.orderBatchSize.observe(size),
});

/**
 * POST /orders: one statement of its own under a light load; with the orders that arrived
 * meanwhile (group commit, decision 0034) when earlier ones are still at the database.
 */
export async function placeTerminalOrder(
  deps: ServiceDeps,
  terminal: TerminalIdentity,
  idempotencyKey: string,
  body: CreateOrderBody,
): Promise<TerminalAnswer> {
  const answer = await orderGroupCommit(deps).submit(
    orderRequest(deps, terminal, idempotencyKey, body),
  );
  // Counted once committed, and not again when a retry is answered from its key.
  if (!answer.replayed) deps.metrics?.ordersPlaced.inc();
  return answer;
}

/** POST /orders/{id}/refund. */
export async function refundTerminalOrder(
  deps: ServiceDeps,
  terminal: TerminalIdentity,
  idempotencyKey: string,
  orderId: number,
  body: RefundOrderBody,
): Promise<TerminalAnswer> {
  const answer = await retrying(() =>
    refundTerminalOrderIn(deps.database.db, deps, terminal, idempotencyKey, orderId, body),
  );
  if (!answer.replayed) deps.metrics?.refunds.inc({ reason: body.reason });
  return answer;
}

/** The key of a POST /orders to be checked in the order's own statement (decision 0043). */
export interface OrderKey {
  hash: string;
  wrongKeysKey: string;
  windowMs: number;
  now: Date;
}

/** Each database's (each instance's) group commit of orders checked with their keys. */
const keyedGroupCommits = groupCommitsByDatabase<KeyedOrderRequest, KeyedOrderResult>();

const keyedGroupCommit = (
  deps: ServiceDeps,
  limits: { windowMs: number; maxWrongKeys: number; maxPerKey: number },
) =>
  keyedGroupCommits(deps.database, () => ({
    runBatch: async (requests) =>
      (await placeKeyedOrders(deps.database.db, requests, limits)).map((value) => ({
        ok: true as const,
        value,
      })),
    runOne: async (request) =>
      (await retrying(() => placeKeyedOrders(deps.database.db, [request], limits)))[0]!,
    ...batchOptions(deps),
  }));

/**
 * POST /orders with its terminal key checked in the same statement and transaction (decision
 * 0043): one round trip per batch of orders instead of two. Answers what the key check found (the
 * caller judges it as the terminal-auth plugin does) and, when it let the order through, the
 * order's own result (an answer, or its refusal as an error).
 */
export async function placeTerminalOrderWithKey(
  deps: ServiceDeps,
  key: OrderKey,
  limits: { maxWrongKeys: number; maxPerKey: number },
  idempotencyKey: string,
  body: CreateOrderBody,
): Promise<KeyedOrderResult> {
  const result = await keyedGroupCommit(deps, { ...limits, windowMs: key.windowMs }).submit({
    key: { hash: key.hash, wrongKeysKey: key.wrongKeysKey, now: key.now },
    ...orderOf(deps, idempotencyKey, body),
  });
  if (result.order?.ok && !result.order.value.replayed) deps.metrics?.ordersPlaced.inc();
  return result;
}
