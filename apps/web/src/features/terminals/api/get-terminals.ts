import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Terminal, TerminalListQuery } from '@app/contract';
import type { ListResult } from '@/components/data-table';
import { api } from '@/lib/api-client';

export const terminalsKeys = {
  all: ['terminals'] as const,
  list: (query: Partial<TerminalListQuery>) => ['terminals', 'list', query] as const,
};

/** GET /terminals (admin), paged; never carries a key. */
export async function getTerminals(
  query: Partial<TerminalListQuery>,
): Promise<ListResult<Terminal>> {
  const response = await api.get('/api/v1/terminals', { params: { query } });
  return response.data;
}

export const terminalsQueryOptions = (query: Partial<TerminalListQuery>) =>
  queryOptions({
    queryKey: terminalsKeys.list(query),
    queryFn: () => getTerminals(query),
    placeholderData: keepPreviousData,
    meta: { silentError: true },
  });

export const useTerminals = (query: Partial<TerminalListQuery>) =>
  useQuery(terminalsQueryOptions(query));
