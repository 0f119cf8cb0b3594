import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { SystemPeriod, SystemPeriodListQuery } from '@app/contract';
import type { ListResult } from '@/components/data-table';
import { api } from '@/lib/api-client';
import { systemKeys } from './keys';

/** GET /sys/system-periods, newest first. */
export async function getSystemPeriods(
  query: Partial<SystemPeriodListQuery>,
): Promise<ListResult<SystemPeriod>> {
  const response = await api.get('/api/v1/sys/system-periods', { params: { query } });
  return response.data;
}

export const systemPeriodsQueryOptions = (query: Partial<SystemPeriodListQuery>) =>
  queryOptions({
    queryKey: systemKeys.periods(query),
    queryFn: () => getSystemPeriods(query),
    placeholderData: keepPreviousData,
    meta: { silentError: true },
  });

export const useSystemPeriods = (query: Partial<SystemPeriodListQuery>) =>
  useQuery(systemPeriodsQueryOptions(query));
