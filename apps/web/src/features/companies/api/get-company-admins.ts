import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { CompanyAdminListQuery, ManagedUser } from '@app/contract';
import type { ListResult } from '@/components/data-table';
import { api } from '@/lib/api-client';

export const companyAdminsKeys = {
  all: ['company-admins'] as const,
  list: (query: Partial<CompanyAdminListQuery>) => ['company-admins', 'list', query] as const,
};

/** GET /companies/admin: company admins, here of one company. */
export async function getCompanyAdmins(
  query: Partial<CompanyAdminListQuery>,
): Promise<ListResult<ManagedUser>> {
  const response = await api.get('/api/v1/companies/admin', { params: { query } });
  return response.data;
}

export const companyAdminsQueryOptions = (query: Partial<CompanyAdminListQuery>) =>
  queryOptions({
    queryKey: companyAdminsKeys.list(query),
    queryFn: () => getCompanyAdmins(query),
    placeholderData: keepPreviousData,
    meta: { silentError: true },
  });

export const useCompanyAdmins = (query: Partial<CompanyAdminListQuery>) =>
  useQuery(companyAdminsQueryOptions(query));
