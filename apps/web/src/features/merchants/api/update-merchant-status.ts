import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Merchant, Status } from '@app/contract';
import { api } from '@/lib/api-client';
import { merchantsKeys } from './get-merchants';

/** PATCH /merchants/{id}/status: an inactive merchant's terminals are refused. */
export async function updateMerchantStatus({
  id,
  status,
}: {
  id: number;
  status: Status;
}): Promise<Merchant> {
  const response = await api.patch('/api/v1/merchants/{id}/status', {
    params: { path: { id } },
    body: { status },
  });
  return response.data.data;
}

export function useUpdateMerchantStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMerchantStatus,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: merchantsKeys.all }),
  });
}
