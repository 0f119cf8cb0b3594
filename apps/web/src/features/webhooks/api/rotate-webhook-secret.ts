import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookWithSecret } from '@app/contract';
import { api } from '@/lib/api-client';
import { webhooksKeys } from './get-webhooks';

/** POST /webhooks/{id}/rotate-secret: a new secret, shown once; the old one stops at once. */
export async function rotateWebhookSecret(id: number): Promise<WebhookWithSecret> {
  const response = await api.post('/api/v1/webhooks/{id}/rotate-secret', {
    params: { path: { id } },
  });
  return response.data.data;
}

export function useRotateWebhookSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rotateWebhookSecret,
    gcTime: 0,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKeys.all }),
  });
}
