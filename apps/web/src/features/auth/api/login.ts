import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginBody, LoginResponse, SelfUser } from '@app/contract';
import { api, API_PREFIX } from '@/lib/api-client';
import { useAuthStore } from '@/lib/auth-store';
import { selfInfoQueryKey } from './get-self-info';

export async function login(body: LoginBody): Promise<SelfUser | null> {
  const response = await api.post<LoginResponse>(`${API_PREFIX}/iam/login`, body);
  return response.data?.data?.user ?? null;
}

/** Signs in; the user from the answer becomes the session (self-info fills it in otherwise). */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (user) => {
      queryClient.removeQueries({ queryKey: selfInfoQueryKey });
      if (user) queryClient.setQueryData(selfInfoQueryKey, user);
      useAuthStore.getState().signIn(user);
    },
  });
}
