import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Company, Status } from '@app/contract';
import { api, API_PREFIX } from '@/lib/api-client';
import { companiesKeys } from './get-companies';

/** PATCH /companies/{id}/status */
export async function updateCompanyStatus({
  id,
  status,
}: {
  id: number;
  status: Status;
}): Promise<Company> {
  const response = await api.patch<{ data: Company }>(`${API_PREFIX}/companies/${id}/status`, {
    status,
  });
  return response.data.data;
}

export function useUpdateCompanyStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCompanyStatus,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: companiesKeys.all });
      await queryClient.invalidateQueries({ queryKey: ['company-details'] });
    },
  });
}
