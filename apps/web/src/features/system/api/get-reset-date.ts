import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ResetDate } from '@app/contract';
import { api, API_PREFIX } from '@/lib/api-client';
import { systemKeys } from './keys';

/** GET /sys/reset-date: the day the current system period ends. */
export async function getResetDate(): Promise<ResetDate> {
  const response = await api.get<{ data: ResetDate }>(`${API_PREFIX}/sys/reset-date`);
  return response.data.data;
}

export const resetDateQueryOptions = () =>
  queryOptions({ queryKey: systemKeys.resetDate, queryFn: getResetDate });

export const useResetDate = () => useQuery(resetDateQueryOptions());
