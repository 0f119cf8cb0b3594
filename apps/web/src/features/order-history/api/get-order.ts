import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OrderDetail } from '@app/contract';
import { api } from '@/lib/api-client';
import { ordersKeys } from './get-orders';

/** GET /orders/admin/{id}: the order with its items and refunds. */
export async function getOrder(id: number): Promise<OrderDetail> {
  const response = await api.get('/api/v1/orders/admin/{id}', { params: { path: { id } } });
  return response.data.data;
}

export const orderQueryOptions = (id: number | undefined) =>
  queryOptions({
    queryKey: ordersKeys.detail(id ?? 0),
    queryFn: () => getOrder(id ?? 0),
    enabled: id !== undefined,
    meta: { silentError: true },
  });

export const useOrder = (id: number | undefined) => useQuery(orderQueryOptions(id));
