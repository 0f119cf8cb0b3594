import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SelfUser, TotpVerifyBody } from '@app/contract';
import { api } from '@/lib/api-client';
import { useAuthStore } from '@/lib/auth-store';
import { mfaStatusQueryKey } from './get-mfa-status';
import { selfInfoQueryKey } from './get-self-info';

/** POST /iam/mfa/totp/verify: the first right code turns TOTP on; ten recovery codes, once. */
export async function verifyTotpEnrolment(body: TotpVerifyBody): Promise<string[]> {
  const response = await api.post('/api/v1/iam/mfa/totp/verify', { body });
  return response.data.data.recovery_codes;
}

/** The signed-in user's second-factor state changed: update it everywhere it is shown. */
export function useSetMfaEnabled() {
  const queryClient = useQueryClient();
  return (isEnabled: boolean) => {
    const user = useAuthStore.getState().user;
    if (user) {
      // Turning TOTP on lifts the enrolment gate; turning it off may bring it back (self-info says).
      const next: SelfUser = {
        ...user,
        mfa_enabled: isEnabled,
        mfa_enrolment_required: isEnabled ? false : user.mfa_enrolment_required,
      };
      useAuthStore.getState().setUser(next);
      queryClient.setQueryData(selfInfoQueryKey, next);
    }
    void queryClient.invalidateQueries({ queryKey: mfaStatusQueryKey });
    if (!isEnabled) void queryClient.invalidateQueries({ queryKey: selfInfoQueryKey });
  };
}

export function useVerifyTotpEnrolment() {
  return useMutation({ mutationFn: verifyTotpEnrolment, meta: { silentError: true } });
}
