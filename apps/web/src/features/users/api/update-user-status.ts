import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ManagedUser, Status } from '@app/contract';
import { api } from '@/lib/api-client';
import { usersKeys } from './get-users';

/** PATCH /users/{id}/status */
export async function updateUserStatus({
  id,
  status,
}: {
  id: number;
  status: Status;
}): Promise<ManagedUser> {
  const response = await api.patch('/api/v1/users/{id}/status', {
    params: { path: { id } },
    body: { status },
  });
  return response.data.data;
}

export function useUpdateUserStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUserStatus,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKeys.all }),
  });
}
