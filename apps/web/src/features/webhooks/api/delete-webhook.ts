import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { webhooksKeys } from './get-webhooks';

/** DELETE /webhooks/{id}: the endpoint and its delivery log go. */
export async function deleteWebhook(id: number): Promise<void> {
  await api.delete('/api/v1/webhooks/{id}', { params: { path: { id } } });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKeys.all }),
  });
}
