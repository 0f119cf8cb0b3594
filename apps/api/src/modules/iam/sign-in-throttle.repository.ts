import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client';
import { countRequestSql } from '../../lib/rate-limits';

/** How failures turn into waits; built from the configuration by the service. */
export interface SignInThrottlePolicy {
  /** Failures per (login, address) answered normally before waits begin. */
  freeFailures: number;
  /** Failures per address, whatever the login, before waits begin (looser). */
  addressFreeFailures: number;
  /** The first wait; each further failure doubles it. */
  baseDelayMs: number;
  /** The longest wait. */
  maxDelayMs: number;
  /** A counter with no failure for this long is forgotten (at least maxDelayMs). */
  memoryMs: number;
}

export interface ThrottleKey {
  /** The submitted login, normalised by the service. */
  login: string;
  ip: string;
  now: Date;
}

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;
const ms = (value: number) => sql`(${value}::double precision * interval '1 millisecond')`;

/** Free failures of a row's scope. */
const freeOf = (p: SignInThrottlePolicy) =>
  sql`(CASE t.scope WHEN 'address' THEN ${p.addressFreeFailures}::int ELSE ${p.freeFailures}::int END)`;

/** When row `t` lets the next attempt through: its last failure plus the doubled wait. */
const waitEndOf = (p: SignInThrottlePolicy) =>
  sql`(t.last_failed_at + least(${p.maxDelayMs}::double precision,
        ${p.baseDelayMs}::double precision * 2::double precision ^ least(t.failures - ${freeOf(p)} - 1, 40))
      * interval '1 millisecond')`;

/** Row `t` holds the next attempt back at `now`. */
const isWaiting = (p: SignInThrottlePolicy, now: Date) =>
  sql`(t.expires_at > ${at(now)} AND t.failures > ${freeOf(p)} AND ${waitEndOf(p)} > ${at(now)})`;

/** The two rows of an attempt: its (login, address) and its address. */
const rowsOf = (k: ThrottleKey) =>
  sql`((t.scope = 'login_address' AND t.login = ${k.login}) OR (t.scope = 'address' AND t.login = ''))
      AND t.ip = ${k.ip}`;

/** A fixed-window limit on the requests of `key` (lib/rate-limits.ts), counted with the attempt. */
export interface RequestLimit {
  key: string;
  windowMs: number;
  /** Requests let through in a window; past it, the attempt is refused and not taken. */
  max: number;
}

/** What taking an attempt answered: null, or the seconds to wait and why. */
export type Refusal = { seconds: number; reason: 'throttled' | 'rate_limited' } | null;

const secondsUntil = (until: SQL, now: Date) =>
  sql`greatest(1, ceil(extract(epoch FROM ${until} - ${at(now)})))::int`;

/**
 * Takes one sign-in attempt in one statement: unless either row makes it wait, both counters go
 * up by one *before* the password is checked (so parallel guesses cannot all slip through at the
 * end of a wait) and the caller clears them on success. With a `limit`, the same statement first
 * counts the request against it (`rate_limits`), and past it takes no attempt: one round trip
 * where the sign-in made two, one after the other (decision 0064). Answers null when the attempt
 * may go ahead, else the seconds to wait and why.
 */
