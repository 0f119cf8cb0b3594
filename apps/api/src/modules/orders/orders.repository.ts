// The orders module's own statement: POST /orders with its terminal key checked in it
// (sql/keyed-orders.sql, decision 0043), and the till's reads (DESIGN 8). Every other order and
// refund statement is the ledger's.
import { sql } from 'drizzle-orm';
import type { TillTakings, TillTerminal } from '@app/contract';
import { queryRows, type Executor } from '../../db/client';
import { terminalOrderJson, type TerminalOrderOutcome, type TerminalOrderRow } from '../ledger';
import type { TerminalKeyCheck } from '../terminals';

/** An order whose terminal is known only by its key's digest (decision 0043). */
export interface KeyedOrderRow {
  keyHash: string;
  /** The client address's wrong-key counter. */
  wrongKeysKey: string;
  /** Null when the order never reaches the database (its request is still key-checked). */
  order: Omit<TerminalOrderRow, 'terminalId' | 'merchantId'> | null;
}

/**
 * One call of `place_terminal_orders_keyed` (sql/keyed-orders.sql, decision 0043): the key checks
 * of a batch of orders and the orders their checks let through, in one statement and one
 * transaction. Answers each request's check and its order's outcome (null when not placed), in
 * the order given.
 */
export async function placeKeyedTerminalOrderRows(
  executor: Executor,
  requests: KeyedOrderRow[],
  limits: { at: Date; windowMs: number; maxWrongKeys: number; maxPerKey: number },
): Promise<{ check: TerminalKeyCheck; order: TerminalOrderOutcome | null }[]> {
  const payload = JSON.stringify(
    requests.map((r, i) => ({
      n: i + 1,
      hash: r.keyHash,
      wrong_key: r.wrongKeysKey,
      order: r.order && terminalOrderJson(r.order),
    })),
  );
  const rows = await queryRows<{
    n: number;
    terminal_id: number | null;
    merchant_id: number | null;
    terminal_status: string | null;
    merchant_status: string | null;
    key_hits: number | null;
    key_retry: number | null;
    wrong_hits: number | null;
    wrong_retry: number | null;
    outcome: string | null;
    status: number | null;
    body: unknown;
  }>(
    executor,
    sql`SELECT * FROM place_terminal_orders_keyed(${payload}::jsonb,
          ${limits.at.toISOString()}::timestamptz, ${limits.windowMs}::double precision,
          ${limits.maxWrongKeys}::int, ${limits.maxPerKey}::int)`,
  );
  if (rows.length !== requests.length || rows.some((row, i) => Number(row.n) !== i + 1)) {
    throw new Error(
      `place_terminal_orders_keyed answered ${rows.length} rows for ${requests.length}`,
    );
  }
  const hit = (hits: number | null, retry: number | null) =>
    hits == null ? null : { hits: Number(hits), retryAfterSeconds: Number(retry) };
  return rows.map((row) => ({
    check: {
      terminal:
        row.terminal_id == null
          ? undefined
          : {
              id: Number(row.terminal_id),
              merchantId: Number(row.merchant_id),
              status: row.terminal_status!,
              merchantStatus: row.merchant_status!,
            },
      keyUse: hit(row.key_hits, row.key_retry),
      wrongKeys: hit(row.wrong_hits, row.wrong_retry),
    },
    order:
      row.outcome == null ? null : { outcome: row.outcome, status: row.status, body: row.body },
  }));
}

/**
 * An order of this terminal as its answers show it (`terminal_order_json`), by id or by the
 * Idempotency-Key it was placed with (DESIGN 8: a till finds a lost answer). Null when the terminal
 * placed no such order: another terminal's order is not found.
 */
export async function lookupTerminalOrder(
  executor: Executor,
  terminalId: number,
  by: { id: number } | { idempotencyKey: string },
): Promise<Record<string, unknown> | null> {
  const rows = await queryRows<{ body: Record<string, unknown> }>(
    executor,
    'id' in by
      ? sql`SELECT terminal_order_json(o.id) AS body FROM orders o
             WHERE o.id = ${by.id} AND o.terminal_id = ${terminalId}`
      : sql`SELECT terminal_order_json(k.order_id) AS body FROM terminal_idempotency_keys k
             JOIN orders o ON o.id = k.order_id
             WHERE k.terminal_id = ${terminalId} AND k.idempotency_key = ${by.idempotencyKey}
               AND o.terminal_id = ${terminalId}`,
  );
  return rows[0]?.body ?? null;
}

