import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DistributeBody, DistributeResult } from '@app/contract';
import { api, API_PREFIX } from '@/lib/api-client';
import { employeesKeys } from './get-employees';

/** POST /tokens/topup-token/employees: from the company's balance to employees, all or nothing. */
export async function rewardTokens(body: DistributeBody): Promise<DistributeResult> {
  const response = await api.post<{ data: DistributeResult }>(
    `${API_PREFIX}/tokens/topup-token/employees`,
    body,
  );
  return response.data.data;
}

export function useRewardTokens() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rewardTokens,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: employeesKeys.all });
      await queryClient.invalidateQueries({ queryKey: ['company-details'] });
    },
  });
}
