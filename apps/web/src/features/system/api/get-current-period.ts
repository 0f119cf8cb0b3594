import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CurrentPeriod } from '@app/contract';
import { api } from '@/lib/api-client';
import { systemKeys } from './keys';

/** GET /sys/current-period: the platform's reporting month and its next reset. */
export async function getCurrentPeriod(): Promise<CurrentPeriod> {
  const response = await api.get('/api/v1/sys/current-period');
  return response.data.data;
}

export const currentPeriodQueryOptions = () =>
  queryOptions({ queryKey: systemKeys.currentPeriod, queryFn: getCurrentPeriod });

export const useCurrentPeriod = () => useQuery(currentPeriodQueryOptions());
