import { useLateQuery } from '@/lib/late-query';
import { keepPreviousData, queryOptions } from '@/lib/query-options';
import type { Company, CompanyListQuery } from '@app/contract';
import type { ListResult } from '@/components/data-table';
import { api } from '@/lib/api-client';

export const companiesKeys = {
  all: ['companies'] as const,
  list: (query: Partial<CompanyListQuery>) => ['companies', 'list', query] as const,
  options: ['companies', 'options'] as const,
};

/** GET /companies: the companies within the caller's scope, paged. */
export async function getCompanies(query: Partial<CompanyListQuery>): Promise<ListResult<Company>> {
  const response = await api.get('/api/v1/companies', { params: { query } });
  return response.data;
}

export const companiesQueryOptions = (query: Partial<CompanyListQuery>) =>
  queryOptions({
    queryKey: companiesKeys.list(query),
    queryFn: () => getCompanies(query),
    placeholderData: keepPreviousData,
    meta: { silentError: true },
  });

export const useCompanies = (query: Partial<CompanyListQuery>) =>
  useLateQuery(companiesQueryOptions(query));
