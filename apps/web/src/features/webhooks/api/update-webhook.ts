import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateWebhookBody, Webhook } from '@app/contract';
import { api } from '@/lib/api-client';
import { webhooksKeys } from './get-webhooks';

/** PATCH /webhooks/{id}: here, to disable or enable an endpoint. */
export async function updateWebhook({
  id,
  body,
}: {
  id: number;
  body: UpdateWebhookBody;
}): Promise<Webhook> {
  const response = await api.patch('/api/v1/webhooks/{id}', { params: { path: { id } }, body });
  return response.data.data;
}

export function useUpdateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKeys.all }),
  });
}
