import type { CompanyReportFilter } from '@app/contract';
import { downloadCsv } from '@/lib/download';

/** GET /exports/summary/{companyId}: a company's report rows (no paging) as a CSV download. */
export const exportCompanyReport = (
  companyId: string,
  filters: Partial<CompanyReportFilter>,
): Promise<void> =>
  downloadCsv(
    '/api/v1/exports/summary/{companyId}',
    { path: { companyId }, query: filters },
    'company-report.csv',
  );
