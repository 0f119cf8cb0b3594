import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TerminalWithKey } from '@app/contract';
import { api } from '@/lib/api-client';
import { terminalsKeys } from './get-terminals';

/** POST /terminals/{id}/rotate-key: a new key, shown once; the old one stops working at once. */
export async function rotateTerminalKey(id: number): Promise<TerminalWithKey> {
  const response = await api.post('/api/v1/terminals/{id}/rotate-key', {
    params: { path: { id } },
  });
  return response.data.data;
}

export function useRotateTerminalKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rotateTerminalKey,
    gcTime: 0,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: terminalsKeys.all }),
  });
}
