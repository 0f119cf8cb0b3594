import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
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
}

/**
 * A new session, and the user's dead ones (past their absolute expiry or idle since
 * `idleCutoff`) deleted in the same statement: one round trip of a sign-in instead of two. The
 * delete's snapshot is the statement's, so it never sees the session inserted beside it.
 */
export async function insertSessionDeletingExpired(
  executor: Executor,
  session: NewSession,
  idleCutoff: Date,
): Promise<void> {
  const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;
  await executor.execute(
    sql`WITH expired AS (
          DELETE FROM sessions
           WHERE user_id = ${session.userId}
             AND (expires_at <= ${at(session.createdAt)} OR last_seen_at <= ${at(idleCutoff)}))
        INSERT INTO sessions (id_hash, user_id, created_at, last_seen_at, expires_at, ip, user_agent)
        VALUES (${session.idHash}, ${session.userId}, ${at(session.createdAt)},
                ${at(session.lastSeenAt)}, ${at(session.expiresAt)}, ${session.ip},
                ${session.userAgent})`,
  );
}

/** The session with its user, or null. */
export async function findSessionWithUser(
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
