import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookDelivery } from '@app/contract';
import { api } from '@/lib/api-client';
import { webhooksKeys } from './get-webhooks';

/** POST /webhooks/{id}/deliveries/{did}/retry: one more attempt now, same webhook-id. */
export async function retryWebhookDelivery({
  endpointId,
  deliveryId,
}: {
  endpointId: number;
  deliveryId: number;
}): Promise<WebhookDelivery> {
  const response = await api.post('/api/v1/webhooks/{id}/deliveries/{did}/retry', {
    params: { path: { id: endpointId, did: deliveryId } },
  });
  return response.data.data;
}

export function useRetryWebhookDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryWebhookDelivery,
    onSuccess: (_delivery, { endpointId }) =>
      queryClient.invalidateQueries({ queryKey: webhooksKeys.deliveries(endpointId) }),
  });
}
