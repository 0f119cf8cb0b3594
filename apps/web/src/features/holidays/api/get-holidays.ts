import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Holiday } from '@app/contract';
import { api } from '@/lib/api-client';

export interface HolidaysYear {
  year: number;
  days: Holiday[];
}

export const holidaysKeys = {
  all: ['holidays'] as const,
  year: (year: number) => ['holidays', year] as const,
};

/** GET /sys/holidays?year=: the public holidays of a year, in date order. */
export async function getHolidays(year: number): Promise<HolidaysYear> {
  const response = await api.get('/api/v1/sys/holidays', { params: { query: { year } } });
  return response.data.data;
}

export const holidaysQueryOptions = (year: number) =>
  queryOptions({
    queryKey: holidaysKeys.year(year),
    queryFn: () => getHolidays(year),
    meta: { silentError: true },
  });

export const useHolidays = (year: number) => useQuery(holidaysQueryOptions(year));
