import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApprovalPolicy, ApprovalPolicyBody } from '@app/contract';
import { api } from '@/lib/api-client';

const policyKey = ['approval-policy'] as const;

/** GET /sys/approval-policy (admin). */
export async function getApprovalPolicy(): Promise<ApprovalPolicy> {
  const response = await api.get('/api/v1/sys/approval-policy');
  return response.data.data;
}

export const approvalPolicyQueryOptions = () =>
  queryOptions({ queryKey: policyKey, queryFn: getApprovalPolicy, meta: { silentError: true } });

export const useApprovalPolicy = (enabled: boolean) =>
  useQuery({ ...approvalPolicyQueryOptions(), enabled });

/** PUT /sys/approval-policy (admin): both thresholds; null turns a rule off. */
export async function setApprovalPolicy(body: ApprovalPolicyBody): Promise<ApprovalPolicy> {
  const response = await api.put('/api/v1/sys/approval-policy', { body });
  return response.data.data;
}

export function useSetApprovalPolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setApprovalPolicy,
    onSuccess: (policy) => queryClient.setQueryData(policyKey, policy),
  });
}
