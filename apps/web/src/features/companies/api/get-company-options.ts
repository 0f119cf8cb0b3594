import { useLateQuery } from '@/lib/late-query';
import { queryOptions } from '@/lib/query-options';
import type { Option } from '@/components/data-table';
import { fetchAllPages } from '@/lib/fetch-all';
import { companiesKeys, getCompanies } from './get-companies';

/** Every company as a filter or select choice, 'Acme Corporation (ACME)', for other screens. */
export const companyOptionsQueryOptions = (enabled = true) =>
  queryOptions({
    queryKey: companiesKeys.options,
    queryFn: async () =>
      (await fetchAllPages(getCompanies)).map((company): Option => ({
        value: String(company.id),
        label: `${company.name} (${company.code})`,
      })),
    staleTime: 60_000,
    enabled,
  });

export function useCompanyOptions({ enabled = true }: { enabled?: boolean } = {}): Option[] {
  return useLateQuery(companyOptionsQueryOptions(enabled)).data ?? [];
}
