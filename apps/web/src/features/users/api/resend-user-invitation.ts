import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Invitation } from '@app/contract';
import { api } from '@/lib/api-client';
import { usersKeys } from './get-users';

/**
 * POST /users/{id}/invitations: a fresh one-time link for a user without a password; the open
 * one stops working (409 INVITATION_NOT_PENDING once a password is set).
 */
export async function resendUserInvitation(userId: number): Promise<Invitation> {
  const response = await api.post('/api/v1/users/{id}/invitations', {
    params: { path: { id: userId } },
  });
  return response.data.data;
}

export function useResendUserInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendUserInvitation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKeys.all }),
  });
}
