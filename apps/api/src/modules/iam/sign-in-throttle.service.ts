// Sign-in throttling (DESIGN 4.1, decision 0014), for passwords and any later sign-in step (a
// second factor's codes use it the same way, with their own login key such as `mfa:<username>`):
//
//     const wait = await checkSignInThrottle(db, policy, { login, ip, now });
//     if (wait) → 429 TOO_MANY_REQUESTS with Retry-After: wait.retryAfterSeconds
//     … check the secret …
//     on success: await clearSignInFailures(tx, { login, ip })
//     on failure: const busy = await recordSignInFailure(db, policy, { ip, now });
//                 busy ? 429 with Retry-After: busy.retryAfterSeconds : the plain refusal
//
// `checkSignInThrottle` counts the attempt as a failure of its (login, address) as it lets it
// through; a success takes it back. Counters are keyed by the submitted login (existing or not,
// so the answers cannot tell which) with the client address, and by the address alone; the
// (login, address) counter of one address never holds back the same login from another. The
// address's counter never holds back an attempt (decision 0070): a right secret passes whatever
// the address's failures, and a wrong one made while the address waits answers 429 instead of
// its refusal, after the same check.
import type { Config } from '../../config';
import type { Executor } from '../../db/client';
import {
  deleteExpiredCounters,
  deleteLoginCounters,
  recordAddressFailure,
  settleSuccess,
  takeAttempt,
  type RequestLimit,
  type SignInThrottlePolicy,
} from './sign-in-throttle.repository';

export type ThrottleConfig = Pick<
  Config,
  | 'SIGN_IN_FREE_FAILURES'
  | 'SIGN_IN_ADDRESS_FREE_FAILURES'
  | 'SIGN_IN_MAX_DELAY_SECONDS'
  | 'SIGN_IN_FAILURE_MEMORY_MINUTES'
>;

/** The first wait after the free failures; each further failure doubles it. */
export const BASE_DELAY_MS = 1_000;

export function signInThrottlePolicy(config: ThrottleConfig): SignInThrottlePolicy {
  const maxDelayMs = config.SIGN_IN_MAX_DELAY_SECONDS * 1_000;
  return {
    freeFailures: config.SIGN_IN_FREE_FAILURES,
    addressFreeFailures: config.SIGN_IN_ADDRESS_FREE_FAILURES,
    baseDelayMs: Math.min(BASE_DELAY_MS, maxDelayMs),
    maxDelayMs,
    memoryMs: Math.max(config.SIGN_IN_FAILURE_MEMORY_MINUTES * 60_000, maxDelayMs),
  };
}

/** The key a submitted login counts under: trimmed, lower case (as sign-in matches it). */
export const normaliseLogin = (login: string): string => login.trim().toLowerCase().slice(0, 254);
const normaliseIp = (ip: string | null): string => (ip || 'unknown').slice(0, 100);

export interface AttemptInput {
  /** The submitted username or email, as typed; it is normalised here. */
  login: string;
  ip: string | null;
  now: Date;
}

/**
 * Takes a sign-in attempt: `{ retryAfterSeconds }` when it must wait (nothing was counted), null
 * when it may go ahead (it is counted as a failure until `clearSignInFailures`). With a `limit`,
 * the request is counted against it in the same statement; past it, `rateLimited` is true and no
 * attempt is taken.
 */
export async function checkSignInThrottle(
  executor: Executor,
  policy: SignInThrottlePolicy,
  input: AttemptInput,
  limit?: RequestLimit,
): Promise<{ retryAfterSeconds: number; rateLimited: boolean } | null> {
  const refusal = await takeAttempt(
    executor,
    policy,
    { login: normaliseLogin(input.login), ip: normaliseIp(input.ip), now: input.now },
    limit,
  );
  return refusal === null
    ? null
    : { retryAfterSeconds: refusal.seconds, rateLimited: refusal.reason === 'rate_limited' };
}

/**
 * A wrong secret, after its check: counted against the client address (unless it is waiting
 * already). `{ retryAfterSeconds }` when the address was waiting: a sign-in step then answers 429
 * with it instead of its plain refusal, so a wrong secret still meets the address's doubling wait.
 */
export async function recordSignInFailure(
  executor: Executor,
  policy: SignInThrottlePolicy,
  input: Omit<AttemptInput, 'login'>,
): Promise<{ retryAfterSeconds: number } | null> {
  const seconds = await recordAddressFailure(executor, policy, {
    ip: normaliseIp(input.ip),
    now: input.now,
  });
  return seconds === null ? null : { retryAfterSeconds: seconds };
}

/** A successful sign-in: clears its (login, address) counter; the address's is left as it is. */
export async function clearSignInFailures(
  executor: Executor,
  input: Omit<AttemptInput, 'now'>,
): Promise<void> {
  await settleSuccess(executor, { login: normaliseLogin(input.login), ip: normaliseIp(input.ip) });
}

/** The login key a user's second-factor codes count under (with the address). */
export const mfaThrottleLogin = (userId: number): string => `mfa:${userId}`;
/** The login key a signed-in user's current-password checks count under (with the address). */
export const reauthThrottleLogin = (userId: number): string => `password:${userId}`;

/**
 * An administrator's clear: every (login, address) counter of the user's username and email,
 * and of its second-factor codes and current-password checks, from every address, so the user
 * can sign in at once. Returns how many counters went.
 */
export function clearUserSignInThrottles(
  executor: Executor,
  user: { id: number; username: string; email: string | null },
): Promise<number> {
  const logins = [user.username, user.email].filter((l): l is string => Boolean(l));
  return deleteLoginCounters(executor, [
    ...new Set([
      ...logins.map(normaliseLogin),
      mfaThrottleLogin(user.id),
      reauthThrottleLogin(user.id),
    ]),
  ]);
}

/** Deletes forgotten counters (the jobs sweep). */
export const sweepSignInThrottles = (executor: Executor, now: Date): Promise<number> =>
  deleteExpiredCounters(executor, now);
