import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Approval, DistributeBody, DistributeResult } from '@app/contract';
import { api } from '@/lib/api-client';
import { employeesKeys } from './get-employees';

/** Distributed now (200), or at or above the approval threshold sent for approval (202). */
export type RewardTokensOutcome = { applied: DistributeResult } | { approval: Approval };

/**
 * POST /tokens/topup-token/employees: from the company's balance to employees, all or nothing,
 * under the dialog's Idempotency-Key (decision 0068).
 */
export async function rewardTokens({
  idempotencyKey,
  ...body
}: DistributeBody & { idempotencyKey: string }): Promise<RewardTokensOutcome> {
  const response = await api.post('/api/v1/tokens/topup-token/employees', {
    params: { header: { 'idempotency-key': idempotencyKey } },
    body,
  });
  const { data } = response.data;
  return response.status === 202 && 'approval' in data
    ? { approval: data.approval }
    : { applied: data as DistributeResult };
}

export function useRewardTokens() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rewardTokens,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: employeesKeys.all });
      await queryClient.invalidateQueries({ queryKey: ['company-details'] });
      // The Approvals screen and the sidebar's pending count (decision 0039).
      await queryClient.invalidateQueries({ queryKey: ['approvals'] });
    },
  });
}
