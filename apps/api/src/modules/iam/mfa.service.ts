import crypto from 'node:crypto';
import * as OTPAuth from 'otpauth';
import {
  RECOVERY_CODE_COUNT,
  TOTP_PARAMS,
  type MfaCodeBody,
  type MfaStatus,
  type ReauthenticateBody,
  type Reauthenticated,
  type SelfUser,
  type TotpEnrolment,
} from '@app/contract';
import type { Config } from '../../config';
import type { Database, Executor } from '../../db/client';
import type { AppState } from '../../lib/app-state';
import { AppError } from '../../lib/app-error';
import { recordAudit, type AuditActor } from '../../lib/audit';
import type { Clock } from '../../lib/clock';
import type { AuthUser } from '../../lib/principal';
import { lookupUserForUpdate, toAuthUser, toSelfUser } from './iam.repository';
import { requireMfaKeyring, type MfaKeyring } from './mfa-keys';
import {
  countChallengeFailure,
  countUnusedRecoveryCodes,
  deleteChallenge,
  deleteMfa,
  enableTotp,
  lookupChallengeForUpdate,
  lookupLiveUserId,
  lookupTotpForUpdate,
  insertChallenge,
  isTotpEnabled,
  replaceRecoveryCodes,
  setLastUsedStep,
  upsertPendingTotp,
  useRecoveryCode,
  type TotpRow,
} from './mfa.repository';
import { markSessionReauthenticated } from './sessions.repository';
import { openSession, type IssuedSession } from './sessions.service';
import { hashToken, isTokenShaped, newToken } from './session-tokens';
import { recordUserLink } from './user-links';
import {
  checkSignInThrottle,
  clearSignInFailures,
  mfaThrottleLogin,
  recordSignInFailure,
  signInThrottlePolicy,
  type ThrottleConfig,
} from './sign-in-throttle.service';

/**
 * A pending second step lives this long, and dies after this many wrong codes: the password step
 * must then be done again. The shared sign-in throttle (modules/iam/sign-in-throttle.ts) is to be
 * called beside these counts when it lands (see completeMfaSignIn).
 */
export const MFA_CHALLENGE = { ttlMs: 5 * 60_000, maxFailures: 5 } as const;

export interface MfaDeps {
  database: Database;
  clock: Clock;
  state: AppState;
  config: Pick<
    Config,
    | 'SESSION_IDLE_MINUTES'
    | 'SESSION_ABSOLUTE_HOURS'
    | 'MFA_ISSUER'
    | 'mfaRequiredRoles'
    | 'mfaEncryptionKey'
    | 'isEmbedded'
    | 'dataDir'
  > &
    ThrottleConfig;
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten random characters shown as `xxxxx-xxxxx` (about 49 bits each). */
function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i += 1)
    code += RECOVERY_ALPHABET[crypto.randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** Case, spaces and dashes do not matter when a recovery code is typed back. */
const normaliseRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '');

function totpFor(secret: string, label: string, issuer: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer,
    label,
    algorithm: TOTP_PARAMS.algorithm,
    digits: TOTP_PARAMS.digits,
    period: TOTP_PARAMS.period,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

/**
 * The time step a TOTP code belongs to (now ±1 step), or null when it matches none. A step at or
 * before the last one used is refused: each code works once (RFC 6238 section 5.2).
 */
function acceptedStep(
  totp: OTPAuth.TOTP,
  code: string,
  now: Date,
  lastUsedStep: number | null,
): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totp.validate({ token, timestamp: now.getTime(), window: TOTP_PARAMS.window });
  if (delta === null) return null;
  const step = Math.floor(now.getTime() / 1000 / TOTP_PARAMS.period) + delta;
  if (lastUsedStep !== null && step <= lastUsedStep) return null;
  return step;
}

type FactorResult = { ok: false } | { ok: true; via: 'totp' } | { ok: true; via: 'recovery_code' };

/**
 * Checks a second factor against an enabled TOTP row (held FOR UPDATE by the caller) and uses it
 * up: the code's step becomes the last used, or the recovery code is marked used.
 */
