import { IdentityProvidersPage } from '@/features/identity-providers/pages/identity-providers-page';

/** /identity-providers (admin): the OIDC identity providers (decision 0086). */
export function Component() {
  return <IdentityProvidersPage />;
}
