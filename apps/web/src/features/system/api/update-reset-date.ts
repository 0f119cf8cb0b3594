import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ResetDate, ResetDateBody } from '@app/contract';
import { api, API_PREFIX } from '@/lib/api-client';
import { systemKeys } from './keys';

/** PUT /sys/reset-date: the next system reset, a day after today. */
export async function updateResetDate(body: ResetDateBody): Promise<ResetDate> {
  const response = await api.put<{ data: ResetDate }>(`${API_PREFIX}/sys/reset-date`, body);
  return response.data.data;
}

export function useUpdateResetDate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateResetDate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: systemKeys.all }),
  });
}
