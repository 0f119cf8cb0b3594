import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ManagedUser, UpdateCompanyAdminBody } from '@app/contract';
import { api, API_PREFIX } from '@/lib/api-client';
import { companyAdminsKeys } from './get-company-admins';

/** PUT /companies/admin/{user_id}: an empty password keeps the current one. */
export async function updateCompanyAdmin({
  userId,
  body,
}: {
  userId: number;
  body: UpdateCompanyAdminBody;
}): Promise<ManagedUser> {
  const response = await api.put<{ data: ManagedUser }>(
    `${API_PREFIX}/companies/admin/${userId}`,
    body,
  );
  return response.data.data;
}

export function useUpdateCompanyAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCompanyAdmin,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companyAdminsKeys.all }),
  });
}
