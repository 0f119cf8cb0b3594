import { count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client';
import { systemPeriods, systemSettings } from '../../db/schema';

export type SystemPeriodRow = typeof systemPeriods.$inferSelect;
export type SystemSettingsRow = typeof systemSettings.$inferSelect;

/** Serialises everything that opens system periods or moves the reset date, across instances. */
const SYSTEM_PERIOD_LOCK = 727_005;

export async function lockSystemPeriods(tx: Tx): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${SYSTEM_PERIOD_LOCK})`);
}

export async function lookupSettings(executor: Executor): Promise<SystemSettingsRow | undefined> {
  const [row] = await executor.select().from(systemSettings);
  return row;
}

/** The open period: the only one without an end. */
export async function lookupCurrentPeriod(
  executor: Executor,
): Promise<SystemPeriodRow | undefined> {
  const [row] = await executor.select().from(systemPeriods).where(isNull(systemPeriods.endsAt));
  return row;
}

export async function insertSettings(
  tx: Tx,
  values: { nextResetDate: string; resetDay: number },
): Promise<void> {
  await tx.insert(systemSettings).values(values).onConflictDoNothing();
}

export async function updateSettings(
  tx: Tx,
  values: Partial<Omit<SystemSettingsRow, 'id'>>,
): Promise<void> {
  await tx.update(systemSettings).set(values).where(eq(systemSettings.id, true));
}

export async function insertPeriod(
  tx: Tx,
  values: { period: string; startsAt: Date },
): Promise<void> {
  await tx.insert(systemPeriods).values(values);
}

export async function closePeriod(tx: Tx, period: string, endsAt: Date): Promise<void> {
  await tx.update(systemPeriods).set({ endsAt }).where(eq(systemPeriods.period, period));
}

/** A page of periods, newest first. */
export async function findPeriods(
  executor: Executor,
  page: { page: number; pageSize: number },
): Promise<{ rows: SystemPeriodRow[]; total: number }> {
  const rows = await executor
    .select()
    .from(systemPeriods)
    .orderBy(desc(systemPeriods.startsAt))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  const [total] = await executor.select({ n: count() }).from(systemPeriods);
  return { rows, total: Number(total?.n ?? 0) };
}
