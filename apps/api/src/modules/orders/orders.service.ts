import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type {
  CreateOrderBody,
  OrderCheck,
  PayeeOrderBody,
  PlacedOrder,
  RefundOrderBody,
} from '@app/contract';
import { queryRows, type Executor } from '../../db/client';
import { isAppError } from '../../lib/app-error';
import { checkIdempotencyKey, hashRequest } from '../../lib/idempotency';
import type { ServiceDeps } from '../../lib/deps';
import { retrying } from '../../lib/transaction';
import type { TerminalIdentity } from '../../lib/principal';
import { stateSlot } from '../../lib/app-state';
import { GroupCommit, terminalGroupCommitLimits, type ItemResult } from '../../lib/group-commit';
import {
  orderAnswer,
  placeOrder,
  placeOrders,
  refundOrder,
  terminalOrderRow,
  type OrderRequest,
  type TerminalAnswer,
  type TerminalOrderRow,
} from '../ledger';
import type { PresentedTerminalKey, TerminalKeyCheck, TerminalKeyGate } from '../terminals';
import { remainingToday } from '../spending-judge';
import { forgetPayDevice, redeemPayCode, type PayCodeStep } from '../pay-codes';
import { lookupTerminalOrder, placeKeyedTerminalOrderRows } from './orders.repository';
import { AppError } from '../../lib/app-error';

export type { TerminalAnswer };

/** What an order's request reads of the app: its clock and the programme's time zone. */
type OrderDeps = Pick<ServiceDeps, 'clock'> & {
  config: Pick<ServiceDeps['config'], 'APP_TIMEZONE'>;
};

export { checkIdempotencyKey };

/** An order's body with its payee named, and how (DESIGN 8): what an order's statement takes. */
export type NamedPayeeBody = PayeeOrderBody & { byPayCode?: boolean; payCodeStep?: PayCodeStep };

/**
 * An order's body with its payee named by company code and staff number: a pay code (DESIGN 8)
 * redeemed for the order of `idempotencyKey` (null: a dry run, which spends no code). With
 * `inStatement`, a code may be left for the order's own statement to spend (decision 0082).
 */
export async function payeeBodyOf(
  deps: ServiceDeps,
  body: CreateOrderBody,
  idempotencyKey: string | null,
  { inStatement = false }: { inStatement?: boolean } = {},
): Promise<NamedPayeeBody & { byPayCode: boolean }> {
  const { pay_code, company_code, employee_id, ...rest } = body;
  if (pay_code === undefined) {
    if (company_code === undefined || employee_id === undefined) {
      throw new AppError('BODY_INVALID', {
        metadata: {
          [company_code === undefined ? 'company_code' : 'employee_id']: 'v.pay_code_or_payee',
        },
      });
    }
    return { ...rest, company_code, employee_id, byPayCode: false };
  }
  const payee = await redeemPayCode(
    deps,
    pay_code,
    idempotencyKey,
    { companyCode: company_code, staffNumber: employee_id },
    { inStatement },
  );
  return {
    ...rest,
    company_code: payee.companyCode,
    employee_id: payee.staffNumber,
    byPayCode: true,
    ...(payee.step && { payCodeStep: payee.step }),
  };
}

/**
 * An order placed by `place` with its payee named by `body` (payeeBodyOf), its pay code spent by
 * the order's own statement where this instance can (decision 0082). When that statement refuses
 * the code, the order is decided again from the database as it is now, the code spent by a
 * statement of its own: the device this instance remembered may have another payee since, and
 * the refused order wrote nothing.
 */
export async function placeNamedOrder<T>(
  deps: ServiceDeps,
  body: CreateOrderBody,
  idempotencyKey: string,
  place: (payee: NamedPayeeBody) => Promise<T>,
): Promise<T> {
  const payee = await payeeBodyOf(deps, body, idempotencyKey, { inStatement: true });
  if (!payee.payCodeStep) return place(payee);
  try {
    return await place(payee);
  } catch (error) {
    if (!isAppError(error) || error.code !== 'PAY_CODE_INVALID') throw error;
    forgetPayDevice(deps, body.pay_code!);
    return place(await payeeBodyOf(deps, body, idempotencyKey));
  }
}

function orderRequest(
  deps: OrderDeps,
  terminal: TerminalIdentity,
  idempotencyKey: string,
  body: NamedPayeeBody,
): OrderRequest {
  return { terminal, ...orderOf(deps, idempotencyKey, body) };
}

function orderOf(
  { clock, config }: OrderDeps,
  idempotencyKey: string,
  { byPayCode = false, payCodeStep, ...body }: NamedPayeeBody,
): Omit<OrderRequest, 'terminal'> {
  return {
    idempotencyKey,
    payCodeStep,
    // A pay code's order hashes as its payee's: a retry with the code the first try spent matches.
    requestHash: hashRequest('/orders', body),
    byPayCode,
    companyCode: body.company_code,
    staffNumber: body.employee_id,
    orderType: body.order_type,
    items: body.items,
    partial: body.partial ?? false,
    timeZone: config.APP_TIMEZONE,
    at: clock.now(),
  };
}

