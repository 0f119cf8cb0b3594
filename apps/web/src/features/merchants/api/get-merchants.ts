import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Merchant, MerchantListQuery } from '@app/contract';
import type { ListResult } from '@/components/data-table';
import { api } from '@/lib/api-client';

export const merchantsKeys = {
  all: ['merchants'] as const,
  list: (query: Partial<MerchantListQuery>) => ['merchants', 'list', query] as const,
  options: ['merchants', 'options'] as const,
};

/** GET /merchants (admin), paged. */
export async function getMerchants(
  query: Partial<MerchantListQuery>,
): Promise<ListResult<Merchant>> {
  const response = await api.get('/api/v1/merchants', { params: { query } });
  return response.data;
}

export const merchantsQueryOptions = (query: Partial<MerchantListQuery>) =>
  queryOptions({
    queryKey: merchantsKeys.list(query),
    queryFn: () => getMerchants(query),
    placeholderData: keepPreviousData,
    meta: { silentError: true },
  });

export const useMerchants = (query: Partial<MerchantListQuery>) =>
  useQuery(merchantsQueryOptions(query));
