import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { PageQuery, Webhook } from '@app/contract';
import type { ListResult } from '@/components/data-table';
import { api } from '@/lib/api-client';

export const webhooksKeys = {
  all: ['webhooks'] as const,
  list: (query: Partial<PageQuery>) => ['webhooks', 'list', query] as const,
  deliveries: (id: number) => ['webhooks', 'deliveries', id] as const,
};

/** GET /webhooks: the endpoints of the caller's scope, paged; never carries a secret. */
export async function getWebhooks(query: Partial<PageQuery>): Promise<ListResult<Webhook>> {
  const response = await api.get('/api/v1/webhooks', { params: { query } });
  return response.data;
}

export const webhooksQueryOptions = (query: Partial<PageQuery>) =>
  queryOptions({
    queryKey: webhooksKeys.list(query),
    queryFn: () => getWebhooks(query),
    placeholderData: keepPreviousData,
    meta: { silentError: true },
  });

export const useWebhooks = (query: Partial<PageQuery>) => useQuery(webhooksQueryOptions(query));
