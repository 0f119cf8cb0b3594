import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, API_PREFIX } from '@/lib/api-client';
import { terminalsKeys } from './get-terminals';

/** DELETE /terminals/{id}: hidden, and its key is refused from now on. */
export async function deleteTerminal(id: number): Promise<void> {
  await api.delete(`${API_PREFIX}/terminals/${id}`);
}

export function useDeleteTerminal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTerminal,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: terminalsKeys.all }),
  });
}
