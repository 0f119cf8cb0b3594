import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { terminalsKeys } from './get-terminals';

/** DELETE /terminals/{id}: hidden, and its key is refused from now on. */
export async function deleteTerminal(id: number): Promise<void> {
  await api.delete('/api/v1/terminals/{id}', { params: { path: { id } } });
}

export function useDeleteTerminal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTerminal,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: terminalsKeys.all }),
  });
}
