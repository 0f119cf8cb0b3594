import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ManagedUser, UpdateCompanyAdminBody } from '@app/contract';
import { api } from '@/lib/api-client';
import { companyAdminsKeys } from './get-company-admins';

/** PUT /companies/admin/{user_id}: an empty password keeps the current one. */
export async function updateCompanyAdmin({
  userId,
  body,
}: {
  userId: number;
  body: UpdateCompanyAdminBody;
}): Promise<ManagedUser> {
  const response = await api.put('/api/v1/companies/admin/{user_id}', {
    params: { path: { user_id: userId } },
    body,
  });
  return response.data.data;
}

export function useUpdateCompanyAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCompanyAdmin,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companyAdminsKeys.all }),
  });
}
