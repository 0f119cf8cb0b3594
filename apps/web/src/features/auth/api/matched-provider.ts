import { useEffect, useState } from 'react';
import { api } from '@/lib/api-client';

/** The identity provider whose "Sign in with …" button the sign-in page offers (decision 0086). */
export interface MatchedProvider {
  id: number;
  name: string;
}

/** An email's domain, when the text looks like an email (`name@domain.tld`); else null. */
export function emailDomainOf(text: string): string | null {
  const match = /^[^@\s]+@([^@\s]+\.[^@\s]+)$/.exec(text.trim());
  return match ? match[1]!.toLowerCase() : null;
}

/** GET /iam/oidc/providers?email= (public): the provider of the email's domain, or null. */
export async function matchIdentityProvider(email: string): Promise<MatchedProvider | null> {
  const response = await api.get('/api/v1/iam/oidc/providers', { params: { query: { email } } });
  return response.data?.data.provider ?? null;
}

/**
 * The provider of the typed email's domain, asked once the typing pauses and once per domain;
 * null while there is none (or the lookup fails: the password form stays).
 */
export function useMatchedProvider(typed: string): MatchedProvider | null {
  const domain = emailDomainOf(typed);
  const [found, setFound] = useState<{ domain: string; provider: MatchedProvider | null } | null>(
    null,
  );
  useEffect(() => {
    if (!domain || found?.domain === domain) return;
    let isCurrent = true;
    const timer = setTimeout(() => {
      matchIdentityProvider(domain).then(
        (provider) => {
          if (isCurrent) setFound({ domain, provider });
        },
        () => {
          if (isCurrent) setFound({ domain, provider: null });
        },
      );
    }, 250);
    return () => {
      isCurrent = false;
      clearTimeout(timer);
    };
  }, [domain, found?.domain]);
  return domain && found?.domain === domain ? found.provider : null;
}

/** Where the "Sign in with …" button goes: the API's start, which sends the browser on. */
export function oidcStartHref(providerId: number, from: string | null, loginHint: string): string {
  const params = new URLSearchParams();
  if (from) params.set('from', from);
  if (loginHint) params.set('login_hint', loginHint.trim());
  const query = params.toString();
  return `/api/v1/iam/oidc/${providerId}/start${query ? `?${query}` : ''}`;
}
