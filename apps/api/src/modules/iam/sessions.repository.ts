import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { auditInsert, type AuditRecord } from '../../lib/audit';
import { sessions, users } from '../../db/schema';

export type SessionRow = typeof sessions.$inferSelect;
export type UserRow = typeof users.$inferSelect;

export interface NewSession {
  idHash: string;
  userId: number;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  ip: string | null;
  userAgent: string | null;
  /** An OIDC sign-in whose provider checked a second factor (decision 0086). */
  secondFactorAtProvider?: boolean;
}

/**
 * A new session in one statement (a data-modifying WITH): the user's dead sessions (past their
 * absolute expiry or idle since `idleCutoff`) deleted, the session presented at sign-in (if any)
 * ended, and the sign-in's audit row written, atomic as the statement is. A sign-in's one round
 * trip instead of a transaction of four (decision 0063). The deletes' snapshot is the
 * statement's, so they never see the session inserted beside them.
 */
export async function insertSessionWithAudit(
  executor: Executor,
  input: { session: NewSession; idleCutoff: Date; endedIdHash: string | null; audit: AuditRecord },
): Promise<void> {
  const { session } = input;
  const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;
  await executor.execute(
    sql`WITH expired AS (
          DELETE FROM sessions
           WHERE user_id = ${session.userId}
             AND (expires_at <= ${at(session.createdAt)} OR last_seen_at <= ${at(input.idleCutoff)})),
        ended AS (DELETE FROM sessions WHERE id_hash = ${input.endedIdHash}),
        audit AS (${auditInsert(input.audit)})
        INSERT INTO sessions (id_hash, user_id, created_at, last_seen_at, expires_at, ip, user_agent,
                              second_factor_at_provider)
        VALUES (${session.idHash}, ${session.userId}, ${at(session.createdAt)},
                ${at(session.lastSeenAt)}, ${at(session.expiresAt)}, ${session.ip},
                ${session.userAgent}, ${session.secondFactorAtProvider === true})`,
  );
}

/** The session with its user, or null. */
export async function lookupSessionWithUser(
  executor: Executor,
  idHash: string,
): Promise<{ session: SessionRow; user: UserRow } | null> {
  const rows = await executor
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.idHash, idHash))
    .limit(1);
  return rows[0] ?? null;
}

export async function touchSession(executor: Executor, idHash: string, at: Date): Promise<void> {
  await executor.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.idHash, idHash));
}

export async function deleteSession(executor: Executor, idHash: string): Promise<void> {
  await executor.delete(sessions).where(eq(sessions.idHash, idHash));
}

/** Ends every session of a user (deactivation, password change). Returns how many ended. */
export async function revokeUserSessions(executor: Executor, userId: number): Promise<number> {
  const deleted = await executor
    .delete(sessions)
    .where(eq(sessions.userId, userId))
    .returning({ idHash: sessions.idHash });
  return deleted.length;
}

/** Step-up (DESIGN 9): the session's user proved who it is again at `at`. */
export async function markSessionReauthenticated(
  executor: Executor,
  idHash: string,
  at: Date,
): Promise<void> {
  await executor.update(sessions).set({ reauthenticatedAt: at }).where(eq(sessions.idHash, idHash));
}
