import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, API_PREFIX } from '@/lib/api-client';
import { usersKeys } from './get-users';

/** DELETE /users/{id} */
export async function deleteUser(id: number): Promise<void> {
  await api.delete(`${API_PREFIX}/users/${id}`);
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKeys.all }),
  });
}
