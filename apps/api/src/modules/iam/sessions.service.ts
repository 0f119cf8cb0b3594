import type { Config } from '../../config';
import type { Executor } from '../../db/client';
import type { AuditRecord } from '../../lib/audit';
import type { Clock } from '../../lib/clock';
import type { AuthUser } from '../../lib/principal';
import { toAuthUser } from './iam.repository';
import {
  deleteSession,
  lookupSessionWithUser,
  insertSessionWithAudit,
  touchSession,
} from './sessions.repository';
import { csrfTokenFor, hashToken, isTokenShaped, newToken } from './session-tokens';

// A user's sessions end when an administrator deactivates it (users module).

/** last_seen_at is written at most this often, so a busy session costs one UPDATE a minute. */
export const TOUCH_INTERVAL_MS = 60_000;

export type SessionConfig = Pick<Config, 'SESSION_IDLE_MINUTES' | 'SESSION_ABSOLUTE_HOURS'>;

export interface ActiveSession {
  idHash: string;
  /** The session's CSRF token (derived from the session token, never stored). */
  csrfToken: string;
  user: AuthUser;
}

export interface IssuedSession {
  /** The cookie value; never stored. */
  token: string;
  /** The XSRF-TOKEN cookie value, derived from the token (decision 0003); never stored. */
  csrfToken: string;
}

const idleCutoff = (now: Date, config: SessionConfig) =>
  new Date(now.getTime() - config.SESSION_IDLE_MINUTES * 60_000);

/**
 * Opens a new session for a user who just proved who they are, with its audit row, in one
 * statement: the user's dead sessions go (housekeeping at sign-in), and so does the session
 * presented at sign-in, if any (`previousToken`).
 */
export async function openSession(
  executor: Executor,
  input: {
    userId: number;
    now: Date;
    ip: string | null;
    userAgent: string | null;
    previousToken?: string | undefined;
    audit: AuditRecord;
    /** An OIDC sign-in whose provider checked a second factor (decision 0086). */
    secondFactorAtProvider?: boolean;
  },
  config: SessionConfig,
): Promise<IssuedSession> {
  const token = newToken();
  await insertSessionWithAudit(executor, {
    session: {
      idHash: hashToken(token),
      userId: input.userId,
      createdAt: input.now,
      lastSeenAt: input.now,
      expiresAt: new Date(input.now.getTime() + config.SESSION_ABSOLUTE_HOURS * 3_600_000),
      ip: input.ip,
      userAgent: input.userAgent?.slice(0, 512) ?? null,
      secondFactorAtProvider: input.secondFactorAtProvider === true,
    },
    idleCutoff: idleCutoff(input.now, config),
    endedIdHash: isTokenShaped(input.previousToken) ? hashToken(input.previousToken) : null,
    audit: input.audit,
  });
  return { token, csrfToken: csrfTokenFor(token) };
}

/**
 * The live session behind a cookie value, or null. Idle and absolute expiry and the user's
 * status are checked here; a dead session is deleted on sight. Sliding: a use more than a
 * minute after the last one moves last_seen_at.
 */
export async function resolveSession(
  executor: Executor,
  token: string | undefined,
  clock: Clock,
  config: SessionConfig,
): Promise<ActiveSession | null> {
  if (!isTokenShaped(token)) return null;
  const idHash = hashToken(token);
  const found = await lookupSessionWithUser(executor, idHash);
  if (!found) return null;
  const { session, user } = found;
  const now = clock.now();
  const isExpired =
    now.getTime() >= session.expiresAt.getTime() ||
    session.lastSeenAt.getTime() <= idleCutoff(now, config).getTime() ||
    user.status !== 'active';
  if (isExpired) {
    await deleteSession(executor, idHash);
    return null;
  }
  if (now.getTime() - session.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) {
    await touchSession(executor, idHash, now);
  }
  const authenticatedAt =
    session.reauthenticatedAt && session.reauthenticatedAt > session.createdAt
      ? session.reauthenticatedAt
      : session.createdAt;
  const sessionUser: AuthUser = { ...toAuthUser(user), authenticatedAt };
  if (session.secondFactorAtProvider) sessionUser.secondFactorAtProvider = true;
  return { idHash, csrfToken: csrfTokenFor(token), user: sessionUser };
}
