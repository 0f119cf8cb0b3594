import type { Role, Status } from '@app/contract';
import type { Config } from '../../config';
import type { Database, Executor } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { recordAudit, type AuditActor, type AuditRecord } from '../../lib/audit';
import type { Clock } from '../../lib/clock';
import type { AuthUser } from '../../lib/principal';
import {
  closeSetPasswordLinks,
  lookupUserById,
  lookupUserByLogin,
  insertUser,
  toAuthUser,
  updatePasswordHash,
} from './iam.repository';
import { beginMfaChallenge, hasTotpEnabled } from './mfa.service';
import { hashNewPassword, verifyAgainstDummy, verifyPassword } from './passwords';
import { deleteSession, revokeUserSessions } from './sessions.repository';
import { openSession, type IssuedSession } from './sessions.service';
import { hashToken, isTokenShaped } from './session-tokens';
import {
  checkSignInThrottle,
  clearSignInFailures,
  clearUserSignInThrottles,
  reauthThrottleLogin,
  recordSignInFailure,
  signInThrottlePolicy,
  type ThrottleConfig,
} from './sign-in-throttle.service';

// The first-start seed asks whether any user exists.

export interface IamDeps {
  database: Database;
  clock: Clock;
  config: Pick<
    Config,
    'SESSION_IDLE_MINUTES' | 'SESSION_ABSOLUTE_HOURS' | 'LOGIN_RATE_LIMIT_PER_MINUTE'
  > &
    ThrottleConfig;
}

export interface SignInInput {
  /** Username or email, any case. */
  login: string;
  password: string;
  ip: string | null;
  userAgent: string | null;
  /** A session cookie presented with the sign-in: it is ended, whoever it belonged to. */
  previousToken?: string | undefined;
}

const MINUTE = 60_000;

/** A sign-in's answer: signed in, or (TOTP on) a pending second step behind a challenge token. */
export type SignInResult =
  | { user: AuthUser; session: IssuedSession; mfaChallenge?: undefined }
  | { mfaChallenge: string; user?: undefined; session?: undefined };

/**
 * Checks a sign-in and opens a fresh session (DESIGN 4.1, decisions 0014 and 0070). Whether or
 * not the login exists, a wrong password answers the same INVALID_CREDENTIALS after the same work
 * (a dummy hash for a missing user) and the same throttle: past the free failures of its (login,
 * address), 429 TOO_MANY_REQUESTS with Retry-After until the doubled wait is over, whatever the
 * password; past the free failures of its address, a wrong password answers 429 with the
 * address's wait instead, after the same check, and a right one signs in (the address's failures
 * alone never refuse a right password, decision 0070). No account is ever locked. A right password of an inactive user is USER_INACTIVE. Each sign-in,
 * failure and throttled attempt is written to the audit log with the submitted login and address.
 */
