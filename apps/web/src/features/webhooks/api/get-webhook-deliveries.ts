import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { WebhookDelivery } from '@app/contract';
import { api } from '@/lib/api-client';
import { webhooksKeys } from './get-webhooks';

export interface WebhookDeliveriesPage {
  data: WebhookDelivery[];
  next_cursor: string | null;
}

/** GET /webhooks/{id}/deliveries: one page, newest first. */
export async function getWebhookDeliveries(
  id: number,
  cursor?: string,
): Promise<WebhookDeliveriesPage> {
  const response = await api.get('/api/v1/webhooks/{id}/deliveries', {
    params: { path: { id }, query: cursor ? { cursor } : {} },
  });
  return response.data;
}

export const webhookDeliveriesQueryOptions = (id: number) =>
  infiniteQueryOptions({
    queryKey: webhooksKeys.deliveries(id),
    queryFn: ({ pageParam }) => getWebhookDeliveries(id, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    meta: { silentError: true },
  });

export const useWebhookDeliveries = (id: number) =>
  useInfiniteQuery(webhookDeliveriesQueryOptions(id));
