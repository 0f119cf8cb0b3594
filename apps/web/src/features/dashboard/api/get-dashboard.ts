import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Dashboard, DashboardQuery } from '@app/contract';
import { api, API_PREFIX } from '@/lib/api-client';

export const dashboardKeys = {
  all: ['dashboard'] as const,
  view: (query: DashboardQuery) => ['dashboard', 'view', query] as const,
  summary: (month: string | undefined) => ['dashboard', 'summary', month ?? null] as const,
};

/** GET /dashboard: the five totals and the daily flows of a token month, for the caller's view. */
export async function getDashboard(query: DashboardQuery): Promise<Dashboard> {
  const response = await api.get<{ data: Dashboard }>(`${API_PREFIX}/dashboard`, {
    params: query,
  });
  return response.data.data;
}

export const dashboardQueryOptions = (query: DashboardQuery) =>
  queryOptions({
    queryKey: dashboardKeys.view(query),
    queryFn: () => getDashboard(query),
    meta: { silentError: true },
  });

export const useDashboard = (query: DashboardQuery) => useQuery(dashboardQueryOptions(query));
