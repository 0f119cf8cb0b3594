import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateScimTokenBody, ScimRequest, ScimToken, ScimTokenCreated } from '@app/contract';
import { api } from '@/lib/api-client';

export const scimKeys = {
  all: ['scim'] as const,
  tokens: (companyId: number) => ['scim', 'tokens', companyId] as const,
  requests: (companyId: number) => ['scim', 'requests', companyId] as const,
};

/** GET /companies/{id}/scim-tokens: the company's live tokens, never the tokens themselves. */
export async function getScimTokens(companyId: number): Promise<ScimToken[]> {
  const response = await api.get('/api/v1/companies/{id}/scim-tokens', {
    params: { path: { id: companyId } },
  });
  return response.data.data;
}

export const useScimTokens = (companyId: number) =>
  useQuery(
    queryOptions({
      queryKey: scimKeys.tokens(companyId),
      queryFn: () => getScimTokens(companyId),
      meta: { silentError: true },
    }),
  );

/** GET /companies/{id}/scim-requests: the company's last 50 SCIM requests, newest first. */
export async function getScimRequests(companyId: number): Promise<ScimRequest[]> {
  const response = await api.get('/api/v1/companies/{id}/scim-requests', {
    params: { path: { id: companyId } },
  });
  return response.data.data;
}

export const useScimRequests = (companyId: number) =>
  useQuery(
    queryOptions({
      queryKey: scimKeys.requests(companyId),
      queryFn: () => getScimRequests(companyId),
      meta: { silentError: true },
    }),
  );

/** POST /companies/{id}/scim-tokens: the answer carries the token, this once. */
export async function createScimToken(
  companyId: number,
  body: CreateScimTokenBody,
): Promise<ScimTokenCreated> {
  const response = await api.post('/api/v1/companies/{id}/scim-tokens', {
    params: { path: { id: companyId } },
    body,
  });
  return response.data.data;
}

export function useCreateScimToken(companyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateScimTokenBody) => createScimToken(companyId, body),
    // The token must not linger in the mutation cache after the dialog shows it.
    gcTime: 0,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scimKeys.all }),
  });
}

/** DELETE /companies/{id}/scim-tokens/{token_id}: the token's next request is refused. */
export async function revokeScimToken(companyId: number, tokenId: number): Promise<void> {
  await api.delete('/api/v1/companies/{id}/scim-tokens/{token_id}', {
    params: { path: { id: companyId, token_id: tokenId } },
  });
}

export function useRevokeScimToken(companyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: number) => revokeScimToken(companyId, tokenId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scimKeys.all }),
  });
}
