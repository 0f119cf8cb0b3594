import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Approval, TopupCompanyBody, TopupCompanyResult } from '@app/contract';
import { api } from '@/lib/api-client';
import { companiesKeys } from './get-companies';

/** Issued now (200), or at or above the approval threshold sent for approval (202). */
export type IssueTokensOutcome = { applied: TopupCompanyResult } | { approval: Approval };

/**
 * POST /tokens/topup-token: an admin issues tokens to a company (company_issued), under the
 * dialog's Idempotency-Key: a repeat of the same key gets the first answer (decision 0068).
 */
export async function issueTokens({
  idempotencyKey,
  ...body
}: TopupCompanyBody & { idempotencyKey: string }): Promise<IssueTokensOutcome> {
  const response = await api.post('/api/v1/tokens/topup-token', {
    params: { header: { 'idempotency-key': idempotencyKey } },
    body,
  });
  const { data } = response.data;
  return response.status === 202 && 'approval' in data
    ? { approval: data.approval }
    : { applied: data as TopupCompanyResult };
}

export function useIssueTokens() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: issueTokens,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: companiesKeys.all });
      await queryClient.invalidateQueries({ queryKey: ['company-details'] });
      // The Approvals screen and the sidebar's pending count (decision 0039).
      await queryClient.invalidateQueries({ queryKey: ['approvals'] });
    },
  });
}
