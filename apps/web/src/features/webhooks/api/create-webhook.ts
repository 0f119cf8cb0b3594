import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateWebhookBody, WebhookWithSecret } from '@app/contract';
import { api } from '@/lib/api-client';
import { webhooksKeys } from './get-webhooks';

/** POST /webhooks: the answer carries the endpoint's signing secret, this once. */
export async function createWebhook(body: CreateWebhookBody): Promise<WebhookWithSecret> {
  const response = await api.post('/api/v1/webhooks', { body });
  return response.data.data;
}

export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWebhook,
    // The secret must not linger in the mutation cache after the dialog shows it.
    gcTime: 0,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKeys.all }),
  });
}