export async function signIn(deps: IamDeps, input: SignInInput): Promise<SignInResult> {
  const { database, clock, config } = deps;
  const now = clock.now();
  const db = database.db;
  const submitted = input.login.trim();
  const audit = (action: string, userId: number | null, after: Record<string, unknown>) =>
    recordAudit(db, {
      actor: { userId: null, ip: input.ip },
      action,
      // Not 'user': a user's history of changes stays apart from the sign-ins against it.
      entityType: 'sign_in',
      entityId: userId,
      after: { username: submitted, ...after },
      at: now,
    });

  // The address's requests are counted and the attempt taken in one statement (decision 0064),
  // and the user read at once on another connection: a refused attempt drops what was read. Then
  // the password's hash is checked (7 ms of argon2, off the event loop) while the database
  // answers whether the user has TOTP on. A sign-in waited for each of these one after another
  // (decision 0063).
  const attempt = { login: submitted, ip: input.ip, now };
  const perAddress = {
    key: `sign-in:${input.ip ?? ''}`,
    windowMs: MINUTE,
    max: config.LOGIN_RATE_LIMIT_PER_MINUTE,
  };
  const [wait, found] = await Promise.all([
    checkSignInThrottle(db, signInThrottlePolicy(config), attempt, perAddress),
    lookupUserByLogin(db, submitted),
  ]);
  if (wait?.rateLimited) {
    // Not audited: past this limit an address could fill the audit log as fast as it can send.
    throw new AppError('TOO_MANY_REQUESTS', { retryAfterSeconds: wait.retryAfterSeconds });
  }
  if (wait) {
    await audit('sign_in_throttled', null, { retry_after_seconds: wait.retryAfterSeconds });
    throw new AppError('TOO_MANY_REQUESTS', { retryAfterSeconds: wait.retryAfterSeconds });
  }

  const [isPasswordRight, isTotpOn] = await Promise.all([
    found ? verifyPassword(found.passwordHash, input.password) : verifyAgainstDummy(input.password),
    found ? hasTotpEnabled(db, found.id) : false,
  ]);
  if (!found || !isPasswordRight || found.status !== 'active') {
    // Counted against the address after the check (decision 0070): the address's failures change
    // only the answer to a wrong password, a 429 with the address's wait while it waits.
    const busy = await recordSignInFailure(db, signInThrottlePolicy(config), attempt);
    if (found && isPasswordRight) {
      await audit('sign_in_failed', found.id, { reason: 'user_inactive' });
      throw new AppError('USER_INACTIVE');
    }
    await audit('sign_in_failed', found?.id ?? null, {
      reason: 'invalid_credentials',
      ...(busy && { retry_after_seconds: busy.retryAfterSeconds }),
    });
    if (busy) {
      throw new AppError('TOO_MANY_REQUESTS', { retryAfterSeconds: busy.retryAfterSeconds });
    }
    throw new AppError('INVALID_CREDENTIALS');
  }

  // The audit row of a right password, by the user it proved.
  const signedInAs = (action: string): AuditRecord => ({
    actor: { userId: found.id, ip: input.ip },
    action,
    entityType: 'sign_in',
    entityId: found.id,
    after: { username: submitted },
    at: now,
  });
  // TOTP on (DESIGN 4.1): the right password opens only a pending second step, no session.
  // The attempt stays counted until the second step succeeds, so guessing codes through
  // fresh challenges still meets the password throttle.
  if (isTotpOn) {
    return db.transaction(async (tx): Promise<SignInResult> => {
      if (isTokenShaped(input.previousToken)) {
        await deleteSession(tx, hashToken(input.previousToken));
      }
      const mfaChallenge = await beginMfaChallenge(tx, {
        userId: found.id,
        login: submitted,
        now,
        ip: input.ip,
        userAgent: input.userAgent,
      });
      await recordAudit(tx, signedInAs('sign_in_mfa_required'));
      return { mfaChallenge };
    });
  }
  // One statement opens the session, ends the one presented and writes the audit row, while on
  // another connection the attempt taken before the password check is given back (its (login,
  // address) row deleted; the address's row is not touched). Given back last inside a transaction of the
  // session, the counters' rows stayed locked until its commit, and the next attempt from the
  // same address waited that long (decision 0063).
  const [session] = await Promise.all([
    openSession(
      db,
      {
        userId: found.id,
        now,
        ip: input.ip,
        userAgent: input.userAgent,
        previousToken: input.previousToken,
        audit: signedInAs('sign_in'),
      },
      config,
    ),
    clearSignInFailures(db, attempt),
  ]);
  return { user: toAuthUser(found), session };
}

/**
 * An administrator clears a user's sign-in throttle (its username and email, from every
 * address), audited; RECORD_NOT_FOUND for an unknown or deleted user.
 */
export async function clearUserSignInThrottle(
  database: Database,
  actor: AuditActor,
  userId: number,
  at: Date,
): Promise<{ cleared: number }> {
  return database.db.transaction(async (tx) => {
    const user = await lookupUserById(tx, userId);
    if (!user) throw new AppError('RECORD_NOT_FOUND');
    const cleared = await clearUserSignInThrottles(tx, user);
    await recordAudit(tx, {
      actor,
      action: 'clear_sign_in_throttle',
      entityType: 'user',
      entityId: user.id,
      after: { username: user.username, cleared },
      at,
    });
    return { cleared };
  });
}