async function useSecondFactor(
  tx: Executor,
  keyring: MfaKeyring,
  row: TotpRow,
  factor: MfaCodeBody,
  now: Date,
  issuer: string,
): Promise<FactorResult> {
  const asTotp = factor.code !== undefined && /^\d{6}$/.test(factor.code.replace(/\s+/g, ''));
  if (asTotp) {
    const totp = totpFor(keyring.decrypt(row.secretEncrypted), 'user', issuer);
    const step = acceptedStep(totp, factor.code!, now, row.lastUsedStep);
    if (step === null) return { ok: false };
    await setLastUsedStep(tx, row.userId, step, now);
    return { ok: true, via: 'totp' };
  }
  // A recovery code, in its own field or typed into the code field.
  const typed = normaliseRecoveryCode(factor.recovery_code ?? factor.code ?? '');
  if (!typed) return { ok: false };
  const used = await useRecoveryCode(tx, row.userId, keyring.hashRecoveryCode(typed), now);
  return used ? { ok: true, via: 'recovery_code' } : { ok: false };
}

/** Whether this user's role must enrol (MFA_REQUIRED_ROLES) and has not. */
export function isEnrolmentRequired(
  config: Pick<Config, 'mfaRequiredRoles'>,
  user: Pick<AuthUser, 'type'>,
  isEnabled: boolean,
): boolean {
  return !isEnabled && config.mfaRequiredRoles.includes(user.type);
}

/** Whether the user has TOTP on (one indexed read). */
export const hasTotpEnabled = (executor: Executor, userId: number) =>
  isTotpEnabled(executor, userId);

/** The signed-in user as login and self-info show it, with its second factor's state. */
export async function sessionUserOf(
  deps: MfaDeps,
  user: AuthUser,
  /** Already known: a password sign-in that opened a session found TOTP off. */
  knownTotpEnabled?: boolean,
): Promise<SelfUser> {
  const isEnabled = knownTotpEnabled ?? (await isTotpEnabled(deps.database.db, user.id));
  return {
    ...toSelfUser(user),
    mfa_enabled: isEnabled,
    mfa_enrolment_required: isEnrolmentRequired(deps.config, user, isEnabled),
  };
}

/** GET /iam/mfa and the self-info fields. */
export async function getMfaStatus(deps: MfaDeps, user: AuthUser): Promise<MfaStatus> {
  const isEnabled = await isTotpEnabled(deps.database.db, user.id);
  return {
    mfa_enabled: isEnabled,
    mfa_enrolment_required: isEnrolmentRequired(deps.config, user, isEnabled),
    recovery_codes_remaining: isEnabled
      ? await countUnusedRecoveryCodes(deps.database.db, user.id)
      : 0,
  };
}

/** POST /iam/mfa/totp: a new pending secret (replacing a pending one); 409 when TOTP is on. */
export async function startTotpEnrolment(
  deps: MfaDeps,
  user: AuthUser,
  actor: AuditActor | null = null,
): Promise<TotpEnrolment> {
  const keyring = await requireMfaKeyring(deps);
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  const now = deps.clock.now();
  const stored = await deps.database.db.transaction(async (tx) => {
    const done = await upsertPendingTotp(tx, {
      userId: user.id,
      secretEncrypted: keyring.encrypt(secret),
      at: now,
    });
    // The secret itself is never written to the audit log: only that an enrolment began.
    if (done) {
      await recordAudit(tx, {
        actor: actor ?? user.id,
        action: 'mfa_enrolment_started',
        entityType: 'user',
        entityId: user.id,
        at: now,
      });
    }
    return done;
  });
  if (!stored) throw new AppError('MFA_ALREADY_ENABLED');
  const totp = totpFor(secret, user.email ?? user.username, deps.config.MFA_ISSUER);
  return { secret, otpauth_url: totp.toString() };
}

/**
 * A signed-in user's code check (enrolment, turning TOTP off), throttled like sign-in codes under
 * the user's `mfa:` key: a wrong code stays counted (its own statement, outside `check`'s
 * transaction, which a refusal rolls back) and is counted against the address, a right one is
 * settled.
 */
async function throttledCodeCheck<T>(
  deps: MfaDeps,
  userId: number,
  ip: string | null,
  check: () => Promise<T>,
): Promise<T> {
  const attempt = { login: mfaThrottleLogin(userId), ip, now: deps.clock.now() };
  const db = deps.database.db;
  const policy = signInThrottlePolicy(deps.config);
  const wait = await checkSignInThrottle(db, policy, attempt);
  if (wait) throw new AppError('TOO_MANY_REQUESTS', { retryAfterSeconds: wait.retryAfterSeconds });
  let result: T;
  try {
    result = await check();
  } catch (error) {
    if (error instanceof AppError && error.code === 'MFA_CODE_INVALID') {
      await recordSignInFailure(db, policy, attempt);
    }
    throw error;
  }
  await clearSignInFailures(db, attempt);
  return result;
}

