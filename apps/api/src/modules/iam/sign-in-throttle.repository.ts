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

/**
 * The row that gates an attempt: its (login, address). The address's own row never holds an
 * attempt back (decision 0070): it only changes the answer to a wrong secret (recordAddressFailure).
 */
const rowsOf = (k: ThrottleKey) =>
  sql`t.scope = 'login_address' AND t.login = ${k.login} AND t.ip = ${k.ip}`;

/** The address's row. */
const addressRowOf = (ip: string) => sql`t.scope = 'address' AND t.login = '' AND t.ip = ${ip}`;

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
 * Takes one sign-in attempt in one statement: unless its (login, address) row makes it wait, that
 * counter goes up by one *before* the secret is checked (so parallel guesses at one login cannot
 * all slip through at the end of a wait) and the caller clears it on success. The address's
 * failures are not read here: they never hold back an attempt, so a right secret is never refused
 * for them (decision 0070); a wrong one is counted on the address after the check
 * (recordAddressFailure). With a `limit`, the same statement first counts the request against it
 * (`rate_limits`), and past it takes no attempt: one round trip where the sign-in made two, one
 * after the other (decision 0064). Answers null when the attempt may go ahead, else the seconds to
 * wait and why.
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
          SELECT ${key.login}, ${key.ip}, 'login_address', 1, ${at(now)}, ${expires}
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
  if (Number(row?.charged) === 1) return null;
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
 * A successful sign-in: its (login, address) counter is gone. The address's row is not touched:
 * the attempt never counted on it, so a success neither wipes a spray from the same address nor
 * restarts its wait (decision 0070). One statement on one row, so it cannot deadlock with a
 * parallel attempt (which also takes only that row, then, on a wrong secret, the address's alone).
 */
export async function settleSuccess(
  executor: Executor,
  key: Omit<ThrottleKey, 'now'>,
): Promise<void> {
  await executor.execute(
    sql`DELETE FROM sign_in_throttles
         WHERE scope = 'login_address' AND login = ${key.login} AND ip = ${key.ip}`,
  );
}

/**
 * A wrong secret, after its check: the address's failures go up by one unless the address is
 * waiting already (an attempt during a wait does not lengthen it, as before decision 0070: the
 * wait doubles per failure made outside one). Answers the seconds the address was waiting (the
 * sign-in then answers 429 with them, not its plain refusal), or null.
 */
export async function recordAddressFailure(
  executor: Executor,
  policy: SignInThrottlePolicy,
  key: { ip: string; now: Date },
): Promise<number | null> {
  const { now } = key;
  const expires = sql`${at(now)} + ${ms(policy.memoryMs)}`;
  const [row] = await queryRows<{ wait_seconds: number | null; counted: number }>(
    executor,
    sql`WITH waiting AS (
          SELECT max(${waitEndOf(policy)}) AS until
            FROM sign_in_throttles t
           WHERE ${addressRowOf(key.ip)} AND ${isWaiting(policy, now)}
        ), counted AS (
          INSERT INTO sign_in_throttles AS t (login, ip, scope, failures, last_failed_at, expires_at)
          SELECT '', ${key.ip}, 'address', 1, ${at(now)}, ${expires}
           WHERE (SELECT until FROM waiting) IS NULL
          ON CONFLICT (login, ip, scope) DO UPDATE
             SET failures = CASE WHEN t.expires_at <= ${at(now)} THEN 1 ELSE t.failures + 1 END,
                 last_failed_at = excluded.last_failed_at,
                 expires_at = excluded.expires_at
           WHERE NOT ${isWaiting(policy, now)}
          RETURNING 1
        )
        SELECT (SELECT ${secondsUntil(sql`until`, now)} FROM waiting WHERE until IS NOT NULL)
                 AS wait_seconds,
               (SELECT count(*)::int FROM counted) AS counted`,
  );
  return row?.wait_seconds == null ? null : Number(row.wait_seconds);
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
