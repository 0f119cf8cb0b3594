import type { ReportSummaryFilter } from '@app/contract';
import { downloadCsv } from '@/lib/download';

/** GET /exports/summary: the summary report's filters (no paging) as a CSV download. */
export const exportSummaryReport = (filters: Partial<ReportSummaryFilter>): Promise<void> =>
  downloadCsv('/api/v1/exports/summary', { query: filters }, 'summary-report.csv');
