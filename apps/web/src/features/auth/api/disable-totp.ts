import { useMutation } from '@tanstack/react-query';
import type { MfaCodeBody } from '@app/contract';
import { api, API_PREFIX } from '@/lib/api-client';

/** DELETE /iam/mfa/totp { code } or { recovery_code }: turns TOTP off. */
export async function disableTotp(body: MfaCodeBody): Promise<void> {
  await api.delete(`${API_PREFIX}/iam/mfa/totp`, { body });
}

export function useDisableTotp() {
  return useMutation({ mutationFn: disableTotp, meta: { silentError: true } });
}
