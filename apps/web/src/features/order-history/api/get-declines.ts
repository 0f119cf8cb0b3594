import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { OrderDecline, OrderDeclinesQuery } from '@app/contract';
import type { ListResult } from '@/components/data-table';
import { api } from '@/lib/api-client';

export const declinesKeys = {
  all: ['orders-declines'] as const,
  list: (query: Partial<OrderDeclinesQuery>) => ['orders-declines', 'list', query] as const,
};

/** GET /orders/declines: the orders a spending rule or the balance refused, in scope, newest first. */
export async function getDeclines(
  query: Partial<OrderDeclinesQuery>,
): Promise<ListResult<OrderDecline>> {
  const response = await api.get('/api/v1/orders/declines', { params: { query } });
  return response.data;
}

export const declinesQueryOptions = (query: Partial<OrderDeclinesQuery>) =>
  queryOptions({
    queryKey: declinesKeys.list(query),
    queryFn: () => getDeclines(query),
    placeholderData: keepPreviousData,
    meta: { silentError: true },
  });

export const useDeclines = (
  query: Partial<OrderDeclinesQuery>,
  options: { enabled?: boolean } = {},
) => useQuery({ ...declinesQueryOptions(query), enabled: options.enabled ?? true });
