import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Status, Terminal } from '@app/contract';
import { api } from '@/lib/api-client';
import { terminalsKeys } from './get-terminals';

/** PATCH /terminals/{id}/status: an inactive terminal's orders are refused. */
export async function updateTerminalStatus({
  id,
  status,
}: {
  id: number;
  status: Status;
}): Promise<Terminal> {
  const response = await api.patch('/api/v1/terminals/{id}/status', {
    params: { path: { id } },
    body: { status },
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
