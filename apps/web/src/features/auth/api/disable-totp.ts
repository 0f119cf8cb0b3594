import { useMutation } from '@tanstack/react-query';
import type { MfaCodeBody } from '@app/contract';
import { api } from '@/lib/api-client';

/** DELETE /iam/mfa/totp { code } or { recovery_code }: turns TOTP off. */
export async function disableTotp(body: MfaCodeBody): Promise<void> {
  await api.delete('/api/v1/iam/mfa/totp', { body });
}

export function useDisableTotp() {
  return useMutation({ mutationFn: disableTotp, meta: { silentError: true } });
}
