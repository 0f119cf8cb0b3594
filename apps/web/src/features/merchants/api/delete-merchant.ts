import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, API_PREFIX } from '@/lib/api-client';
import { merchantsKeys } from './get-merchants';

/** DELETE /merchants/{id}: the merchant and its terminals are hidden and refused from now on. */
export async function deleteMerchant(id: number): Promise<void> {
  await api.delete(`${API_PREFIX}/merchants/${id}`);
}

export function useDeleteMerchant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteMerchant,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: merchantsKeys.all }),
  });
}
