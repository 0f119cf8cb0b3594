import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { spendingRulesKeys } from './get-spending-rules';

/** DELETE /companies/{id}/spending-rules/{effective_from}: withdraws a scheduled version. */
export async function withdrawSpendingRules({
  companyId,
  effectiveFrom,
}: {
  companyId: number;
  effectiveFrom: string;
}): Promise<void> {
  await api.delete('/api/v1/companies/{id}/spending-rules/{effective_from}', {
    params: { path: { id: companyId, effective_from: effectiveFrom } },
  });
}

export function useWithdrawSpendingRules() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: withdrawSpendingRules,
    onSuccess: async (_, { companyId }) => {
      await queryClient.invalidateQueries({ queryKey: spendingRulesKeys.company(companyId) });
    },
  });
}
