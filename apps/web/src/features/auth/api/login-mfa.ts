import type { MfaCodeBody, SelfUser } from '@app/contract';
import { api } from '@/lib/api-client';
import { acceptSignIn, useSignInStep } from './login';

/** POST /iam/login/mfa: the second step (a code or a recovery code) completes the sign-in. */
export async function loginMfa(body: MfaCodeBody): Promise<SelfUser | null> {
  const response = await api.post('/api/v1/iam/login/mfa', { body });
  const data = response.data?.data;
  return data && 'user' in data ? data.user : null;
}

/** Errors are shown inline by the form, so no toast. */
export function useLoginMfa() {
  return useSignInStep(loginMfa, acceptSignIn);
}
