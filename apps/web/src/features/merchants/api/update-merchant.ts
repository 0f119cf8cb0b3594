import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Merchant, UpdateMerchantBody } from '@app/contract';
import { api } from '@/lib/api-client';
import { merchantsKeys } from './get-merchants';

/** PUT /merchants/{id}: name and status; the code is immutable. */
export async function updateMerchant({
  id,
  body,
}: {
  id: number;
  body: UpdateMerchantBody;
}): Promise<Merchant> {
  const response = await api.put('/api/v1/merchants/{id}', { params: { path: { id } }, body });
  return response.data.data;
}

export function useUpdateMerchant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMerchant,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: merchantsKeys.all }),
  });
}
