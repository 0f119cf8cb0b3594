import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ManagedUser, Status } from '@app/contract';
import { api } from '@/lib/api-client';
import { companyAdminsKeys } from './get-company-admins';

/** PATCH /companies/admin/{user_id}/status */
export async function updateCompanyAdminStatus({
  userId,
  status,
}: {
  userId: number;
  status: Status;
}): Promise<ManagedUser> {
  const response = await api.patch('/api/v1/companies/admin/{user_id}/status', {
    params: { path: { user_id: userId } },
    body: { status },
  });
  return response.data.data;
}

export function useUpdateCompanyAdminStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCompanyAdminStatus,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companyAdminsKeys.all }),
  });
}
