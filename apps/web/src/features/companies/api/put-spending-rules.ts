import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PutSpendingRulesBody, SpendingRulesView } from '@app/contract';
import { api } from '@/lib/api-client';
import { spendingRulesKeys } from './get-spending-rules';

/** PUT /companies/{id}/spending-rules: a version from `effective_from`; moves no money. */
export async function putSpendingRules({
  companyId,
  body,
}: {
  companyId: number;
  body: PutSpendingRulesBody;
}): Promise<SpendingRulesView> {
  const response = await api.put('/api/v1/companies/{id}/spending-rules', {
    params: { path: { id: companyId } },
    body,
  });
  return response.data.data;
}

export function usePutSpendingRules() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: putSpendingRules,
    onSuccess: (view, { companyId }) => {
      queryClient.setQueryData(spendingRulesKeys.company(companyId), view);
    },
  });
}
