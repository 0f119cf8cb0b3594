import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Invitation, InviteCompanyAdminBody } from '@app/contract';
import { api } from '@/lib/api-client';
import { companyAdminsKeys } from './get-company-admins';

/** POST /companies/admin/invitations: the admin, created without a password, and their link. */
export async function inviteCompanyAdmin(body: InviteCompanyAdminBody): Promise<Invitation> {
  const response = await api.post('/api/v1/companies/admin/invitations', { body });
  return response.data.data;
}

export function useInviteCompanyAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteCompanyAdmin,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: companyAdminsKeys.all });
      await queryClient.invalidateQueries({ queryKey: ['companies'] });
    },
  });
}
