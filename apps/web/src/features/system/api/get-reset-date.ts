import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SystemResetDate } from '@app/contract';
import { api } from '@/lib/api-client';
import { systemKeys } from './keys';

/** GET /sys/reset-date: the day the current system period ends. */
export async function getSystemResetDate(): Promise<SystemResetDate> {
  const response = await api.get('/api/v1/sys/reset-date');
  return response.data.data;
}

export const systemResetDateQueryOptions = () =>
  queryOptions({ queryKey: systemKeys.resetDate, queryFn: getSystemResetDate });

export const useSystemResetDate = () => useQuery(systemResetDateQueryOptions());
