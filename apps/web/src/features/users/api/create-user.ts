import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateUserBody, ManagedUser } from '@app/contract';
import { api } from '@/lib/api-client';
import { usersKeys } from './get-users';

/** POST /users */
export async function createUser(body: CreateUserBody): Promise<ManagedUser> {
  const response = await api.post('/api/v1/users', { body });
  return response.data.data;
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKeys.all }),
  });
}
