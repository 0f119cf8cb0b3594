import type { CompanyReportFilter } from '@app/contract';
import { API_PREFIX } from '@/lib/api-client';
import { downloadCsv } from '@/lib/download';

/** GET /exports/summary/{companyId}: a company's report rows (no paging) as a CSV download. */
export const exportCompanyReport = (
  companyId: string,
  filters: Partial<CompanyReportFilter>,
): Promise<void> =>
  downloadCsv(
    `${API_PREFIX}/exports/summary/${encodeURIComponent(companyId)}`,
    filters,
    'company-report.csv',
  );
