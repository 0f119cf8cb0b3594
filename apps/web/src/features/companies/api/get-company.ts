import { useLateQuery } from '@/lib/late-query';
import { queryOptions } from '@/lib/query-options';
import type { Company } from '@app/contract';
import { api } from '@/lib/api-client';

export async function getCompany(id: string): Promise<Company> {
  const response = await api.get('/api/v1/companies/{id}', { params: { path: { id } } });
  return response.data.data;
}

/** Spec 7: cached as `company-details`, no refetch on focus, only with an id. */
export const companyDetailsQueryOptions = (id: string | undefined) =>
  queryOptions({
    queryKey: ['company-details', id],
    queryFn: () => getCompany(id ?? ''),
    enabled: Boolean(id),
    refetchOnWindowFocus: false,
  });

export function useCompanyDetails(id: string | undefined, options: { silentError?: boolean } = {}) {
  return useLateQuery({
    ...companyDetailsQueryOptions(id),
    meta: { silentError: options.silentError },
  });
}