/** The till's terminals (DESIGN 8): the merchant's active terminals, while the merchant is active. */
export async function findTillTerminals(
  executor: Executor,
  merchantId: number,
): Promise<TillTerminal[]> {
  const rows = await queryRows<{
    id: unknown;
    code: string;
    name: string;
    merchant_id: unknown;
    merchant_name: string;
  }>(
    executor,
    sql`SELECT t.id, t.code, t.name, t.merchant_id, m.name AS merchant_name
          FROM terminals t JOIN merchants m ON m.id = t.merchant_id
         WHERE t.merchant_id = ${merchantId} AND t.status = 'active' AND t.deleted_at IS NULL
           AND m.status = 'active' AND m.deleted_at IS NULL
         ORDER BY t.code, t.id`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    code: r.code,
    name: r.name,
    merchant_id: Number(r.merchant_id),
    merchant_name: r.merchant_name,
  }));
}

/** An order placed on a local day (`YYYY-MM-DD` in `timeZone`): the till's reads of a day. */
const placedOn = (day: string, timeZone: string) =>
  sql`o.ordered_at >= (${day}::date)::timestamp AT TIME ZONE ${timeZone}
      AND o.ordered_at < (${day}::date + 1)::timestamp AT TIME ZONE ${timeZone}`;

/**
 * A local day's orders of a merchant (`terminalId` null: all its terminals), newest first, as the
 * terminal API answers them. At most 500: a till's day, not an export.
 */
export async function findTillOrders(
  executor: Executor,
  merchantId: number,
  terminalId: number | null,
  day: string,
  timeZone: string,
): Promise<Record<string, unknown>[]> {
  const rows = await queryRows<{ body: Record<string, unknown> }>(
    executor,
    sql`SELECT terminal_order_json(o.id) AS body FROM orders o
         WHERE o.merchant_id = ${merchantId}
           ${terminalId === null ? sql`` : sql`AND o.terminal_id = ${terminalId}`}
           AND ${placedOn(day, timeZone)}
         ORDER BY o.ordered_at DESC, o.id DESC
         LIMIT 500`,
  );
  return rows.map((r) => r.body);
}

/** The terminal an order of this merchant was placed at, or null (another merchant's: not found). */
export async function lookupMerchantOrderTerminal(
  executor: Executor,
  merchantId: number,
  orderId: number,
): Promise<number | null> {
  const [row] = await queryRows<{ terminal_id: unknown }>(
    executor,
    sql`SELECT o.terminal_id FROM orders o WHERE o.id = ${orderId} AND o.merchant_id = ${merchantId}`,
  );
  return row ? Number(row.terminal_id) : null;
}

/**
 * A local day's takings of a merchant, terminal by terminal (DESIGN 8, the merchant's home): the
 * orders placed that day, what their wallets paid, and how much of it has been refunded since.
 * Every active terminal is listed, an idle one with zeros; an inactive one only if it took orders.
 */
export async function findTillTakings(
  executor: Executor,
  merchantId: number,
  day: string,
  timeZone: string,
): Promise<TillTakings['terminals']> {
  const rows = await queryRows<{
    terminal_id: unknown;
    code: string;
    name: string;
    orders: unknown;
    tokens: unknown;
    refunded: unknown;
  }>(
    executor,
    sql`WITH day AS (
          SELECT o.terminal_id, count(*) AS orders, sum(o.subtotal) AS tokens,
                 sum(o.refunded_amount) AS refunded
            FROM orders o
           WHERE o.merchant_id = ${merchantId}
             AND ${placedOn(day, timeZone)}
           GROUP BY o.terminal_id)
        SELECT t.id AS terminal_id, t.code, t.name, coalesce(d.orders, 0) AS orders,
               coalesce(d.tokens, 0) AS tokens, coalesce(d.refunded, 0) AS refunded
          FROM terminals t LEFT JOIN day d ON d.terminal_id = t.id
         WHERE t.merchant_id = ${merchantId}
           AND (d.terminal_id IS NOT NULL OR (t.status = 'active' AND t.deleted_at IS NULL))
         ORDER BY t.code, t.id`,
  );
  return rows.map((r) => {
    const tokens = Number(r.tokens);
    const refunded = Number(r.refunded);
    return {
      terminal_id: Number(r.terminal_id),
      code: r.code,
      name: r.name,
      orders: Number(r.orders),
      tokens,
      refunded,
      net: tokens - refunded,
    };
  });
}
