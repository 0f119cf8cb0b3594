import { useMutation } from '@tanstack/react-query';
import type { TotpEnrolment } from '@app/contract';
import { api } from '@/lib/api-client';

/** POST /iam/mfa/totp: a new pending secret and its otpauth:// URL (for the QR code). */
export async function startTotpEnrolment(): Promise<TotpEnrolment> {
  const response = await api.post('/api/v1/iam/mfa/totp');
  return response.data.data;
}

export function useStartTotpEnrolment() {
  return useMutation({ mutationFn: startTotpEnrolment, meta: { silentError: true } });
}
