import { useCallback, useEffect, useRef, useState } from 'react';
import type { LoginBody, SelfUser } from '@app/contract';
import { api } from '@/lib/api-client';
import { toApiError, type ApiError } from '@/lib/api-error';
import { useAuthStore } from '@/lib/auth-store';
import { selfInfoQueryKey } from './self-info-key';

/** A password step's answer: signed in (the user, when sent), or a second step is due. */
export type LoginResult = { mfaRequired: true } | { mfaRequired: false; user: SelfUser | null };

export async function login(body: LoginBody): Promise<LoginResult> {
  const response = await api.post('/api/v1/iam/login', { body });
  const data = response.data?.data;
  if (data && 'mfa_required' in data && data.mfa_required) return { mfaRequired: true };
  return { mfaRequired: false, user: data && 'user' in data ? data.user : null };
}

/**
 * The signed-in user becomes the session (self-info fills it in otherwise). The query client is
 * loaded here, not with the sign-in page (decision 0044): the signed-in screens need it next.
 */
export async function acceptSignIn(user: SelfUser | null): Promise<void> {
  const { queryClient } = await import('@/lib/query-client');
  queryClient.removeQueries({ queryKey: selfInfoQueryKey });
  if (user) queryClient.setQueryData(selfInfoQueryKey, user);
  useAuthStore.getState().signIn(user);
}

interface Handlers<TResult> {
  onSuccess?: (result: TResult) => void;
  onError?: (error: ApiError) => void;
}

/**
 * One sign-in step's call, as TanStack Query's `useMutation` served it (`mutate` with its
 * handlers, `isPending`), without the query library on the sign-in page (decision 0044). Errors
 * go to the form's handlers only, never to a toast. `settle` runs before the handlers (the
 * mutation's own `onSuccess` did).
 */
export function useSignInStep<TBody, TResult>(
  call: (body: TBody) => Promise<TResult>,
  settle: (result: TResult) => Promise<void>,
) {
  const [isPending, setPending] = useState(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const mutate = useCallback(
    (body: TBody, handlers: Handlers<TResult> = {}) => {
      setPending(true);
      // The query client is fetched beside the request, not after it.
      void import('@/lib/query-client');
      call(body)
        .then(async (result) => {
          await settle(result);
          if (mounted.current) setPending(false);
          handlers.onSuccess?.(result);
        })
        .catch((error: unknown) => {
          if (mounted.current) setPending(false);
          handlers.onError?.(toApiError(error));
        });
    },
    [call, settle],
  );
  return { mutate, isPending };
}

const acceptUnlessSecondStep = async (result: LoginResult) => {
  if (!result.mfaRequired) await acceptSignIn(result.user);
};

/** Signs in; with TOTP on, the answer asks for the second step and nothing is granted yet. */
export function useLogin() {
  return useSignInStep(login, acceptUnlessSecondStep);
}
