import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Merchant } from '@app/contract';
import type { Option } from '@/components/data-table';
import { fetchAllPages } from '@/lib/fetch-all';
import { getMerchants, merchantsKeys } from './get-merchants';

/** A merchant as a choice in a filter or a select: 'Campus Shop (SHOP)'. */
export const merchantOption = (merchant: Pick<Merchant, 'id' | 'name' | 'code'>): Option => ({
  value: String(merchant.id),
  label: `${merchant.name} (${merchant.code})`,
});

/** Every merchant, for filters and selects on other screens (composed by their routes). */
export const merchantOptionsQueryOptions = (enabled = true) =>
  queryOptions({
    queryKey: merchantsKeys.options,
    queryFn: async () => (await fetchAllPages(getMerchants)).map(merchantOption),
    staleTime: 60_000,
    enabled,
  });

export function useMerchantOptions({ enabled = true }: { enabled?: boolean } = {}): Option[] {
  return useQuery(merchantOptionsQueryOptions(enabled)).data ?? [];
}
