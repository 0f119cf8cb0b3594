import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Invitation } from '@app/contract';
import { api } from '@/lib/api-client';
import { companyAdminsKeys } from './get-company-admins';

/**
 * POST /companies/admin/{user_id}/invitations: a fresh one-time link for a company admin without
 * a password; the open one stops working.
 */
export async function resendCompanyAdminInvitation(userId: number): Promise<Invitation> {
  const response = await api.post('/api/v1/companies/admin/{user_id}/invitations', {
    params: { path: { user_id: userId } },
  });
  return response.data.data;
}

export function useResendCompanyAdminInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendCompanyAdminInvitation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companyAdminsKeys.all }),
  });
}
