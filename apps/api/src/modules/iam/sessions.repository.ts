import { and, eq, lte, or } from 'drizzle-orm';
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

export async function insertSession(executor: Executor, session: NewSession): Promise<void> {
  await executor.insert(sessions).values(session);
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

/** Drops a user's sessions that have expired by either limit (housekeeping at sign-in). */
export async function deleteExpiredUserSessions(
  executor: Executor,
  userId: number,
  now: Date,
  idleCutoff: Date,
): Promise<void> {
  await executor
    .delete(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        or(lte(sessions.expiresAt, now), lte(sessions.lastSeenAt, idleCutoff)),
      ),
    );
}
