import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Company, Status } from '@app/contract';
import { api } from '@/lib/api-client';
import { companiesKeys } from './get-companies';

/** PATCH /companies/{id}/status */
export async function updateCompanyStatus({
  id,
  status,
}: {
  id: number;
  status: Status;
}): Promise<Company> {
  const response = await api.patch('/api/v1/companies/{id}/status', {
    params: { path: { id } },
    body: { status },
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
