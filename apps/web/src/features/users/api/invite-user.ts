import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Invitation, InviteUserBody } from '@app/contract';
import { api } from '@/lib/api-client';
import { usersKeys } from './get-users';

/** POST /users/invitations: the user, created without a password, and their one-time link. */
export async function inviteUser(body: InviteUserBody): Promise<Invitation> {
  const response = await api.post('/api/v1/users/invitations', { body });
  return response.data.data;
}

export function useInviteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKeys.all }),
  });
}
