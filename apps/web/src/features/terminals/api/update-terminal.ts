import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Terminal, UpdateTerminalBody } from '@app/contract';
import { api } from '@/lib/api-client';
import { terminalsKeys } from './get-terminals';

/** PUT /terminals/{id}: name and status; code and merchant are immutable. */
export async function updateTerminal({
  id,
  body,
}: {
  id: number;
  body: UpdateTerminalBody;
}): Promise<Terminal> {
  const response = await api.put('/api/v1/terminals/{id}', { params: { path: { id } }, body });
  return response.data.data;
}

export function useUpdateTerminal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTerminal,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: terminalsKeys.all }),
  });
}
