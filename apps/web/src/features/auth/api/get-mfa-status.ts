import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MfaStatus } from '@app/contract';
import { api } from '@/lib/api-client';

export const mfaStatusQueryKey = ['iam', 'mfa'] as const;

/** GET /iam/mfa: whether TOTP is on, whether the role must enrol, recovery codes left. */
export async function getMfaStatus(): Promise<MfaStatus> {
  const response = await api.get('/api/v1/iam/mfa');
  return response.data.data;
}

export const mfaStatusQueryOptions = () =>
  queryOptions({ queryKey: mfaStatusQueryKey, queryFn: getMfaStatus });

export function useMfaStatus() {
  return useQuery(mfaStatusQueryOptions());
}
