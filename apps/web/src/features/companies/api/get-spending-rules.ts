import { useLateQuery } from '@/lib/late-query';
import { queryOptions } from '@/lib/query-options';
import type { SpendingRulesView } from '@app/contract';
import { api } from '@/lib/api-client';

export const spendingRulesKeys = {
  all: ['spending-rules'] as const,
  company: (id: number | string) => ['spending-rules', String(id)] as const,
};

/** GET /companies/{id}/spending-rules: the version in force today, the later ones, the earlier. */
export async function getSpendingRules(id: number | string): Promise<SpendingRulesView> {
  const response = await api.get('/api/v1/companies/{id}/spending-rules', {
    params: { path: { id } },
  });
  return response.data.data;
}

export const spendingRulesQueryOptions = (id: number | string) =>
  queryOptions({
    queryKey: spendingRulesKeys.company(id),
    queryFn: () => getSpendingRules(id),
    refetchOnWindowFocus: false,
  });

export const useSpendingRules = (id: number | string) =>
  useLateQuery({ ...spendingRulesQueryOptions(id), meta: { silentError: true } });
