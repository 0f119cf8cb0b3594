import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TopupCompanyBody, TopupCompanyResult } from '@app/contract';
import { api, API_PREFIX } from '@/lib/api-client';
import { companiesKeys } from './get-companies';

/** POST /tokens/topup-token: an admin issues tokens to a company (company_issued). */
export async function issueTokens(body: TopupCompanyBody): Promise<TopupCompanyResult> {
  const response = await api.post<{ data: TopupCompanyResult }>(
    `${API_PREFIX}/tokens/topup-token`,
    body,
  );
  return response.data.data;
}

export function useIssueTokens() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: issueTokens,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: companiesKeys.all });
      await queryClient.invalidateQueries({ queryKey: ['company-details'] });
    },
  });
}
