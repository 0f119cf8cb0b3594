import { useMutation } from '@tanstack/react-query';
import { api, API_PREFIX } from '@/lib/api-client';

/** DELETE /users/{id}/mfa: an admin resets a user's two-factor sign-in (a lost phone). */
export async function resetUserMfa(userId: number): Promise<void> {
  await api.delete(`${API_PREFIX}/users/${encodeURIComponent(String(userId))}/mfa`);
}

export function useResetUserMfa() {
  return useMutation({ mutationFn: resetUserMfa });
}
