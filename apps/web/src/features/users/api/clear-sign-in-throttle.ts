import { useMutation } from '@tanstack/react-query';
import { api, API_PREFIX } from '@/lib/api-client';

/** DELETE /users/{id}/sign-in-throttle: an admin lets a user held back by failed sign-ins in. */
export async function clearSignInThrottle(userId: number): Promise<void> {
  await api.delete(`${API_PREFIX}/users/${encodeURIComponent(String(userId))}/sign-in-throttle`);
}

export function useClearSignInThrottle() {
  return useMutation({ mutationFn: clearSignInThrottle });
}
