import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ManagedUser, Status } from '@app/contract';
import { api, API_PREFIX } from '@/lib/api-client';
import { companyAdminsKeys } from './get-company-admins';

/** PATCH /companies/admin/{user_id}/status */
export async function updateCompanyAdminStatus({
  userId,
  status,
}: {
  userId: number;
  status: Status;
}): Promise<ManagedUser> {
  const response = await api.patch<{ data: ManagedUser }>(
    `${API_PREFIX}/companies/admin/${userId}/status`,
    { status },
  );
  return response.data.data;
}

export function useUpdateCompanyAdminStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCompanyAdminStatus,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companyAdminsKeys.all }),
  });
}
