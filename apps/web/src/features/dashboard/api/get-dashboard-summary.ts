import { useLateQuery } from '@/lib/late-query';
import { queryOptions } from '@/lib/query-options';
import type { DashboardSummary } from '@app/contract';
import { api } from '@/lib/api-client';
import { DASHBOARD_STALE_MS, dashboardKeys } from './get-dashboard';

/** GET /dashboard/summary (admin, Group HR): every company's totals and the grand total. */
export async function getDashboardSummary(month: string | undefined): Promise<DashboardSummary> {
  const response = await api.get('/api/v1/dashboard/summary', {
    params: { query: month ? { month } : {} },
  });
  return response.data.data;
}

export const dashboardSummaryQueryOptions = (month: string | undefined, enabled = true) =>
  queryOptions({
    queryKey: dashboardKeys.summary(month),
    queryFn: () => getDashboardSummary(month),
    enabled,
    staleTime: DASHBOARD_STALE_MS,
    retryOnMount: false,
    meta: { silentError: true },
  });

export const useDashboardSummary = (month: string | undefined, { enabled = true } = {}) =>
  useLateQuery(dashboardSummaryQueryOptions(month, enabled));
