import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** DELETE /users/{id}/sign-in-throttle: an admin lets a user held back by failed sign-ins in. */
export async function clearSignInThrottle(userId: number): Promise<void> {
  await api.delete('/api/v1/users/{id}/sign-in-throttle', { params: { path: { id: userId } } });
}

export function useClearSignInThrottle() {
  return useMutation({ mutationFn: clearSignInThrottle });
}
