import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { CompanyReport, CompanyReportQuery } from '@app/contract';
import { api } from '@/lib/api-client';
import { summaryReportKeys } from './get-summary-report';

/** GET /reports/summary/{companyId} (admin, Group HR): the company's employees for a month. */
export async function getCompanyReport(
  companyId: string,
  query: Partial<CompanyReportQuery>,
): Promise<CompanyReport> {
  const response = await api.get('/api/v1/reports/summary/{companyId}', {
    params: { path: { companyId }, query },
  });
  return response.data;
}

export const companyReportQueryOptions = (companyId: string, query: Partial<CompanyReportQuery>) =>
  queryOptions({
    queryKey: summaryReportKeys.company(companyId, query),
    queryFn: () => getCompanyReport(companyId, query),
    placeholderData: keepPreviousData,
    meta: { silentError: true },
  });

export const useCompanyReport = (companyId: string, query: Partial<CompanyReportQuery>) =>
  useQuery(companyReportQueryOptions(companyId, query));
