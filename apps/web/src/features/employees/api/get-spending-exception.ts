import { useLateQuery } from '@/lib/late-query';
import { queryOptions } from '@/lib/query-options';
import type { SpendingException } from '@app/contract';
import { api } from '@/lib/api-client';

export const spendingExceptionKeys = {
  employee: (id: number | string) => ['spending-exception', String(id)] as const,
};

/** GET /employees/{id}/spending-exception: the employee's exception, or null. */
export async function getSpendingException(id: number | string): Promise<SpendingException | null> {
  const response = await api.get('/api/v1/employees/{id}/spending-exception', {
    params: { path: { id } },
  });
  return response.data.data;
}

export const spendingExceptionQueryOptions = (id: number | string) =>
  queryOptions({
    queryKey: spendingExceptionKeys.employee(id),
    queryFn: () => getSpendingException(id),
    refetchOnWindowFocus: false,
  });

export const useSpendingException = (id: number | string) =>
  useLateQuery({ ...spendingExceptionQueryOptions(id), meta: { silentError: true } });
