import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Terminal, UpdateTerminalBody } from '@app/contract';
import { api, API_PREFIX } from '@/lib/api-client';
import { terminalsKeys } from './get-terminals';

/** PUT /terminals/{id}: name and status; code and merchant are immutable. */
export async function updateTerminal({
  id,
  body,
}: {
  id: number;
  body: UpdateTerminalBody;
}): Promise<Terminal> {
  const response = await api.put<{ data: Terminal }>(`${API_PREFIX}/terminals/${id}`, body);
  return response.data.data;
}

export function useUpdateTerminal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTerminal,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: terminalsKeys.all }),
  });
}
