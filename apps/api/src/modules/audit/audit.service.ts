import type { AuditEntry, AuditExportQuery, AuditListQuery } from '@app/contract';
import { AppError } from '../../lib/app-error';
import type { ServiceDeps } from '../../lib/deps';
import { dayRange } from '../../lib/periods';
import type { AuthUser } from '../../lib/principal';
import {
  countAuditRows,
  findAuditRows,
  lastAuditId,
  type AuditFilter,
  type AuditScope,
} from './audit.repository';

/**
 * The audit rows a user may read (decision 0036): the admin all of them, Group HR the company
 * side of the programme and its own account's, a company admin its own company's. Any other role
 * has no audit scope (its routes refuse it before this).
 */
export function auditScopeOf(user: AuthUser): AuditScope {
  switch (user.type) {
    case 'admin':
      return { kind: 'all' };
    case 'super_hr':
      return { kind: 'companies', selfUserId: user.id };
    case 'company_admin':
      if (user.companyId != null) return { kind: 'company', companyId: user.companyId };
      break;
    default:
      break;
  }
  throw new AppError('PERMISSION_DENIED');
}

/**
 * The one filter of the audit log, built from the caller and the query, which the list and its
 * export both use (ARCHITECTURE "The scope rule"): `date_from` and `date_to` are days in
 * APP_TIMEZONE, both included.
 */
export function auditFilterFor(
  { config }: Pick<ServiceDeps, 'config'>,
  user: AuthUser,
  query: AuditExportQuery,
): AuditFilter {
  return {
    scope: auditScopeOf(user),
    entityType: query.entity_type,
    entityId: query.entity_id,
    actorUserId: query.actor_user_id,
    actor: query.actor,
    action: query.action,
    ...dayRange(query.date_from, query.date_to, config.APP_TIMEZONE),
    sort: query.sort,
    order: query.order,
  };
}

/** GET /audit-log: a page of the rows the caller may see. */
export async function listAuditLog(
  deps: ServiceDeps,
  user: AuthUser,
  query: AuditListQuery,
): Promise<{ data: AuditEntry[]; total: number }> {
  const filter = auditFilterFor(deps, user, query);
  const db = deps.database.db;
  const data = await findAuditRows(db, filter, {
    limit: query.page_size,
    offset: (query.page - 1) * query.page_size,
  });
  return { data, total: await countAuditRows(db, filter) };
}

/** The export's filter: the list's, bounded to the rows written before the export began. */
export async function auditExportFilterFor(
  deps: ServiceDeps,
  user: AuthUser,
  query: AuditExportQuery,
): Promise<AuditFilter> {
  const filter = auditFilterFor(deps, user, query);
  return { ...filter, maxId: await lastAuditId(deps.database.read) };
}
