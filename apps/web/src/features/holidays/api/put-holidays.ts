import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PutHolidaysBody } from '@app/contract';
import { api } from '@/lib/api-client';
import { holidaysKeys, type HolidaysYear } from './get-holidays';

/** PUT /sys/holidays (admin): the year's days, replacing every day it had. */
export async function putHolidays(body: PutHolidaysBody): Promise<HolidaysYear> {
  const response = await api.put('/api/v1/sys/holidays', { body });
  return response.data.data;
}

export function usePutHolidays() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: putHolidays,
    onSuccess: (saved) => queryClient.setQueryData(holidaysKeys.year(saved.year), saved),
  });
}
