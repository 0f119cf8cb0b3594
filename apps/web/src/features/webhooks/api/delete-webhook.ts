import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, API_PREFIX } from '@/lib/api-client';
import { webhooksKeys } from './get-webhooks';

/** DELETE /webhooks/{id}: the endpoint and its delivery log go. */
export async function deleteWebhook(id: number): Promise<void> {
  await api.delete(`${API_PREFIX}/webhooks/${id}`);
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKeys.all }),
  });
}
