import { useLateQuery } from '@/lib/late-query';
import { keepPreviousData, queryOptions } from '@/lib/query-options';
import type { SettlementList, SettlementListQuery } from '@app/contract';
import { api } from '@/lib/api-client';

export const settlementsKeys = {
  all: ['settlements'] as const,
  list: (query: Partial<SettlementListQuery>) => ['settlements', 'list', query] as const,
  statement: (merchantId: number, periodStart: string, page: number, pageSize: number) =>
    ['settlements', 'statement', merchantId, periodStart, page, pageSize] as const,
  merchants: ['settlements', 'merchants'] as const,
};

/** GET /settlements: each merchant's half-month statements in the range, newest first, paged. */
export async function getSettlements(query: Partial<SettlementListQuery>): Promise<SettlementList> {
  const response = await api.get('/api/v1/settlements', { params: { query } });
  return response.data;
}

export const settlementsQueryOptions = (query: Partial<SettlementListQuery>) =>
  queryOptions({
    queryKey: settlementsKeys.list(query),
    queryFn: () => getSettlements(query),
    placeholderData: keepPreviousData,
    meta: { silentError: true },
  });

export const useSettlements = (query: Partial<SettlementListQuery>) =>
  useLateQuery(settlementsQueryOptions(query));