/**
 * POST /orders on `executor`: the database or a caller's transaction. One statement (migration
 * 0012), so on its own it needs no transaction of its own.
 */
export function placeTerminalOrderIn(
  executor: Executor,
  deps: OrderDeps,
  terminal: TerminalIdentity,
  idempotencyKey: string,
  body: NamedPayeeBody,
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

/** The app's (the instance's) group commit of orders: what arrives while it is busy goes together. */
export const ORDER_BATCHES = stateSlot<GroupCommit<OrderRequest, TerminalAnswer>>('order batches');

const orderGroupCommit = (deps: ServiceDeps) =>
  deps.state.of(
    ORDER_BATCHES,
    () =>
      new GroupCommit({
        runBatch: (requests) => placeOrders(deps.database.db, requests),
        runOne: (request) => retrying(() => placeOrder(deps.database.db, request)),
        ...batchOptions(deps),
      }),
  );

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
  body: NamedPayeeBody,
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

/** An order whose terminal is known only by its key (decision 0043): the key is checked with it. */
export interface KeyedOrderRequest extends Omit<OrderRequest, 'terminal'> {
  key: {
    /** SHA-256 of the presented key. */
    hash: string;
    /** The client address's wrong-key counter. */
    wrongKeysKey: string;
    /** When the key was presented: the batch's latest opens or closes the counters' windows. */
    now: Date;
  };
}

/** What a keyed order's key check found, and the order's own result (null: its key was refused). */
export interface KeyedOrderResult {
  check: TerminalKeyCheck;
  order: ItemResult<TerminalAnswer> | null;
}

/**
 * Terminal-key checks and orders in one statement and one transaction (`place_terminal_orders_keyed`,
 * decision 0043): one round trip for a batch instead of two. Each request is key-checked as alone
 * (found, counted, its address's wrong keys) and, if its terminal and merchant are active and the
 * key under its limit, placed by the ledger's `place_terminal_orders` with the terminal the database found. An
 * order whose subtotal is not a positive integer is key-checked but never sent (BODY_INVALID after
 * its check, as alone). Throws only when the statement fails as a whole.
 */
export async function placeKeyedOrders(
  executor: Executor,
  inputs: KeyedOrderRequest[],
  limits: { windowMs: number; maxWrongKeys: number; maxPerKey: number },
): Promise<KeyedOrderResult[]> {
  const invalid: unknown[] = [];
  const rows = inputs.map((input, i) => {
    let order: TerminalOrderRow | null = null;
    try {
      order = terminalOrderRow({ ...input, terminal: { id: 0, merchantId: 0 } });
    } catch (error) {
      invalid[i] = error;
    }
    return { keyHash: input.key.hash, wrongKeysKey: input.key.wrongKeysKey, order };
  });
  const at = new Date(Math.max(...inputs.map((i) => i.key.now.getTime())));
  const outcomes = await placeKeyedTerminalOrderRows(executor, rows, { ...limits, at });
  return outcomes.map(({ check, order }, i): KeyedOrderResult => {
    if (invalid[i] !== undefined) return { check, order: { ok: false, error: invalid[i] } };
    if (!order) return { check, order: null };
    try {
      return { check, order: { ok: true, value: orderAnswer(order) } };
    } catch (error) {
      return { check, order: { ok: false, error } };
    }
  });
}

/** The app's (the instance's) group commit of orders checked with their keys. */
export const KEYED_ORDER_BATCHES =
  stateSlot<GroupCommit<KeyedOrderRequest, KeyedOrderResult>>('keyed order batches');

const keyedGroupCommit = (
  deps: ServiceDeps,
  limits: { windowMs: number; maxWrongKeys: number; maxPerKey: number },
) =>
  deps.state.of(
    KEYED_ORDER_BATCHES,
    () =>
      new GroupCommit({
        runBatch: async (requests: KeyedOrderRequest[]) =>
          (await placeKeyedOrders(deps.database.db, requests, limits)).map((value) => ({
            ok: true as const,
            value,
          })),
        runOne: async (request: KeyedOrderRequest) =>
          (await retrying(() => placeKeyedOrders(deps.database.db, [request], limits)))[0]!,
        ...batchOptions(deps),
      }),
  );

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
  body: NamedPayeeBody,
): Promise<KeyedOrderResult> {
  const result = await keyedGroupCommit(deps, { ...limits, windowMs: key.windowMs }).submit({
    key: { hash: key.hash, wrongKeysKey: key.wrongKeysKey, now: key.now },
    ...orderOf(deps, idempotencyKey, body),
  });
  if (result.order?.ok && !result.order.value.replayed) deps.metrics?.ordersPlaced.inc();
  return result;
}

/**
 * A POST /orders request's terminal: found before its body, or its key left to its order's
 * statement (the request itself: its `terminal` and `terminalKeyPending`).
 */
export interface OrderTerminal {
  terminal: TerminalIdentity | null;
  terminalKeyPending: PresentedTerminalKey | null;
}