/** POST /iam/mfa/totp/verify: the first right code turns TOTP on; ten recovery codes, shown once. */
export async function confirmTotpEnrolment(
  deps: MfaDeps,
  user: AuthUser,
  code: string,
  actor: AuditActor,
): Promise<string[]> {
  const keyring = await requireMfaKeyring(deps);
  const now = deps.clock.now();
  try {
    return await throttledCodeCheck(deps, user.id, actor.ip, () =>
      enableWithCode(deps, keyring, user, code, actor, now),
    );
  } catch (error) {
    // A wrong code rolls its transaction back: its audit row is written on its own.
    if (error instanceof AppError && error.code === 'MFA_CODE_INVALID') {
      await recordAudit(deps.database.db, {
        actor,
        action: 'mfa_enable_failed',
        entityType: 'user',
        entityId: user.id,
        at: now,
      });
    }
    throw error;
  }
}

function enableWithCode(
  deps: MfaDeps,
  keyring: MfaKeyring,
  user: AuthUser,
  code: string,
  actor: AuditActor,
  now: Date,
): Promise<string[]> {
  return deps.database.db.transaction(async (tx) => {
    const row = await lookupTotpForUpdate(tx, user.id);
    if (!row) throw new AppError('MFA_ENROLMENT_NOT_STARTED');
    if (row.enabledAt) throw new AppError('MFA_ALREADY_ENABLED');
    const totp = totpFor(keyring.decrypt(row.secretEncrypted), 'user', deps.config.MFA_ISSUER);
    const step = acceptedStep(totp, code, now, row.lastUsedStep);
    if (step === null) throw new AppError('MFA_CODE_INVALID');
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await enableTotp(tx, { userId: user.id, step, at: now });
    await replaceRecoveryCodes(
      tx,
      user.id,
      codes.map((c) => keyring.hashRecoveryCode(normaliseRecoveryCode(c))),
      now,
    );
    await recordAudit(tx, {
      actor,
      action: 'mfa_enable',
      entityType: 'user',
      entityId: user.id,
      before: { mfa_enabled: false },
      after: { mfa_enabled: true, recovery_codes: RECOVERY_CODE_COUNT },
      at: now,
    });
    return codes;
  });
}

/** DELETE /iam/mfa/totp: turns TOTP off with a code or a recovery code. */
export async function disableTotp(
  deps: MfaDeps,
  user: AuthUser,
  factor: MfaCodeBody,
  actor: AuditActor,
): Promise<void> {
  const keyring = await requireMfaKeyring(deps);
  const now = deps.clock.now();
  await throttledCodeCheck(deps, user.id, actor.ip, () =>
    disableWithCode(deps, keyring, user, factor, actor, now),
  );
}

async function disableWithCode(
  deps: MfaDeps,
  keyring: MfaKeyring,
  user: AuthUser,
  factor: MfaCodeBody,
  actor: AuditActor,
  now: Date,
): Promise<void> {
  const outcome = await deps.database.db.transaction(async (tx) => {
    const row = await lookupTotpForUpdate(tx, user.id);
    if (!row?.enabledAt) return 'not_enabled' as const;
    const result = await useSecondFactor(tx, keyring, row, factor, now, deps.config.MFA_ISSUER);
    if (!result.ok) {
      await recordAudit(tx, {
        actor,
        action: 'mfa_disable_failed',
        entityType: 'user',
        entityId: user.id,
        at: now,
      });
      return 'wrong' as const;
    }
    await deleteMfa(tx, user.id);
    await recordAudit(tx, {
      actor,
      action: 'mfa_disable',
      entityType: 'user',
      entityId: user.id,
      before: { mfa_enabled: true },
      after: { mfa_enabled: false, via: result.via },
      at: now,
    });
    if (result.via === 'recovery_code') {
      await recordAudit(tx, {
        actor,
        action: 'recovery_code_used',
        entityType: 'user',
        entityId: user.id,
        at: now,
      });
    }
    return 'ok' as const;
  });
  if (outcome === 'not_enabled') throw new AppError('MFA_NOT_ENABLED');
  if (outcome === 'wrong') throw new AppError('MFA_CODE_INVALID');
}

