// The till (DESIGN 8): the merchant roles charge and refund through one of their merchant's
// active terminals, signed in; the session stands in for the terminal key. The orders themselves
// take the terminal API's path (the same group commit, rules, idempotency and pay codes).
import {
  can,
  type CreateOrderBody,
  type OrderCheck,
  type RefundOrderBody,
  type TillOrdersQuery,
  type TillTakings,
  type TillTakingsQuery,
  type TillTerminal,
} from '@app/contract';
import { AppError } from '../../lib/app-error';
import type { ServiceDeps } from '../../lib/deps';
import { localDate } from '../../lib/periods';
import type { AuthUser, TerminalIdentity } from '../../lib/principal';
import {
  findTillOrders,
  findTillTakings,
  findTillTerminals,
  lookupMerchantOrderTerminal,
} from './orders.repository';
import {
  checkTerminalOrder,
  placeNamedOrder,
  placeTerminalOrder,
  refundTerminalOrder,
  type TerminalAnswer,
} from './orders.service';

/** The merchant a till user works for; a merchant role without one sees nothing. */
function merchantOf(user: AuthUser): number {
  if (user.merchantId == null) throw new AppError('PERMISSION_DENIED');
  return user.merchantId;
}

/** GET /till/terminals: the terminals the user's till may charge through. */
export function listTillTerminals(deps: ServiceDeps, user: AuthUser): Promise<TillTerminal[]> {
  return findTillTerminals(deps.database.db, merchantOf(user));
}

/** One of the user's merchant's active terminals; any other (another merchant's) is 404. */
async function tillTerminal(
  deps: ServiceDeps,
  user: AuthUser,
  terminalId: number,
): Promise<TerminalIdentity> {
  const merchantId = merchantOf(user);
  const terminals = await findTillTerminals(deps.database.db, merchantId);
  if (!terminals.some((t) => t.id === terminalId)) throw new AppError('RECORD_NOT_FOUND');
  return { id: terminalId, merchantId };
}

/** POST /till/terminals/{id}/orders: a charge, with the device's Idempotency-Key. */
export async function chargeAtTill(
  deps: ServiceDeps,
  user: AuthUser,
  terminalId: number,
  idempotencyKey: string,
  body: CreateOrderBody,
): Promise<TerminalAnswer> {
  const terminal = await tillTerminal(deps, user, terminalId);
  return placeNamedOrder(deps, body, idempotencyKey, (payee) =>
    placeTerminalOrder(deps, terminal, idempotencyKey, payee),
  );
}

/** POST /till/terminals/{id}/check: the dry run, before the amount is charged. */
export async function checkAtTill(
  deps: ServiceDeps,
  user: AuthUser,
  terminalId: number,
  body: CreateOrderBody,
): Promise<OrderCheck> {
  return checkTerminalOrder(deps, await tillTerminal(deps, user, terminalId), body);
}

/**
 * GET /till/orders: a local day's orders, newest first. Staff sees the terminal it charges
 * through (`terminal_id` required); a supervisor or an admin every terminal of its merchant.
 */
export async function listTillOrders(
  deps: ServiceDeps,
  user: AuthUser,
  query: TillOrdersQuery,
): Promise<Record<string, unknown>[]> {
  const merchantId = merchantOf(user);
  if (query.terminal_id === undefined && !can(user.type, 'till.refund')) {
    throw new AppError('BODY_INVALID', { metadata: { terminal_id: 'v.required' } });
  }
  if (query.terminal_id !== undefined) await tillTerminal(deps, user, query.terminal_id);
  const timeZone = deps.config.APP_TIMEZONE;
  const day = query.date ?? localDate(deps.clock.now(), timeZone);
  return findTillOrders(deps.database.db, merchantId, query.terminal_id ?? null, day, timeZone);
}

/**
 * GET /till/takings: a local day's takings (today by default) terminal by terminal, and their
 * sum, for every merchant role (the merchant's home, DESIGN 8).
 */
export async function getTillTakings(
  deps: ServiceDeps,
  user: AuthUser,
  query: TillTakingsQuery,
): Promise<TillTakings> {
  const merchantId = merchantOf(user);
  const timeZone = deps.config.APP_TIMEZONE;
  const date = query.date ?? localDate(deps.clock.now(), timeZone);
  const terminals = await findTillTakings(deps.database.db, merchantId, date, timeZone);
  const totals = { orders: 0, tokens: 0, refunded: 0, net: 0 };
  for (const row of terminals) {
    totals.orders += row.orders;
    totals.tokens += row.tokens;
    totals.refunded += row.refunded;
    totals.net += row.net;
  }
  return { date, terminals, totals };
}

/** POST /till/orders/{id}/refund: a supervisor's or an admin's, of an order of its merchant. */
export async function refundAtTill(
  deps: ServiceDeps,
  user: AuthUser,
  orderId: number,
  idempotencyKey: string,
  body: RefundOrderBody,
): Promise<TerminalAnswer> {
  const merchantId = merchantOf(user);
  const terminalId = await lookupMerchantOrderTerminal(deps.database.db, merchantId, orderId);
  if (terminalId === null) throw new AppError('ORDER_NOT_FOUND');
  return refundTerminalOrder(deps, { id: terminalId, merchantId }, idempotencyKey, orderId, body);
}
