import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateCompanyAdminBody, ManagedUser } from '@app/contract';
import { api } from '@/lib/api-client';
import { companyAdminsKeys } from './get-company-admins';

/** POST /companies/admin */
export async function createCompanyAdmin(body: CreateCompanyAdminBody): Promise<ManagedUser> {
  const response = await api.post('/api/v1/companies/admin', { body });
  return response.data.data;
}

export function useCreateCompanyAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCompanyAdmin,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companyAdminsKeys.all }),
  });
}
