import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateTerminalBody, TerminalWithKey } from '@app/contract';
import { api } from '@/lib/api-client';
import { terminalsKeys } from './get-terminals';

/** POST /terminals: the answer carries the terminal's API key, this once. */
export async function createTerminal(body: CreateTerminalBody): Promise<TerminalWithKey> {
  const response = await api.post('/api/v1/terminals', { body });
  return response.data.data;
}

export function useCreateTerminal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTerminal,
    // The key must not linger in the mutation cache after the dialog shows it.
    gcTime: 0,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: terminalsKeys.all }),
  });
}
