import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SystemResetDate, SystemResetDateBody } from '@app/contract';
import { api } from '@/lib/api-client';
import { systemKeys } from './keys';

/** PUT /sys/reset-date: the next system reset, a day after today. */
export async function updateSystemResetDate(body: SystemResetDateBody): Promise<SystemResetDate> {
  const response = await api.put('/api/v1/sys/reset-date', { body });
  return response.data.data;
}

export function useUpdateSystemResetDate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSystemResetDate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: systemKeys.all }),
  });
}
