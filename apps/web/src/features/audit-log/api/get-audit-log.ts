import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AuditEntry, AuditListQuery } from '@app/contract';
import { api } from '@/lib/api-client';

export interface AuditLogList {
  data: AuditEntry[];
  total: number;
}

export const auditLogKeys = {
  all: ['audit-log'] as const,
  list: (query: Partial<AuditListQuery>) => ['audit-log', 'list', query] as const,
};

/** GET /audit-log (admin, Group HR, company admin: each its scope), newest first, paged. */
export async function getAuditLog(query: Partial<AuditListQuery>): Promise<AuditLogList> {
  const response = await api.get('/api/v1/audit-log', { params: { query } });
  return response.data;
}

export const auditLogQueryOptions = (query: Partial<AuditListQuery>) =>
  queryOptions({
    queryKey: auditLogKeys.list(query),
    queryFn: () => getAuditLog(query),
    placeholderData: keepPreviousData,
    meta: { silentError: true },
  });

export const useAuditLog = (query: Partial<AuditListQuery>) =>
  useQuery(auditLogQueryOptions(query));
