import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { SettlementStatement } from '@app/contract';
import { api, API_PREFIX } from '@/lib/api-client';
import { settlementsKeys } from './get-settlements';

/** GET /settlements/{merchant_id}/{period_start}: the statement and a page of its orders. */
export async function getSettlementStatement(
  merchantId: number,
  periodStart: string,
  page: number,
  pageSize: number,
): Promise<SettlementStatement> {
  const response = await api.get<SettlementStatement>(
    `${API_PREFIX}/settlements/${merchantId}/${encodeURIComponent(periodStart)}`,
    { params: { page, page_size: pageSize } },
  );
  return response.data;
}

export const settlementStatementQueryOptions = (
  merchantId: number,
  periodStart: string,
  page = 1,
  pageSize = 10,
) =>
  queryOptions({
    queryKey: settlementsKeys.statement(merchantId, periodStart, page, pageSize),
    queryFn: () => getSettlementStatement(merchantId, periodStart, page, pageSize),
    placeholderData: keepPreviousData,
    meta: { silentError: true },
  });

export const useSettlementStatement = (
  merchantId: number,
  periodStart: string,
  page = 1,
  pageSize = 10,
) => useQuery(settlementStatementQueryOptions(merchantId, periodStart, page, pageSize));
