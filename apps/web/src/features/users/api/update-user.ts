import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ManagedUser, UpdateUserBody } from '@app/contract';
import { api, API_PREFIX } from '@/lib/api-client';
import { usersKeys } from './get-users';

/** PUT /users/{id}: an empty password keeps the current one. */
export async function updateUser({
  id,
  body,
}: {
  id: number;
  body: UpdateUserBody;
}): Promise<ManagedUser> {
  const response = await api.put<{ data: ManagedUser }>(`${API_PREFIX}/users/${id}`, body);
  return response.data.data;
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKeys.all }),
  });
}
