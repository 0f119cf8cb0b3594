import type { DayRange } from '@/components/date-picker';
import { dashboardQueryOptions } from '@/features/dashboard/api/get-dashboard';
import { loadQueryRuntime } from '@/lib/load-query-runtime';

/**
 * The current token month of a view (one company, or the caller's own scope), as the dashboard
 * states it: asked of the server only when a date filter's "This token month" preset is used,
 * then cached with the dashboard's own answer.
 */
export async function loadTokenMonth(companyId: number | undefined): Promise<DayRange> {
  const { queryClient } = await loadQueryRuntime();
  const dashboard = await queryClient.fetchQuery(
    dashboardQueryOptions(companyId === undefined ? {} : { company_id: companyId }),
  );
  return { from: dashboard.window_start, to: dashboard.window_end };
}
