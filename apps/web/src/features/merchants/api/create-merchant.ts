import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateMerchantBody, Merchant } from '@app/contract';
import { api } from '@/lib/api-client';
import { merchantsKeys } from './get-merchants';

/** POST /merchants */
export async function createMerchant(body: CreateMerchantBody): Promise<Merchant> {
  const response = await api.post('/api/v1/merchants', { body });
  return response.data.data;
}

export function useCreateMerchant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createMerchant,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: merchantsKeys.all }),
  });
}
