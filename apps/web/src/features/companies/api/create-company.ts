import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Company, CreateCompanyBody } from '@app/contract';
import { api } from '@/lib/api-client';
import { companiesKeys } from './get-companies';

/** POST /companies: its init_token is credited for its first token month. */
export async function createCompany(body: CreateCompanyBody): Promise<Company> {
  const response = await api.post('/api/v1/companies', { body });
  return response.data.data;
}

export function useCreateCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCompany,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companiesKeys.all }),
  });
}
