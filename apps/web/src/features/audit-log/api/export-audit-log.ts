import type { AuditExportQuery } from '@app/contract';
import { API_PREFIX } from '@/lib/api-client';
import { downloadCsv } from '@/lib/download';

/** GET /exports/audit-log: the list's filters and order (no paging) as a CSV download. */
export const exportAuditLog = (query: Partial<AuditExportQuery>): Promise<void> =>
  downloadCsv(`${API_PREFIX}/exports/audit-log`, query, 'audit-log.csv');
