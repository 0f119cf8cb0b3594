import { useLateQuery } from '@/lib/late-query';
import { keepPreviousData, queryOptions } from '@/lib/query-options';
import type { Approval, ApprovalKind } from '@app/contract';
import { api } from '@/lib/api-client';
import type { PageSize } from '@/components/data-table';

export interface ApprovalList {
  data: Approval[];
  total: number;
}

export interface ApprovalsQuery {
  /** One status, or several joined by commas. */
  status?: string;
  kind?: ApprovalKind;
  /** Only what the caller may decide itself (not its own requests). */
  to_decide?: 'true';
  page?: number;
  page_size?: PageSize;
}

/**
 * Every approvals query sits under ['approvals'], so a request (the top-up and distribution
 * dialogs) or a decision invalidates the lists and the sidebar's pending count together.
 */
export const approvalsKeys = {
  all: ['approvals'] as const,
  list: (query: ApprovalsQuery) => ['approvals', 'list', query] as const,
  pendingCount: ['approvals', 'pending-count'] as const,
};

/** GET /approvals: the caller's scope, newest first. */
export async function getApprovals(query: ApprovalsQuery): Promise<ApprovalList> {
  const response = await api.get('/api/v1/approvals', { params: { query } });
  return response.data;
}

export const approvalsQueryOptions = (query: ApprovalsQuery) =>
  queryOptions({
    queryKey: approvalsKeys.list(query),
    queryFn: () => getApprovals(query),
    placeholderData: keepPreviousData,
    meta: { silentError: true },
  });

export const useApprovals = (query: ApprovalsQuery) => useLateQuery(approvalsQueryOptions(query));

/** How many requests wait for the caller's decision (the sidebar badge); refreshed every minute. */
export function usePendingApprovalCount(enabled: boolean) {
  return useLateQuery({
    queryKey: approvalsKeys.pendingCount,
    queryFn: async () =>
      (await getApprovals({ status: 'pending', to_decide: 'true', page_size: 10 })).total,
    enabled,
    refetchInterval: 60_000,
    staleTime: 30_000,
    meta: { silentError: true },
  });
}
