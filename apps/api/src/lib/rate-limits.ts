import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../db/client';

/**
 * Fixed-window request counters in PostgreSQL (`rate_limits`, migration 0014), shared by every
 * instance (decision 0014). One row per key; one upsert per counted request, which restarts the
 * window once it has expired, so rows never need resetting and old ones are only swept.
 */
export interface RateLimitHit {
  /** Requests counted in the current window, this one included. */
  hits: number;
  /** Whole seconds until the window ends (at least 1): the Retry-After of a refusal. */
  retryAfterSeconds: number;
}

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/**
 * The upsert that counts one request against `key`: it returns `hits` and
 * `retry_after_seconds`. `key` is a query giving the key. (The terminal key check counts its
 * requests in SQL of its own: check_terminal_keys, modules/terminals/sql/key-check.sql; the
 * sign-in counts its address's requests inside its throttle's statement, `takeAttempt`.)
 */
export function countRequestSql(options: { key: SQL; now: Date; windowMs: number }): SQL {
  const { key, now, windowMs } = options;
  const ends = sql`${at(now)} + ${windowMs}::double precision * interval '1 millisecond'`;
  return sql`INSERT INTO rate_limits AS r (key, hits, expires_at)
    SELECT k.key, 1, ${ends} FROM (${key}) AS k(key)
    ON CONFLICT (key) DO UPDATE
       SET hits = CASE WHEN r.expires_at <= ${at(now)} THEN 1 ELSE r.hits + 1 END,
           expires_at = CASE WHEN r.expires_at <= ${at(now)} THEN excluded.expires_at
                             ELSE r.expires_at END
    RETURNING r.hits,
              greatest(1, ceil(extract(epoch FROM r.expires_at - ${at(now)})))::int
                AS retry_after_seconds`;
}

/** Counts one request against `key` and answers the count so far in this window. */
export async function countRequest(
  executor: Executor,
  options: { key: string; now: Date; windowMs: number },
): Promise<RateLimitHit> {
  const [row] = await queryRows<{ hits: number; retry_after_seconds: number }>(
    executor,
    countRequestSql({ ...options, key: sql`SELECT ${options.key}::text` }),
  );
  return { hits: Number(row!.hits), retryAfterSeconds: Number(row!.retry_after_seconds) };
}

/** Deletes the counters whose window has ended (the jobs sweep). Returns how many went. */
export async function deleteExpiredRateLimits(executor: Executor, now: Date): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    executor,
    sql`WITH gone AS (DELETE FROM rate_limits WHERE expires_at <= ${at(now)} RETURNING 1)
        SELECT count(*)::int AS n FROM gone`,
  );
  return Number(row?.n ?? 0);
}
