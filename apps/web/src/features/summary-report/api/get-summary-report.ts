import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ReportSummary, ReportSummaryQuery } from '@app/contract';
import { api } from '@/lib/api-client';

export const summaryReportKeys = {
  all: ['summary-report'] as const,
  list: (query: Partial<ReportSummaryQuery>) => ['summary-report', 'list', query] as const,
  company: (companyId: string, query: object) =>
    ['summary-report', 'company', companyId, query] as const,
};

/** GET /reports/summary: each company's totals for a month, paged, with the grand total. */
export async function getSummaryReport(query: Partial<ReportSummaryQuery>): Promise<ReportSummary> {
  const response = await api.get('/api/v1/reports/summary', { params: { query } });
  return response.data;
}

export const summaryReportQueryOptions = (query: Partial<ReportSummaryQuery>) =>
  queryOptions({
    queryKey: summaryReportKeys.list(query),
    queryFn: () => getSummaryReport(query),
    placeholderData: keepPreviousData,
    meta: { silentError: true },
  });

export const useSummaryReport = (query: Partial<ReportSummaryQuery>) =>
  useQuery(summaryReportQueryOptions(query));
