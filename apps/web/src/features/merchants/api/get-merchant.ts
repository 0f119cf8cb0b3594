import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Merchant } from '@app/contract';
import { api } from '@/lib/api-client';
import { merchantsKeys } from './get-merchants';

/** GET /merchants/{id} (admin): one merchant (changes to merchants refresh it). */
export async function getMerchant(id: string): Promise<Merchant> {
  const response = await api.get('/api/v1/merchants/{id}', { params: { path: { id } } });
  return response.data.data;
}

export const merchantQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...merchantsKeys.all, 'detail', id] as const,
    queryFn: () => getMerchant(id),
    meta: { silentError: true },
  });

export const useMerchant = (id: string) => useQuery(merchantQueryOptions(id));
