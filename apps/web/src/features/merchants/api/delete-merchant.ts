import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { merchantsKeys } from './get-merchants';

/** DELETE /merchants/{id}: the merchant and its terminals are hidden and refused from now on. */
export async function deleteMerchant(id: number): Promise<void> {
  await api.delete('/api/v1/merchants/{id}', { params: { path: { id } } });
}

export function useDeleteMerchant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteMerchant,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: merchantsKeys.all }),
  });
}
