import { and, count, desc, eq, gte, lt } from 'drizzle-orm';
import type { AuditEntry } from '@app/contract';
import type { Executor } from '../../db/client';
import { auditLog, users } from '../../db/schema';
import { iso } from '../../lib/numbers';

type AuditRow = typeof auditLog.$inferSelect;

export const toAuditEntry = (row: AuditRow, actorUsername: string | null): AuditEntry => ({
  id: row.id,
  occurred_at: iso(row.occurredAt),
  actor_user_id: row.actorUserId,
  actor_username: actorUsername,
  action: row.action,
  entity_type: row.entityType,
  entity_id: row.entityId,
  before: row.before ?? null,
  after: row.after ?? null,
  ip: row.ip,
});

export interface AuditFilter {
  entityType?: string | undefined;
  entityId?: string | undefined;
  actorUserId?: number | undefined;
  action?: string | undefined;
  /** From this instant, included. */
  from?: Date | undefined;
  /** Up to this instant, excluded. */
  to?: Date | undefined;
  page: number;
  pageSize: number;
}

/** A page of the audit log, newest first (ties: the later row first). */
export async function findAuditEntries(
  executor: Executor,
  filter: AuditFilter,
): Promise<{ rows: AuditEntry[]; total: number }> {
  const where = and(
    filter.entityType ? eq(auditLog.entityType, filter.entityType) : undefined,
    filter.entityId ? eq(auditLog.entityId, filter.entityId) : undefined,
    filter.actorUserId !== undefined ? eq(auditLog.actorUserId, filter.actorUserId) : undefined,
    filter.action ? eq(auditLog.action, filter.action) : undefined,
    filter.from ? gte(auditLog.occurredAt, filter.from) : undefined,
    filter.to ? lt(auditLog.occurredAt, filter.to) : undefined,
  );
  const rows = await executor
    .select({ entry: auditLog, actorUsername: users.username })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorUserId))
    .where(where)
    .orderBy(desc(auditLog.occurredAt), desc(auditLog.id))
    .limit(filter.pageSize)
    .offset((filter.page - 1) * filter.pageSize);
  const [total] = await executor.select({ n: count() }).from(auditLog).where(where);
  return {
    rows: rows.map((r) => toAuditEntry(r.entry, r.actorUsername)),
    total: Number(total?.n ?? 0),
  };
}