/**
 * POST /orders' terminal authentication, begun before the body is read (decision 0043): a key this
 * instance has already seen open a terminal is left to the order's own statement (one round trip
 * per order instead of two); any other key (every unknown key) is checked now, as every terminal
 * route's. Which keys are known is only a hint: the statement finds the terminal again by the
 * key's digest, and a key it no longer finds (rotated, terminal deleted) is a wrong key as before.
 */
export async function authenticateOrderTerminal(
  gate: TerminalKeyGate,
  at: OrderTerminal,
  request: { authorization: string | undefined; ip: string; now: Date },
): Promise<void> {
  const key = await gate.present(request.authorization, request.ip, request.now);
  if (gate.isKnown(key)) at.terminalKeyPending = key;
  else at.terminal = await gate.check(key);
}

/**
 * For a request that failed before reaching its statement (its body refused, say): its key
 * checked now, on its own, so a bad key still answers 401, 403 or 429 first, and is counted, as if
 * it had been checked before the body. Nothing when no key is pending.
 */
export async function settleOrderTerminal(gate: TerminalKeyGate, at: OrderTerminal): Promise<void> {
  const key = at.terminalKeyPending;
  if (!key) return;
  at.terminalKeyPending = null;
  at.terminal = await gate.check(key);
}

/**
 * POST /orders for an authenticated request: a pending key is checked by the order's own
 * statement (placeTerminalOrderWithKey) and judged as the gate judges every key; a terminal found
 * before the body orders through the plain group commit.
 */
export async function placeOrderFor(
  deps: ServiceDeps,
  gate: TerminalKeyGate,
  at: OrderTerminal,
  idempotencyKey: string,
  body: CreateOrderBody,
): Promise<TerminalAnswer> {
  return placeNamedOrder(deps, body, idempotencyKey, async (payee) => {
    const key = at.terminalKeyPending;
    if (!key) {
      if (!at.terminal) throw new Error('POST /orders reached its handler unauthenticated');
      return placeTerminalOrder(deps, at.terminal, idempotencyKey, payee);
    }
    const { check, order } = await placeTerminalOrderWithKey(
      deps,
      key,
      gate.limits,
      idempotencyKey,
      payee,
    );
    // Judged here, so not again by the route's error handler (settleOrderTerminal).
    at.terminalKeyPending = null;
    at.terminal = await gate.judge(key, check);
    if (!order) throw new Error('an order let through by its key check was not placed');
    if (!order.ok) throw order.error;
    return order.value;
  });
}

/** Thrown to roll a dry run's transaction back once its answer is known. */
class DryRunDone extends Error {
  constructor(readonly answer: OrderCheck) {
    super('dry run');
  }
}

/**
 * POST /orders/check (DESIGN 7): what an order would get, writing nothing. The order is placed by
 * the order's own statement inside a transaction that is then rolled back, so the dry run is the
 * enforcement itself (the same rules, locks and balance), not a second reading of the rules.
 */
export async function checkTerminalOrder(
  deps: ServiceDeps,
  terminal: TerminalIdentity,
  body: CreateOrderBody,
): Promise<OrderCheck> {
  // A dry run spends no pay code: it is checked, and stays good for the order itself.
  const payee = await payeeBodyOf(deps, body, null);
  const request = orderRequest(deps, terminal, `dry-run:${crypto.randomUUID()}`, payee);
  try {
    await retrying(() =>
      deps.database.db.transaction(async (tx) => {
        const [payee] = await queryRows<{ id: string; available: string }>(
          tx,
          sql`SELECT e.id, e.available_tokens AS available
                FROM employees e JOIN companies c ON c.id = e.company_id
               WHERE upper(c.code) = upper(${request.companyCode})
                 AND e.employee_id = ${request.staffNumber}`,
        );
        const figures = {
          remaining_today: payee
            ? await remainingToday(tx, Number(payee.id), request.timeZone ?? 'UTC', request.at)
            : null,
          available_tokens: payee ? Number(payee.available) : null,
        };
        let answer: OrderCheck;
        try {
          const placed = await placeOrder(tx, request);
          const data = (placed.body as { data: PlacedOrder }).data;
          answer = { allowed: true, payable_tokens: data.paid_tokens, ...figures };
        } catch (error) {
          if (!isAppError(error)) throw error;
          answer = {
            allowed: false,
            code: error.code,
            ...(error.details ? { details: error.details } : {}),
            payable_tokens: 0,
            ...figures,
          };
        }
        throw new DryRunDone(answer);
      }),
    );
  } catch (error) {
    if (error instanceof DryRunDone) return error.answer;
    throw error;
  }
  throw new Error('a dry run ended without its answer');
}

/** GET /orders/{id} and GET /orders?idempotency_key= (DESIGN 8): this terminal's order, or 404. */
export async function getTerminalOrder(
  deps: ServiceDeps,
  terminal: TerminalIdentity,
  by: { id: number } | { idempotencyKey: string },
): Promise<unknown> {
  const order = await lookupTerminalOrder(deps.database.db, terminal.id, by);
  if (order === null) throw new AppError('ORDER_NOT_FOUND');
  return order;
}
