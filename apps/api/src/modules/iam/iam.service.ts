import type { Role, Status } from '@app/contract';
import type { Config } from '../../config';
import type { Database, Executor } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Clock } from '../../lib/clock';
import type { AuthUser } from '../../lib/principal';
import {
  countFailuresSince,
  findUserByLogin,
  getUserForUpdate,
  insertLoginAttempt,
  insertUser,
  setLockedUntil,
  toAuthUser,
  updatePasswordHash,
} from './iam.repository';
import { beginMfaChallengeIfEnabled } from './mfa.service';
import { hashNewPassword, verifyAgainstDummy, verifyPassword } from './passwords';
import { deleteSession, revokeUserSessions } from './sessions.repository';
import { openSession, type IssuedSession } from './sessions.service';
import { hashToken, isTokenShaped } from './session-tokens';

// The first-start seed asks whether any user exists.
export { countUsers } from './iam.repository';

/** Five failed sign-ins within fifteen minutes lock the account for fifteen minutes (0002). */
export const LOCKOUT = { maxFailures: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 } as const;

export interface IamDeps {
  database: Database;
  clock: Clock;
  config: Pick<Config, 'SESSION_IDLE_MINUTES' | 'SESSION_ABSOLUTE_HOURS'>;
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

type Outcome =
  | { kind: 'invalid' }
  | { kind: 'locked' }
  | { kind: 'inactive' }
  | { kind: 'mfa'; challengeToken: string }
  | { kind: 'ok'; user: AuthUser; session: IssuedSession };

/** A sign-in's answer: signed in, or (TOTP on) a pending second step behind a challenge token. */
export type SignInResult =
  | { user: AuthUser; session: IssuedSession; mfaChallenge?: undefined }
  | { mfaChallenge: string; user?: undefined; session?: undefined };

/**
 * Checks a sign-in and opens a fresh session. Wrong username and wrong password answer alike
 * (INVALID_CREDENTIALS, with a dummy hash for a missing user); a locked account answers
 * ACCOUNT_LOCKED even to the right password; an inactive one USER_INACTIVE.
 */
export async function signIn(deps: IamDeps, input: SignInInput): Promise<SignInResult> {
  const { database, clock, config } = deps;
  const now = clock.now();
  const attempt = { username: input.login.trim().toLowerCase(), ip: input.ip, at: now };

  const found = await findUserByLogin(database.db, input.login.trim());
  if (!found) {
    await verifyAgainstDummy(input.password);
    await insertLoginAttempt(database.db, { ...attempt, userId: null, succeeded: false });
    throw new AppError('INVALID_CREDENTIALS');
  }
  // The slow hash runs outside the transaction so the user's row is locked only briefly.
  const isPasswordRight = await verifyPassword(found.passwordHash, input.password);

  const outcome = await database.db.transaction(async (tx): Promise<Outcome> => {
    const user = await getUserForUpdate(tx, found.id);
    if (!user) return { kind: 'invalid' };
    const record = (succeeded: boolean) =>
      insertLoginAttempt(tx, { ...attempt, userId: user.id, succeeded });

    if (user.lockedUntil && user.lockedUntil.getTime() > now.getTime()) {
      await record(false);
      return { kind: 'locked' };
    }
    if (!isPasswordRight) {
      await record(false);
      // Failures before an earlier lock ended do not count again.
      const since = Math.max(now.getTime() - LOCKOUT.windowMs, user.lockedUntil?.getTime() ?? 0);
      const failures = await countFailuresSince(tx, user.id, new Date(since));
      if (failures >= LOCKOUT.maxFailures) {
        await setLockedUntil(tx, user.id, new Date(now.getTime() + LOCKOUT.lockMs));
        return { kind: 'locked' };
      }
      return { kind: 'invalid' };
    }
    if (user.status !== 'active') return { kind: 'inactive' };

    await record(true);
    if (isTokenShaped(input.previousToken)) {
      await deleteSession(tx, hashToken(input.previousToken));
    }
    // TOTP on (DESIGN 4.1): the right password opens only a pending second step, no session.
    const challengeToken = await beginMfaChallengeIfEnabled(tx, {
      userId: user.id,
      now,
      ip: input.ip,
      userAgent: input.userAgent,
    });
    if (challengeToken) return { kind: 'mfa', challengeToken };
    const session = await openSession(
      tx,
      { userId: user.id, now, ip: input.ip, userAgent: input.userAgent },
      config,
    );
    return { kind: 'ok', user: toAuthUser(user), session };
  });

  switch (outcome.kind) {
    case 'ok':
      return { user: outcome.user, session: outcome.session };
    case 'mfa':
      return { mfaChallenge: outcome.challengeToken };
    case 'locked':
      throw new AppError('ACCOUNT_LOCKED');
    case 'inactive':
      throw new AppError('USER_INACTIVE');
    case 'invalid':
      throw new AppError('INVALID_CREDENTIALS');
  }
}

/** Ends one session (sign-out). */
export async function signOut(executor: Executor, sessionIdHash: string): Promise<void> {
  await deleteSession(executor, sessionIdHash);
}

/**
 * Sets a user's password: the contract's password rules first (BODY_INVALID with
 * `{ password }`), argon2id, then every session of the user ends unless told otherwise.
 */
export async function setPassword(
  executor: Executor,
  clock: Clock,
  input: { userId: number; password: unknown; endSessions?: boolean },
): Promise<void> {
  const passwordHash = await hashNewPassword(input.password);
  const updated = await updatePasswordHash(executor, input.userId, passwordHash, clock.now());
  if (!updated) throw new AppError('RECORD_NOT_FOUND');
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