export async function takeAttempt(
  executor: Executor,
  policy: SignInThrottlePolicy,
  key: ThrottleKey,
  limit?: RequestLimit,
): Promise<Refusal> {
  const { now } = key;
  const expires = sql`${at(now)} + ${ms(policy.memoryMs)}`;
  const counted = limit
    ? countRequestSql({ key: sql`SELECT ${limit.key}::text`, now, windowMs: limit.windowMs })
    : sql`SELECT 0 AS hits, 0 AS retry_after_seconds`;
  const max = limit?.max ?? 0;
  const [row] = await queryRows<{
    wait_seconds: number | null;
    charged: number;
    hits: number;
    limit_seconds: number;
  }>(
    executor,
    sql`WITH counted AS (${counted}), waiting AS (
          SELECT max(${waitEndOf(policy)}) AS until
            FROM sign_in_throttles t
           WHERE ${rowsOf(key)} AND ${isWaiting(policy, now)}
        ), charged AS (
          INSERT INTO sign_in_throttles AS t (login, ip, scope, failures, last_failed_at, expires_at)
          SELECT v.login, ${key.ip}, v.scope, 1, ${at(now)}, ${expires}
            FROM (VALUES (${key.login}::text, 'login_address'), ('', 'address')) AS v(login, scope)
           WHERE (SELECT until FROM waiting) IS NULL
             AND ${limit ? sql`(SELECT hits FROM counted) <= ${max}::int` : sql`true`}
          ON CONFLICT (login, ip, scope) DO UPDATE
             SET failures = CASE WHEN t.expires_at <= ${at(now)} THEN 1 ELSE t.failures + 1 END,
                 last_failed_at = excluded.last_failed_at,
                 expires_at = excluded.expires_at
           -- Checked again on the row as it is now, for an attempt racing this one.
           WHERE NOT ${isWaiting(policy, now)}
          RETURNING 1
        )
        SELECT (SELECT ${secondsUntil(sql`until`, now)} FROM waiting WHERE until IS NOT NULL)
                 AS wait_seconds,
               (SELECT count(*)::int FROM charged) AS charged,
               (SELECT hits FROM counted)::int AS hits,
               (SELECT retry_after_seconds FROM counted)::int AS limit_seconds`,
  );
  if (limit && Number(row?.hits) > limit.max) {
    return { seconds: Number(row!.limit_seconds), reason: 'rate_limited' };
  }
  if (row?.wait_seconds != null) return { seconds: Number(row.wait_seconds), reason: 'throttled' };
  if (Number(row?.charged) === 2) return null;
  // A parallel attempt started the wait between this statement's snapshot and its write.
  const wait = (await readWait(executor, policy, key)) ?? Math.ceil(policy.baseDelayMs / 1000);
  return { seconds: wait, reason: 'throttled' };
}

/** The seconds an attempt would wait now, or null (reads only). */
export async function readWait(
  executor: Executor,
  policy: SignInThrottlePolicy,
  key: ThrottleKey,
): Promise<number | null> {
  const [row] = await queryRows<{ wait_seconds: number | null }>(
    executor,
    sql`SELECT ${secondsUntil(sql`max(${waitEndOf(policy)})`, key.now)} AS wait_seconds
          FROM sign_in_throttles t
         WHERE ${rowsOf(key)} AND ${isWaiting(policy, key.now)}
        HAVING count(*) > 0`,
  );
  return row?.wait_seconds == null ? null : Number(row.wait_seconds);
}

/**
 * A successful sign-in: its (login, address) counter is gone and the attempt taken from its
 * address is given back (the address keeps its other failures: signing into one's own account
 * must not wipe a spray from the same address).
 *
 * Two statements, in the order `takeAttempt` locks the rows: the (login, address) row, then the
 * address's. One statement (the delete in a WITH) ran the address's update first, so a sign-in
 * settling inside its transaction and a parallel attempt of the same login from the same address
 * each held the row the other wanted: a deadlock, answered 500 (seen in the soak).
 */
export async function settleSuccess(
  executor: Executor,
  key: Omit<ThrottleKey, 'now'>,
): Promise<void> {
  await executor.execute(
    sql`DELETE FROM sign_in_throttles
         WHERE scope = 'login_address' AND login = ${key.login} AND ip = ${key.ip}`,
  );
  await executor.execute(
    sql`UPDATE sign_in_throttles SET failures = greatest(failures - 1, 0)
         WHERE scope = 'address' AND login = '' AND ip = ${key.ip}`,
  );
}

/** Deletes the (login, address) counters of these logins from every address; returns how many. */
export async function deleteLoginCounters(executor: Executor, logins: string[]): Promise<number> {
  if (logins.length === 0) return 0;
  const [row] = await queryRows<{ n: number }>(
    executor,
    sql`WITH gone AS (
          DELETE FROM sign_in_throttles
           WHERE scope = 'login_address'
             AND login IN (${sql.join(
               logins.map((l) => sql`${l}`),
               sql`, `,
             )})
          RETURNING 1
        )
        SELECT count(*)::int AS n FROM gone`,
  );
  return Number(row?.n ?? 0);
}

/** Deletes the counters already forgotten (the jobs sweep); returns how many went. */
export async function deleteExpiredCounters(executor: Executor, now: Date): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    executor,
    sql`WITH gone AS (DELETE FROM sign_in_throttles WHERE expires_at <= ${at(now)} RETURNING 1)
        SELECT count(*)::int AS n FROM gone`,
  );
  return Number(row?.n ?? 0);
}
