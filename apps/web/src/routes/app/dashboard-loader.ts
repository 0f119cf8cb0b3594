import type { LoaderFunctionArgs } from 'react-router';
import { can } from '@app/contract/permissions';
import { dashboardQueryOptions } from '@/features/dashboard/api/get-dashboard';
import { dashboardSummaryQueryOptions } from '@/features/dashboard/api/get-dashboard-summary';
import { dashboardQueryOf } from '@/features/dashboard/search';
import {
  recentTransactionsQueryOptions,
  walletQueryOptions,
} from '@/features/self-service/api/get-wallet';
import type { SelfUser } from '@app/contract';
import { selfInfoQueryKey } from '@/features/auth/api/self-info-key';
import { useAuthStore } from '@/lib/auth-store';
import { queryClient } from '@/lib/query-client';
import { takeServerQueries } from '@/lib/server-queries';

/**
 * The dashboard's requests start with its route, while its code still loads (a static loader
 * runs beside `lazy`), not once the page has rendered: the figures arrive a network round trip
 * sooner (issue 19 item 7, decision 0026). Nothing waits for them; the page shows its skeleton
 * until they come, as before. A signed-out visitor asks for nothing (the layout sends them to
 * sign in).
 */
export function dashboardLoader({ request }: LoaderFunctionArgs): null {
  const { isAuthenticated, user } = useAuthStore.getState();
  if (!isAuthenticated) return null;
  // An employee lands on its wallet (decision 0033), not on the dashboard.
  if (can(user?.type, 'wallet.self')) {
    void queryClient.prefetchQuery({ ...walletQueryOptions(), staleTime: 0 });
    void queryClient.prefetchQuery({ ...recentTransactionsQueryOptions(), staleTime: 0 });
    return null;
  }
  // The page the server drew (decision 0050) comes with the answers it was drawn from: the cache
  // starts with them and nothing is fetched again.
  const served = takeServerQueries(user?.user_id);
  for (const { queryKey, data } of served) queryClient.setQueryData(queryKey, data);
  if (served.length > 0) {
    // The session's user as the server has it now, as self-info would have brought.
    const self = queryClient.getQueryData<SelfUser>(selfInfoQueryKey);
    if (self) useAuthStore.getState().setUser(self);
    return null;
  }
  const params = new URL(request.url).searchParams;
  const query = dashboardQueryOf(params.get('month'), params.get('company_id'));
  // Fresh on every visit (staleTime 0 here); the page's own, shorter-lived copy is not fetched
  // twice.
  void queryClient.prefetchQuery({ ...dashboardQueryOptions(query), staleTime: 0 });
  if (can(user?.type, 'dashboard.summary') && query.company_id === undefined) {
    void queryClient.prefetchQuery({ ...dashboardSummaryQueryOptions(query.month), staleTime: 0 });
  }
  return null;
}