/**
 * DELETE /users/{id}/mfa: an admin removes another user's second factor (404 unknown id). Its
 * own is refused (403 MFA_RESET_OWN): that takes a code, through DELETE /iam/mfa/totp, so a
 * session alone cannot remove the factor that protects it (issue 39, decision 0070).
 */
export async function resetUserMfa(deps: MfaDeps, userId: number, actor: AuditActor) {
  if (actor.userId === userId) throw new AppError('MFA_RESET_OWN');
  const now = deps.clock.now();
  await deps.database.db.transaction(async (tx) => {
    if ((await lookupLiveUserId(tx, userId)) === null) throw new AppError('RECORD_NOT_FOUND');
    const row = await lookupTotpForUpdate(tx, userId);
    await deleteMfa(tx, userId);
    await recordUserLink(tx, {
      actorUserId: actor.userId,
      targetUserId: userId,
      kind: 'mfa_reset',
      at: now,
    });
    await recordAudit(tx, {
      actor,
      action: 'mfa_reset',
      entityType: 'user',
      entityId: userId,
      before: { mfa_enabled: Boolean(row?.enabledAt) },
      after: { mfa_enabled: false },
      at: now,
    });
  });
}

/**
 * Inside the password step's transaction, for a user with TOTP on: opens a pending second step
 * and returns its token (for an HttpOnly cookie).
 */
export async function beginMfaChallenge(
  tx: Executor,
  input: { userId: number; login: string; now: Date; ip: string | null; userAgent: string | null },
): Promise<string> {
  const token = newToken();
  await insertChallenge(tx, {
    idHash: hashToken(token),
    userId: input.userId,
    login: input.login.slice(0, 254),
    createdAt: input.now,
    expiresAt: new Date(input.now.getTime() + MFA_CHALLENGE.ttlMs),
    ip: input.ip,
    userAgent: input.userAgent?.slice(0, 512) ?? null,
  });
  return token;
}

export interface MfaSignInInput {
  challengeToken: string | undefined;
  factor: MfaCodeBody;
  ip: string | null;
  userAgent: string | null;
}

type SecondStep =
  | { kind: 'void' }
  | { kind: 'wrong' }
  | { kind: 'throttled'; retryAfterSeconds: number }
  | { kind: 'ok'; user: AuthUser; session: IssuedSession };

/**
 * POST /iam/login/mfa: the second step of a sign-in. A right code (or an unused recovery code)
 * opens the session as a password sign-in does; a wrong one counts against the challenge, which
 * dies at the fifth (MFA_CHALLENGE_INVALID: sign in again). Failures commit with their audit row.
 */
