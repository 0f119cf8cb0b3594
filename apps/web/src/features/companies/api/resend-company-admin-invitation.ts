import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Invitation } from '@app/contract';
import { api, API_PREFIX } from '@/lib/api-client';
import { companyAdminsKeys } from './get-company-admins';

/**
 * POST /companies/admin/{user_id}/invitations: a fresh one-time link for a company admin without
 * a password; the open one stops working.
 */
export async function resendCompanyAdminInvitation(userId: number): Promise<Invitation> {
  const response = await api.post<{ data: Invitation }>(
    `${API_PREFIX}/companies/admin/${userId}/invitations`,
  );
  return response.data.data;
}

export function useResendCompanyAdminInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendCompanyAdminInvitation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companyAdminsKeys.all }),
  });
}
