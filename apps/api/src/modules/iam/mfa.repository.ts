import { and, count, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { mfaChallenges, userRecoveryCodes, userTotp, users } from '../../db/schema';

export type TotpRow = typeof userTotp.$inferSelect;
export type ChallengeRow = typeof mfaChallenges.$inferSelect;

/** The TOTP row, held until the transaction ends (serialises code checks: one use per step). */
export async function lookupTotpForUpdate(
  executor: Executor,
  userId: number,
): Promise<TotpRow | null> {
  const rows = await executor
    .select()
    .from(userTotp)
    .where(eq(userTotp.userId, userId))
    .for('update');
  return rows[0] ?? null;
}

/** Whether TOTP is on for the user (the enrolment gate asks on every request of a required role). */
export async function isTotpEnabled(executor: Executor, userId: number): Promise<boolean> {
  const rows = await executor
    .select({ userId: userTotp.userId })
    .from(userTotp)
    .where(and(eq(userTotp.userId, userId), isNotNull(userTotp.enabledAt)));
  return rows.length > 0;
}

/** Starts (or restarts) enrolment with a new pending secret; never touches an enabled row. */
export async function upsertPendingTotp(
  executor: Executor,
  input: { userId: number; secretEncrypted: string; at: Date },
): Promise<boolean> {
  const rows = await executor
    .insert(userTotp)
    .values({
      userId: input.userId,
      secretEncrypted: input.secretEncrypted,
      enabledAt: null,
      lastUsedStep: null,
      createdAt: input.at,
      updatedAt: input.at,
    })
    .onConflictDoUpdate({
      target: userTotp.userId,
      set: { secretEncrypted: input.secretEncrypted, lastUsedStep: null, updatedAt: input.at },
      setWhere: isNull(userTotp.enabledAt),
    })
    .returning({ userId: userTotp.userId });
  return rows.length > 0;
}

export async function enableTotp(
  executor: Executor,
  input: { userId: number; step: number; at: Date },
): Promise<void> {
  await executor
    .update(userTotp)
    .set({ enabledAt: input.at, lastUsedStep: input.step, updatedAt: input.at })
    .where(eq(userTotp.userId, input.userId));
}

export async function setLastUsedStep(
  executor: Executor,
  userId: number,
  step: number,
  at: Date,
): Promise<void> {
  await executor
    .update(userTotp)
    .set({ lastUsedStep: step, updatedAt: at })
    .where(eq(userTotp.userId, userId));
}

/** Removes a user's second factor entirely: secret, recovery codes and pending sign-ins. */
export async function deleteMfa(executor: Executor, userId: number): Promise<boolean> {
  const deleted = await executor
    .delete(userTotp)
    .where(eq(userTotp.userId, userId))
    .returning({ userId: userTotp.userId });
  await executor.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
  await executor.delete(mfaChallenges).where(eq(mfaChallenges.userId, userId));
  return deleted.length > 0;
}

export async function replaceRecoveryCodes(
  executor: Executor,
  userId: number,
  hashes: string[],
  at: Date,
): Promise<void> {
  await executor.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
  await executor
    .insert(userRecoveryCodes)
    .values(hashes.map((codeHash) => ({ userId, codeHash, createdAt: at })));
}

/** Marks an unused recovery code used; false when there is no such unused code. */
export async function useRecoveryCode(
  executor: Executor,
  userId: number,
  codeHash: string,
  at: Date,
): Promise<boolean> {
  const used = await executor
    .update(userRecoveryCodes)
    .set({ usedAt: at })
    .where(
      and(
        eq(userRecoveryCodes.userId, userId),
        eq(userRecoveryCodes.codeHash, codeHash),
        isNull(userRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: userRecoveryCodes.id });
  return used.length > 0;
}

export async function countUnusedRecoveryCodes(executor: Executor, userId: number) {
  const [row] = await executor
    .select({ n: count() })
    .from(userRecoveryCodes)
    .where(and(eq(userRecoveryCodes.userId, userId), isNull(userRecoveryCodes.usedAt)));
  return Number(row?.n ?? 0);
}

export async function insertChallenge(
  executor: Executor,
  challenge: {
    idHash: string;
    userId: number;
    login: string;
    createdAt: Date;
    expiresAt: Date;
    ip: string | null;
    userAgent: string | null;
  },
): Promise<void> {
  // Housekeeping: this user's dead challenges go when a new one starts.
  await executor
    .delete(mfaChallenges)
    .where(
      and(
        eq(mfaChallenges.userId, challenge.userId),
        lte(mfaChallenges.expiresAt, challenge.createdAt),
      ),
    );
  await executor.insert(mfaChallenges).values({ ...challenge, failures: 0 });
}

export async function lookupChallengeForUpdate(
  executor: Executor,
  idHash: string,
): Promise<ChallengeRow | null> {
  const rows = await executor
    .select()
    .from(mfaChallenges)
    .where(eq(mfaChallenges.idHash, idHash))
    .for('update');
  return rows[0] ?? null;
}

export async function countChallengeFailure(executor: Executor, idHash: string): Promise<number> {
  const [row] = await executor
    .update(mfaChallenges)
    .set({ failures: sql`${mfaChallenges.failures} + 1` })
    .where(eq(mfaChallenges.idHash, idHash))
    .returning({ failures: mfaChallenges.failures });
  return row?.failures ?? 0;
}

export async function deleteChallenge(executor: Executor, idHash: string): Promise<void> {
  await executor.delete(mfaChallenges).where(eq(mfaChallenges.idHash, idHash));
}

/** A live (not deleted) user's id, or null: the admin reset's 404. */
export async function lookupLiveUserId(executor: Executor, userId: number): Promise<number | null> {
  const rows = await executor
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  return rows[0]?.id ?? null;
}
