import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Company, UpdateCompanyBody } from '@app/contract';
import { api } from '@/lib/api-client';
import { companiesKeys } from './get-companies';

/** PUT /companies/{id}: name, status, reset day and monthly plan; the code is immutable. */
export async function updateCompany({
  id,
  body,
}: {
  id: number;
  body: UpdateCompanyBody;
}): Promise<Company> {
  const response = await api.put('/api/v1/companies/{id}', { params: { path: { id } }, body });
  return response.data.data;
}

export function useUpdateCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCompany,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: companiesKeys.all });
      await queryClient.invalidateQueries({ queryKey: ['company-details'] });
    },
  });
}
