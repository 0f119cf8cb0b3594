import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { OrderHistoryList, OrderHistoryQuery } from '@app/contract';
import { api } from '@/lib/api-client';

export const ordersKeys = {
  all: ['orders-admin'] as const,
  list: (query: Partial<OrderHistoryQuery>) => ['orders-admin', 'list', query] as const,
  detail: (id: number) => ['orders-admin', 'detail', id] as const,
};

/** GET /orders/admin (admin, Group HR): orders newest first, paged. */
export async function getOrders(query: Partial<OrderHistoryQuery>): Promise<OrderHistoryList> {
  const response = await api.get('/api/v1/orders/admin', { params: { query } });
  return response.data;
}

export const ordersQueryOptions = (query: Partial<OrderHistoryQuery>) =>
  queryOptions({
    queryKey: ordersKeys.list(query),
    queryFn: () => getOrders(query),
    placeholderData: keepPreviousData,
    meta: { silentError: true },
  });

export const useOrders = (query: Partial<OrderHistoryQuery>) => useQuery(ordersQueryOptions(query));
