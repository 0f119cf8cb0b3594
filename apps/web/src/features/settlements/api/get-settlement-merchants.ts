import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SettlementMerchant } from '@app/contract';
import type { Option } from '@/components/data-table';
import { api } from '@/lib/api-client';
import { settlementsKeys } from './get-settlements';

/** GET /settlements/merchants: the merchants whose statements the caller may read. */
export async function getSettlementMerchants(): Promise<SettlementMerchant[]> {
  const response = await api.get('/api/v1/settlements/merchants');
  return response.data.data;
}

/** The merchant filter's choices: 'Campus Shop (SHOP)'. */
export function useSettlementMerchantOptions({ enabled = true } = {}): Option[] {
  return (
    useQuery(
      queryOptions({
        queryKey: settlementsKeys.merchants,
        queryFn: getSettlementMerchants,
        staleTime: 60_000,
        enabled,
      }),
    ).data?.map((m) => ({ value: String(m.id), label: `${m.name} (${m.code})` })) ?? []
  );
}
