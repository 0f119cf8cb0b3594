import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Merchant, UpdateMerchantBody } from '@app/contract';
import { api, API_PREFIX } from '@/lib/api-client';
import { merchantsKeys } from './get-merchants';

/** PUT /merchants/{id}: name and status; the code is immutable. */
export async function updateMerchant({
  id,
  body,
}: {
  id: number;
  body: UpdateMerchantBody;
}): Promise<Merchant> {
  const response = await api.put<{ data: Merchant }>(`${API_PREFIX}/merchants/${id}`, body);
  return response.data.data;
}

export function useUpdateMerchant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMerchant,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: merchantsKeys.all }),
  });
}
