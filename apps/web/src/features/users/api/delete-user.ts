import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { usersKeys } from './get-users';

/** DELETE /users/{id} */
export async function deleteUser(id: number): Promise<void> {
  await api.delete('/api/v1/users/{id}', { params: { path: { id } } });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKeys.all }),
  });
}
