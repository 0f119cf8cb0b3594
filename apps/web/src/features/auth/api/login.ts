import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginBody, LoginResponse, SelfUser } from '@app/contract';
import { api, API_PREFIX } from '@/lib/api-client';
import { useAuthStore } from '@/lib/auth-store';
import { selfInfoQueryKey } from './get-self-info';

/** A password step's answer: signed in (the user, when sent), or a second step is due. */
export type LoginResult = { mfaRequired: true } | { mfaRequired: false; user: SelfUser | null };

export async function login(body: LoginBody): Promise<LoginResult> {
  const response = await api.post<LoginResponse>(`${API_PREFIX}/iam/login`, body);
  const data = response.data?.data;
  if (data && 'mfa_required' in data && data.mfa_required) return { mfaRequired: true };
  return { mfaRequired: false, user: data && 'user' in data ? data.user : null };
}

/** The signed-in user becomes the session (self-info fills it in otherwise). */
export function useAcceptSignIn() {
  const queryClient = useQueryClient();
  return (user: SelfUser | null) => {
    queryClient.removeQueries({ queryKey: selfInfoQueryKey });
    if (user) queryClient.setQueryData(selfInfoQueryKey, user);
    useAuthStore.getState().signIn(user);
  };
}

/** Signs in; with TOTP on, the answer asks for the second step and nothing is granted yet. */
export function useLogin() {
  const accept = useAcceptSignIn();
  return useMutation({
    mutationFn: login,
    // The form shows every refusal itself, at its fields (issue 19 item 5), not as a toast.
    meta: { silentError: true },
    onSuccess: (result) => {
      if (!result.mfaRequired) accept(result.user);
    },
  });
}
