import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Approval, ApproveApprovalBody } from '@app/contract';
import { api } from '@/lib/api-client';
import { approvalsKeys } from './get-approvals';

/**
 * POST /approvals/{id}/approve: applied now, with the balances of this moment. When payees were
 * renumbered or renamed since the request, `confirm_payees` names each as the approver saw it now
 * (decision 0069); without it the server answers 409 APPROVAL_PAYEE_CHANGED.
 */
export async function approveApproval({
  id,
  confirm_payees,
  idempotencyKey,
}: { id: number; idempotencyKey: string } & ApproveApprovalBody): Promise<Approval> {
  const response = await api.post('/api/v1/approvals/{id}/approve', {
    params: { path: { id }, header: { 'idempotency-key': idempotencyKey } },
    body: confirm_payees ? { confirm_payees } : undefined,
  });
  return response.data.data;
}

/** POST /approvals/{id}/reject { reason }. */
export async function rejectApproval({
  id,
  reason,
  idempotencyKey,
}: {
  id: number;
  reason: string;
  idempotencyKey: string;
}): Promise<Approval> {
  const response = await api.post('/api/v1/approvals/{id}/reject', {
    params: { path: { id }, header: { 'idempotency-key': idempotencyKey } },
    body: { reason },
  });
  return response.data.data;
}

/** After a decision: the lists, the badge, and the balances an approval moved. */
function useAfterDecision() {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: approvalsKeys.all });
    await queryClient.invalidateQueries({ queryKey: ['companies'] });
    await queryClient.invalidateQueries({ queryKey: ['company-details'] });
    await queryClient.invalidateQueries({ queryKey: ['employees'] });
  };
}

export function useApproveApproval() {
  const afterDecision = useAfterDecision();
  return useMutation({ mutationFn: approveApproval, onSettled: afterDecision });
}

export function useRejectApproval() {
  const afterDecision = useAfterDecision();
  return useMutation({ mutationFn: rejectApproval, onSettled: afterDecision });
}
