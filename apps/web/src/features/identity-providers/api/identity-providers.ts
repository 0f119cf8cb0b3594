import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { IdentityProvider, IdentityProvidersBody } from '@app/contract';
import { api } from '@/lib/api-client';

export const identityProvidersKeys = { all: ['identity-providers'] as const };

/** GET /sys/identity-providers (admin): every provider, never a secret (decision 0086). */
export async function getIdentityProviders(): Promise<IdentityProvider[]> {
  const response = await api.get('/api/v1/sys/identity-providers');
  return response.data.data;
}

export const identityProvidersQueryOptions = () =>
  queryOptions({
    queryKey: identityProvidersKeys.all,
    queryFn: getIdentityProviders,
    meta: { silentError: true },
  });

export const useIdentityProviders = () => useQuery(identityProvidersQueryOptions());

/** PUT /sys/identity-providers (admin): the whole list; a secret only when one is typed. */
export async function putIdentityProviders(
  body: IdentityProvidersBody,
): Promise<IdentityProvider[]> {
  const response = await api.put('/api/v1/sys/identity-providers', { body });
  return response.data.data;
}

export function usePutIdentityProviders() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: putIdentityProviders,
    onSuccess: (saved) => queryClient.setQueryData(identityProvidersKeys.all, saved),
  });
}

/** The companies a provider may make admins for: id and name, the first 50 by name. */
export async function getCompanyChoices(): Promise<{ id: number; name: string }[]> {
  const response = await api.get('/api/v1/companies', {
    params: { query: { page: 1, page_size: 50 } },
  });
  return response.data.data.map((company) => ({ id: company.id, name: company.name }));
}

export const useCompanyChoices = () =>
  useQuery({
    queryKey: ['identity-providers', 'companies'],
    queryFn: getCompanyChoices,
    meta: { silentError: true },
  });

/** A provider as PUT sends it back: everything but the secret, which stays as stored. */
export const asInput = (
  provider: IdentityProvider,
): IdentityProvidersBody['providers'][number] => ({
  id: provider.id,
  name: provider.name,
  issuer: provider.issuer,
  client_id: provider.client_id,
  email_domains: provider.email_domains,
  company_id: provider.company_id,
  default_type: provider.default_type,
});
