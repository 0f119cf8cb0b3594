import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Status, Terminal } from '@app/contract';
import { api, API_PREFIX } from '@/lib/api-client';
import { terminalsKeys } from './get-terminals';

/** PATCH /terminals/{id}/status: an inactive terminal's orders are refused. */
export async function updateTerminalStatus({
  id,
  status,
}: {
  id: number;
  status: Status;
}): Promise<Terminal> {
  const response = await api.patch<{ data: Terminal }>(`${API_PREFIX}/terminals/${id}/status`, {
    status,
  });
  return response.data.data;
}

export function useUpdateTerminalStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTerminalStatus,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: terminalsKeys.all }),
  });
}
