import { useLateQuery } from '@/lib/late-query';
import { queryOptions } from '@/lib/query-options';
import type { SelfUser } from '@app/contract';
import { api } from '@/lib/api-client';
import { useAuthStore } from '@/lib/auth-store';
import { selfInfoQueryKey } from './self-info-key';

export { selfInfoQueryKey };

export const SELF_INFO_STALE_MS = 5 * 60 * 1000;

/**
 * GET /iam/self-info. It is the session probe: a 401 here signs out quietly (back to /login with
 * `from`), without the session-expired alert.
 */
export async function getSelfInfo(): Promise<SelfUser> {
  const response = await api.get('/api/v1/iam/self-info', { quietUnauthorized: true });
  const user = response.data.data;
  // A sign-out while the call was in flight wins over its answer.
  if (useAuthStore.getState().isAuthenticated) useAuthStore.getState().setUser(user);
  return user;
}

/** Spec 7: cached 5 minutes, no refetch on focus, only while authenticated. */
export const selfInfoQueryOptions = (isAuthenticated: boolean) =>
  queryOptions({
    queryKey: selfInfoQueryKey,
    queryFn: getSelfInfo,
    staleTime: SELF_INFO_STALE_MS,
    refetchOnWindowFocus: false,
    enabled: isAuthenticated,
    meta: { silentError: true },
  });

export function useSelfInfo() {
  const isAuthenticated = useAuthStore((state) => state.isAuthenticated);
  return useLateQuery(selfInfoQueryOptions(isAuthenticated));
}
