import { useMutation, useQuery } from '@tanstack/react-query';
import type { AcceptInvitationBody, InvitationInfo } from '@app/contract';
import { api } from '@/lib/api-client';

/** POST /iam/invitations/lookup: whose open link this is (410 INVITATION_INVALID otherwise). */
export async function lookUpInvitation(token: string): Promise<InvitationInfo> {
  const response = await api.post('/api/v1/iam/invitations/lookup', { body: { token } });
  return response.data.data;
}

export const useInvitation = (token: string) =>
  useQuery({
    queryKey: ['invitation', token],
    queryFn: () => lookUpInvitation(token),
    enabled: token !== '',
    retry: false,
    meta: { silentError: true },
  });

/** POST /iam/invitations/accept: sets the password and spends the link. */
export async function acceptInvitation(body: AcceptInvitationBody): Promise<InvitationInfo> {
  const response = await api.post('/api/v1/iam/invitations/accept', { body });
  return response.data.data;
}

export const useAcceptInvitation = () =>
  useMutation({ mutationFn: acceptInvitation, meta: { silentError: true } });
