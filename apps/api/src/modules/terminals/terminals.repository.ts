import { and, count, desc, eq, ilike, isNull, or, sql } from 'drizzle-orm';
import type { Status, Terminal } from '@app/contract';
import { queryRows, type Executor } from '../../db/client';
import { terminals } from '../../db/schema';
import { iso } from '../../lib/numbers';
import type { RateLimitHit } from '../../lib/rate-limits';
import { likePattern } from '../../lib/sql';

export type TerminalRow = typeof terminals.$inferSelect;

export const toTerminal = (row: TerminalRow): Terminal => ({
  id: row.id,
  merchant_id: row.merchantId,
  code: row.code,
  name: row.name,
  status: row.status as Status,
  api_key_prefix: row.apiKeyPrefix,
  key_rotated_at: iso(row.keyRotatedAt),
  created_at: iso(row.createdAt),
  updated_at: iso(row.updatedAt),
});

/** Soft-deleted terminals (migration 0008) are gone from every read and write of this module. */
const live = isNull(terminals.deletedAt);

export async function insertTerminal(
  executor: Executor,
  values: {
    merchantId: number;
    code: string;
    name: string;
    status: Status;
    apiKeyHash: string;
    apiKeyPrefix: string;
    at: Date;
  },
): Promise<TerminalRow> {
  const { at, ...rest } = values;
  const [row] = await executor
    .insert(terminals)
    .values({ ...rest, keyRotatedAt: at, createdAt: at, updatedAt: at })
    .returning();
  return row!;
}

export async function lookupTerminal(
  executor: Executor,
  id: number,
): Promise<TerminalRow | undefined> {
  const [row] = await executor
    .select()
    .from(terminals)
    .where(and(eq(terminals.id, id), live));
  return row;
}

export async function findTerminals(
  executor: Executor,
  query: {
    merchantId?: number | undefined;
    status?: Status | undefined;
    search?: string | undefined;
    page: number;
    pageSize: number;
  },
): Promise<{ rows: TerminalRow[]; total: number }> {
  const pattern = query.search ? likePattern(query.search) : undefined;
  const where = and(
    live,
    query.merchantId ? eq(terminals.merchantId, query.merchantId) : undefined,
    query.status ? eq(terminals.status, query.status) : undefined,
    pattern ? or(ilike(terminals.code, pattern), ilike(terminals.name, pattern)) : undefined,
  );
  const rows = await executor
    .select()
    .from(terminals)
    .where(where)
    .orderBy(desc(terminals.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const [total] = await executor.select({ n: count() }).from(terminals).where(where);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function updateTerminal(
  executor: Executor,
  id: number,
  values: Partial<
    Pick<
      TerminalRow,
      'name' | 'status' | 'apiKeyHash' | 'apiKeyPrefix' | 'keyRotatedAt' | 'deletedAt'
    >
  > & {
    updatedAt: Date;
  },
): Promise<TerminalRow | undefined> {
  const [row] = await executor
    .update(terminals)
    .set(values)
    .where(and(eq(terminals.id, id), live))
    .returning();
  return row;
}

export interface TerminalKeyCheck {
  /** The terminal behind the key, or undefined for an unknown key. */
  terminal: { id: number; merchantId: number; status: string; merchantStatus: string } | undefined;
  /** This request counted against the key (null when the key is unknown or the address shut out). */
  keyUse: RateLimitHit | null;
  /** Wrong keys the client address presented in its current window (null: none). */
  wrongKeys: RateLimitHit | null;
}

/**
 * The key check's only write is a rate-limit counter, so its commit need not wait for the WAL to
 * reach the disk (decision 0034): `synchronous_commit` off for this statement's own transaction
 * (`set_config(..., true)`), never for a ledger write: run these statements on their own, never
 * inside a transaction that writes anything else. A crash may forget the last fraction of a
 * second of counts — a limit, not money; the order that follows flushes them with its own commit.
 */
const RELAXED_COMMIT = sql`SELECT set_config('synchronous_commit', 'off', true)`;

/**
 * The terminal holding a key digest, with its merchant's status (a deleted terminal or merchant
 * reads as inactive), in one statement with its rate limits (decision 0014): the wrong keys its
 * client address presented this minute are read and, unless they shut the address out, the
 * request is counted against the key. So the hot path pays no extra round trip for limits shared
 * by every instance. A batch of one of checkTerminalKeyHashes.
 */
export async function checkTerminalKeyHash(
  executor: Executor,
  input: { hash: string; now: Date; windowMs: number; wrongKeysKey: string; maxWrongKeys: number },
): Promise<TerminalKeyCheck> {
  // The batch of one: check_terminal_keys is the one definition of the check.
  const [check] = await checkTerminalKeyHashes(executor, [input]);
  return check!;
}

interface KeyCheckRow {
  id: number | null;
  merchantId: number | null;
  status: string | null;
  merchantStatus: string | null;
  key_hits: number | null;
  key_retry: number | null;
  wrong_hits: number | null;
  wrong_retry: number | null;
}

function keyCheckOf(row: KeyCheckRow | undefined): TerminalKeyCheck {
  const hitOf = (hits: number | null | undefined, retry: number | null | undefined) =>
    hits == null ? null : { hits: Number(hits), retryAfterSeconds: Number(retry) };
  return {
    terminal:
      row?.id == null
        ? undefined
        : {
            id: Number(row.id),
            merchantId: Number(row.merchantId),
            status: row.status!,
            merchantStatus: row.merchantStatus!,
          },
    keyUse: hitOf(row?.key_hits, row?.key_retry),
    wrongKeys: hitOf(row?.wrong_hits, row?.wrong_retry),
  };
}

/**
 * `checkTerminalKeyHash` for several requests in one statement and one transaction (group commit,
 * decision 0034), each answered as if alone: the database's `check_terminal_keys`
 * (sql/key-check.sql), the same check the orders keyed in their own statement
 * run (decision 0043). A key presented n times counts n requests: its counter moves once by n
 * (counters upserted in key order, so two batches never deadlock), and the i-th request of the
 * batch with that key sees the count up to itself. One `now` (the latest) opens or closes the
 * windows of the whole batch.
 */
export async function checkTerminalKeyHashes(
  executor: Executor,
  inputs: {
    hash: string;
    now: Date;
    windowMs: number;
    wrongKeysKey: string;
    maxWrongKeys: number;
  }[],
): Promise<TerminalKeyCheck[]> {
  const now = new Date(Math.max(...inputs.map((i) => i.now.getTime())));
  const at = sql`${now.toISOString()}::timestamptz`;
  const { windowMs, maxWrongKeys } = inputs[0]!;
  const requests = JSON.stringify(
    inputs.map((i, n) => ({ n: n + 1, hash: i.hash, wrong_key: i.wrongKeysKey })),
  );
  const rows = await queryRows<KeyCheckRow & { n: number }>(
    executor,
    sql`SELECT k.n, k.terminal_id AS id, k.merchant_id AS "merchantId", k.terminal_status AS status,
               k.merchant_status AS "merchantStatus", k.key_hits, k.key_retry, k.wrong_hits,
               k.wrong_retry
          FROM check_terminal_keys(${requests}::jsonb, ${at},
                                   ${windowMs}::double precision, ${maxWrongKeys}::int) AS k
         CROSS JOIN (${RELAXED_COMMIT}) AS relaxed
         ORDER BY k.n`,
  );
  if (rows.length !== inputs.length) {
    throw new Error(`a key check of ${inputs.length} requests answered ${rows.length} rows`);
  }
  return rows.map((row) => keyCheckOf(row));
}
