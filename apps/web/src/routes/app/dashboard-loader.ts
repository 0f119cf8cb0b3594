import type { LoaderFunctionArgs } from 'react-router';
import { can } from '@app/contract/permissions';
import { dashboardQueryOptions, getDashboard } from '@/features/dashboard/api/get-dashboard';
import {
  dashboardSummaryQueryOptions,
  getDashboardSummary,
} from '@/features/dashboard/api/get-dashboard-summary';
import { dashboardQueryOf } from '@/features/dashboard/search';
import {
  getRecentTransactions,
  getWallet,
  recentTransactionsQueryOptions,
  walletQueryOptions,
} from '@/features/self-service/api/get-wallet';
import type { SelfUser } from '@app/contract';
import { selfInfoQueryKey } from '@/features/auth/api/self-info-key';
import { useAuthStore } from '@/lib/auth-store';
import { loadQueryRuntime } from '@/lib/load-query-runtime';
import { seedQueries, seededData } from '@/lib/query-client-registry';
import { takeServerQueries } from '@/lib/server-queries';

/**
 * A request that leaves now, its answer put in the query cache once TanStack Query has loaded
 * (after the page's first paint, decision 0060): the cache then finds it fetching, or fetched.
 * Fresh on every visit (staleTime 0 here); the page's own, shorter-lived copy is not fetched twice.
 */
function prefetchNow<T>(options: { queryKey: readonly unknown[] }, fetch: () => Promise<T>): void {
  const answer = fetch();
  // A failure is the page's to show, from the cache, not an unhandled rejection here.
  answer.catch(() => undefined);
  void loadQueryRuntime().then(({ queryClient }) =>
    queryClient.prefetchQuery({ ...options, queryFn: () => answer, staleTime: 0 }),
  );
}

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
    prefetchNow(walletQueryOptions(), getWallet);
    prefetchNow(recentTransactionsQueryOptions(), getRecentTransactions);
    return null;
  }
  // A merchant role lands on its takings (issue 43), which ask for themselves.
  if (can(user?.type, 'till.view')) return null;
  // The page the server drew (decision 0050) comes with the answers it was drawn from: the page's
  // queries start with them (and the cache, once TanStack Query is there) and nothing is fetched
  // again.
  const served = takeServerQueries(user?.user_id);
  if (served.length > 0) {
    seedQueries(served);
    // The session's user as the server has it now, as self-info would have brought.
    const self = seededData(selfInfoQueryKey)?.data as SelfUser | undefined;
    if (self) useAuthStore.getState().setUser(self);
    return null;
  }
  const params = new URL(request.url).searchParams;
  const query = dashboardQueryOf(params.get('month'), params.get('company_id'));
  prefetchNow(dashboardQueryOptions(query), () => getDashboard(query));
  if (can(user?.type, 'dashboard.summary') && query.company_id === undefined) {
    prefetchNow(dashboardSummaryQueryOptions(query.month), () => getDashboardSummary(query.month));
  }
  return null;
}
