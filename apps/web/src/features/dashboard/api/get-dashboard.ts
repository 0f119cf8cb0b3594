import { useLateQuery } from '@/lib/late-query';
import { queryOptions } from '@/lib/query-options';
import type { Dashboard, DashboardQuery } from '@app/contract';
import { api } from '@/lib/api-client';

export const dashboardKeys = {
  all: ['dashboard'] as const,
  view: (query: DashboardQuery) => ['dashboard', 'view', query] as const,
  summary: (month: string | undefined) => ['dashboard', 'summary', month ?? null] as const,
};

/** GET /dashboard: the five totals and the daily flows of a token month, for the caller's view. */
export async function getDashboard(query: DashboardQuery): Promise<Dashboard> {
  const response = await api.get('/api/v1/dashboard', {
    params: { query }, // The server preloads this request when it serves /dashboard (decision 0044).
    preloadable: true,
  });
  return response.data.data;
}

/**
 * What the route's loader fetched as the page opened is not fetched again when the page mounts
 * a moment later (routes/app/dashboard-loader.ts); the loader itself fetches on every visit. A
 * failure of that fetch is shown, with its retry button, not retried by the mount (spec 4: no
 * retries).
 */
export const DASHBOARD_STALE_MS = 5_000;

export const dashboardQueryOptions = (query: DashboardQuery) =>
  queryOptions({
    queryKey: dashboardKeys.view(query),
    queryFn: () => getDashboard(query),
    staleTime: DASHBOARD_STALE_MS,
    retryOnMount: false,
    meta: { silentError: true },
  });

export const useDashboard = (query: DashboardQuery) => useLateQuery(dashboardQueryOptions(query));
