import type { AuditEntry, AuditListQuery } from '@app/contract';
import type { ServiceDeps } from '../../lib/deps';
import { dayRange } from '../../lib/periods';
import { findAuditEntries } from './audit.repository';

/** The audit log, newest first; `date_from` and `date_to` are days in APP_TIMEZONE, both included. */
export async function listAuditLog(
  { database, config }: ServiceDeps,
  query: AuditListQuery,
): Promise<{ data: AuditEntry[]; total: number }> {
  const timeZone = config.APP_TIMEZONE;
  const { rows, total } = await findAuditEntries(database.db, {
    entityType: query.entity_type,
    entityId: query.entity_id,
    actorUserId: query.actor_user_id,
    action: query.action,
    ...dayRange(query.date_from, query.date_to, timeZone),
    page: query.page,
    pageSize: query.page_size,
  });
  return { data: rows, total };
}
