import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** DELETE /users/{id}/mfa: an admin resets a user's two-factor sign-in (a lost phone). */
export async function resetUserMfa(userId: number): Promise<void> {
  await api.delete('/api/v1/users/{id}/mfa', { params: { path: { id: userId } } });
}

export function useResetUserMfa() {
  return useMutation({ mutationFn: resetUserMfa });
}