/**
 * Re-authentication for one's own security (issue 39, decision 0070): a signed-in user changing
 * its own password proves it knows the current one. Missing: 400 CURRENT_PASSWORD_REQUIRED; wrong:
 * 400 CURRENT_PASSWORD_INVALID. Checks are throttled like sign-ins under the user's own
 * `password:<id>` key with the client address (a stolen session cannot guess the password
 * faster than the sign-in form allows), and a wrong one counts against the address.
 */
export async function confirmCurrentPassword(
  deps: Pick<IamDeps, 'database' | 'clock' | 'config'>,
  input: { userId: number; currentPassword: string | undefined; ip: string | null },
): Promise<void> {
  if (!input.currentPassword) {
    throw new AppError('CURRENT_PASSWORD_REQUIRED', {
      metadata: { current_password: 'v.current_password_required' },
    });
  }
  const db = deps.database.db;
  const policy = signInThrottlePolicy(deps.config);
  const attempt = { login: reauthThrottleLogin(input.userId), ip: input.ip, now: deps.clock.now() };
  const wait = await checkSignInThrottle(db, policy, attempt);
  if (wait) throw new AppError('TOO_MANY_REQUESTS', { retryAfterSeconds: wait.retryAfterSeconds });
  const user = await lookupUserById(db, input.userId);
  const isRight = user
    ? await verifyPassword(user.passwordHash, input.currentPassword)
    : await verifyAgainstDummy(input.currentPassword);
  if (!isRight) {
    await recordSignInFailure(db, policy, attempt);
    throw new AppError('CURRENT_PASSWORD_INVALID', {
      metadata: { current_password: 'v.current_password_invalid' },
    });
  }
  await clearSignInFailures(db, attempt);
}

/** Ends one session (sign-out). */
export async function signOut(executor: Executor, sessionIdHash: string): Promise<void> {
  await deleteSession(executor, sessionIdHash);
}

/**
 * Sets a user's password: the contract's password rules first (BODY_INVALID with
 * `{ password }`), argon2id, then every session of the user ends unless told otherwise. Any
 * open set-password link of the user ends with it.
 */
export async function setPassword(
  executor: Executor,
  clock: Clock,
  input: { userId: number; password: unknown; endSessions?: boolean },
): Promise<void> {
  const passwordHash = await hashNewPassword(input.password);
  const at = clock.now();
  const updated = await updatePasswordHash(executor, input.userId, passwordHash, at);
  if (!updated) throw new AppError('RECORD_NOT_FOUND');
  await closeSetPasswordLinks(executor, input.userId, at);
  if (input.endSessions ?? true) await revokeUserSessions(executor, input.userId);
}

export interface NewAccount {
  username: string;
  email?: string | null;
  password: unknown;
  type: Role;
  status?: Status;
  companyId?: number | null;
  merchantId?: number | null;
  employeeId?: string | null;
}

/** Creates a user with a checked, hashed password; a taken username or email is a 409. */
export async function createUserAccount(executor: Executor, input: NewAccount): Promise<AuthUser> {
  const passwordHash = await hashNewPassword(input.password);
  try {
    const row = await insertUser(executor, {
      username: input.username,
      email: input.email ?? null,
      passwordHash,
      type: input.type,
      status: input.status ?? 'active',
      companyId: input.companyId ?? null,
      merchantId: input.merchantId ?? null,
      employeeId: input.employeeId ?? null,
    });
    return toAuthUser(row);
  } catch (error) {
    const constraint = uniqueViolation(error);
    if (constraint === 'users_username_key') {
      throw new AppError('USERNAME_ALREADY_EXISTS', { cause: error });
    }
    if (constraint === 'users_email_key') {
      throw new AppError('EMAIL_ALREADY_EXISTS', { cause: error });
    }
    throw error;
  }
}

/** The constraint behind a unique violation (23505), looking through driver wrappers. */
function uniqueViolation(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const e = current as { code?: unknown; constraint?: unknown };
    if (e.code === '23505') return typeof e.constraint === 'string' ? e.constraint : '';
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
