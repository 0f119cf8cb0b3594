import { useLateQuery } from '@/lib/late-query';
import { keepPreviousData, queryOptions } from '@/lib/query-options';
import { paths } from '@/config/paths';
import type { SettlementStatement } from '@app/contract';
import { api } from '@/lib/api-client';
import type { PageSize } from '@/components/data-table';
import { periodLabel } from '../components/period-label';
import { settlementsKeys } from './get-settlements';

/** GET /settlements/{merchant_id}/{period_start}: the statement and a page of its orders. */
export async function getSettlementStatement(
  merchantId: number,
  periodStart: string,
  page: number,
  pageSize: PageSize,
): Promise<SettlementStatement> {
  const response = await api.get('/api/v1/settlements/{merchant_id}/{period_start}', {
    params: {
      path: { merchant_id: merchantId, period_start: periodStart },
      query: { page, page_size: pageSize },
    },
  });
  return response.data;
}

export const settlementStatementQueryOptions = (
  merchantId: number,
  periodStart: string,
  page = 1,
  pageSize: PageSize = 10,
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
  pageSize: PageSize = 10,
) => useLateQuery(settlementStatementQueryOptions(merchantId, periodStart, page, pageSize));

/**
 * The breadcrumb's words for a statement's address (the layout composes it): the merchant's code
 * instead of its id, the period instead of its first day; from the statement the page reads.
 */
export function useStatementCrumbs(
  merchantId: string | undefined,
  periodStart: string | undefined,
): Record<string, string> | undefined {
  const id = Number(merchantId);
  const isStatement = Number.isSafeInteger(id) && id > 0 && periodStart !== undefined;
  const { data } = useLateQuery({
    ...settlementStatementQueryOptions(isStatement ? id : 0, periodStart ?? ''),
    enabled: isStatement,
  });
  if (!isStatement) return undefined;
  const statement = data?.data.statement;
  return {
    [paths.settlementMerchant.getHref(id)]: statement?.merchant_code ?? String(id),
    [paths.settlementStatement.getHref(id, periodStart)]: statement
      ? periodLabel(statement)
      : periodStart,
  };
}
