import type { AuditExportQuery } from '@app/contract';
import { downloadCsv } from '@/lib/download';

/** GET /exports/audit-log: the list's filters and order (no paging) as a CSV download. */
export const exportAuditLog = (query: Partial<AuditExportQuery>): Promise<void> =>
  downloadCsv('/api/v1/exports/audit-log', { query }, 'audit-log.csv');
