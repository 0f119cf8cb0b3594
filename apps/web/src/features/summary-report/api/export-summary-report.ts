import type { ReportSummaryFilter } from '@app/contract';
import { API_PREFIX } from '@/lib/api-client';
import { downloadCsv } from '@/lib/download';

/** GET /exports/summary: the summary report's filters (no paging) as a CSV download. */
export const exportSummaryReport = (filters: Partial<ReportSummaryFilter>): Promise<void> =>
  downloadCsv(`${API_PREFIX}/exports/summary`, filters, 'summary-report.csv');