export async function completeMfaSignIn(
  deps: MfaDeps,
  input: MfaSignInInput,
): Promise<{ user: AuthUser; session: IssuedSession }> {
  if (!isTokenShaped(input.challengeToken)) throw new AppError('MFA_CHALLENGE_INVALID');
  const keyring = await requireMfaKeyring(deps);
  const idHash = hashToken(input.challengeToken);
  const now = deps.clock.now();
  const actorOf = (userId: number): AuditActor => ({ userId, ip: input.ip });
  const outcome = await deps.database.db.transaction(async (tx): Promise<SecondStep> => {
    const challenge = await lookupChallengeForUpdate(tx, idHash);
    if (!challenge) return { kind: 'void' };
    const isDead =
      challenge.expiresAt.getTime() <= now.getTime() ||
      challenge.failures >= MFA_CHALLENGE.maxFailures;
    const user = isDead ? null : await lookupUserForUpdate(tx, challenge.userId);
    const row = user ? await lookupTotpForUpdate(tx, challenge.userId) : null;
    if (!user || user.deletedAt || user.status !== 'active' || !row?.enabledAt) {
      await deleteChallenge(tx, idHash);
      return { kind: 'void' };
    }
    // Codes are throttled like passwords (DESIGN 4.1), under a key of their own per user and
    // address: a challenge dies after five wrong codes, this keeps fresh challenges from
    // resetting the count.
    const codeAttempt = { login: mfaThrottleLogin(user.id), ip: input.ip, now };
    const policy = signInThrottlePolicy(deps.config);
    const wait = await checkSignInThrottle(tx, policy, codeAttempt);
    if (wait) return { kind: 'throttled', retryAfterSeconds: wait.retryAfterSeconds };
    const result = await useSecondFactor(
      tx,
      keyring,
      row,
      input.factor,
      now,
      deps.config.MFA_ISSUER,
    );
    if (!result.ok) {
      const failures = await countChallengeFailure(tx, idHash);
      const isVoid = failures >= MFA_CHALLENGE.maxFailures;
      if (isVoid) await deleteChallenge(tx, idHash);
      // Counted against the address (decision 0070): while it waits, a wrong code answers 429.
      const busy = await recordSignInFailure(tx, policy, codeAttempt);
      await recordAudit(tx, {
        actor: actorOf(user.id),
        action: 'sign_in_mfa_failed',
        entityType: 'user',
        entityId: user.id,
        after: { failures, challenge_void: isVoid },
        at: now,
      });
      // The last allowed failure voids the challenge at once: back to the password step.
      if (isVoid) return { kind: 'void' };
      return busy
        ? { kind: 'throttled', retryAfterSeconds: busy.retryAfterSeconds }
        : { kind: 'wrong' };
    }
    await deleteChallenge(tx, idHash);
    // The whole sign-in succeeded: the code's attempt and the password step's are settled.
    await clearSignInFailures(tx, codeAttempt);
    await clearSignInFailures(tx, { login: challenge.login, ip: input.ip });
    const session = await openSession(
      tx,
      {
        userId: user.id,
        now,
        ip: input.ip,
        userAgent: input.userAgent,
        audit: {
          actor: actorOf(user.id),
          action: 'sign_in_mfa',
          entityType: 'user',
          entityId: user.id,
          after: { via: result.via },
          at: now,
        },
      },
      deps.config,
    );
    if (result.via === 'recovery_code') {
      await recordAudit(tx, {
        actor: actorOf(user.id),
        action: 'recovery_code_used',
        entityType: 'user',
        entityId: user.id,
        after: { remaining: await countUnusedRecoveryCodes(tx, user.id) },
        at: now,
      });
    }
    return { kind: 'ok', user: toAuthUser(user), session };
  });
  if (outcome.kind === 'void') throw new AppError('MFA_CHALLENGE_INVALID');
  if (outcome.kind === 'throttled') {
    throw new AppError('TOO_MANY_REQUESTS', { retryAfterSeconds: outcome.retryAfterSeconds });
  }
  if (outcome.kind === 'wrong') throw new AppError('MFA_CODE_INVALID');
  return { user: outcome.user, session: outcome.session };
}

/**
 * POST /iam/reauthenticate (step-up, DESIGN 9): the signed-in user proves who it is again, with
 * its second factor when it has one (its password is then not enough), else its password; both
 * throttled as at sign-in. The session's step-up time moves to now and is audited.
 */
export async function reauthenticate(
  deps: MfaDeps,
  user: AuthUser,
  sessionIdHash: string,
  body: ReauthenticateBody,
  actor: AuditActor,
  confirmPassword: (password: string | undefined) => Promise<void>,
): Promise<Reauthenticated> {
  const db = deps.database.db;
  const now = deps.clock.now();
  const hasSecondFactor = await isTotpEnabled(db, user.id);
  if (hasSecondFactor) {
    if (body.code === undefined && body.recovery_code === undefined) {
      throw new AppError('BODY_INVALID', { metadata: { code: 'v.mfa_code_format' } });
    }
    const keyring = await requireMfaKeyring(deps);
    await throttledCodeCheck(deps, user.id, actor.ip, async () => {
      const right = await db.transaction(async (tx) => {
        const row = await lookupTotpForUpdate(tx, user.id);
        if (!row?.enabledAt) return false;
        const factor = { code: body.code, recovery_code: body.recovery_code };
        return (await useSecondFactor(tx, keyring, row, factor, now, deps.config.MFA_ISSUER)).ok;
      });
      if (!right) throw new AppError('MFA_CODE_INVALID');
    });
  } else {
    await confirmPassword(body.password);
  }
  await db.transaction(async (tx) => {
    await markSessionReauthenticated(tx, sessionIdHash, now);
    await recordAudit(tx, {
      actor,
      action: 'reauthenticate',
      entityType: 'user',
      entityId: user.id,
      after: { factor: hasSecondFactor ? 'totp' : 'password' },
      at: now,
    });
  });
  return { authenticated_at: now.toISOString(), factor: hasSecondFactor ? 'totp' : 'password' };
}
