import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ManagedUser, UpdateUserBody } from '@app/contract';
import { api } from '@/lib/api-client';
import { usersKeys } from './get-users';

/** PUT /users/{id}: an empty password keeps the current one. */
export async function updateUser({
  id,
  body,
}: {
  id: number;
  body: UpdateUserBody;
}): Promise<ManagedUser> {
  const response = await api.put('/api/v1/users/{id}', { params: { path: { id } }, body });
  return response.data.data;
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKeys.all }),
  });
}
