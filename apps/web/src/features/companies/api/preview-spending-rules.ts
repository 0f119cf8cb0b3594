import { useMutation } from '@tanstack/react-query';
import type { SpendingRules, SpendingRulesPreview } from '@app/contract';
import { api } from '@/lib/api-client';

/** POST /companies/{id}/spending-rules/preview: the candidate over the last 30 days; writes nothing. */
export async function previewSpendingRules({
  companyId,
  rules,
}: {
  companyId: number;
  rules: SpendingRules;
}): Promise<SpendingRulesPreview> {
  const response = await api.post('/api/v1/companies/{id}/spending-rules/preview', {
    params: { path: { id: companyId } },
    body: { rules },
  });
  return response.data.data;
}

export const usePreviewSpendingRules = () => useMutation({ mutationFn: previewSpendingRules });
