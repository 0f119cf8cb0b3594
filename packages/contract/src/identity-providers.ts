import { z } from 'zod';
import type { Role } from './constants';
import { idSchema } from './validation';

/**
 * OIDC sign-in for back-office users (DESIGN 9, decision 0086): the identity providers the Super
 * Admin connects, each for some email domains. The client secret is write-only: sent on PUT, kept
 * encrypted, and answered only as `client_secret_set`.
 */

/** The types an account made at its first sign-in may get (the back-office roles). */
export const IDENTITY_PROVIDER_USER_TYPES = [
  'admin',
  'super_hr',
  'company_admin',
] as const satisfies readonly Role[];
export type IdentityProviderUserType = (typeof IDENTITY_PROVIDER_USER_TYPES)[number];

/** At most this many providers and domains per provider: a table to read, not a registry. */
export const IDENTITY_PROVIDERS_MAX = 50;
export const IDENTITY_PROVIDER_DOMAINS_MAX = 20;

/** A provider's `amr` values that say it checked a second factor (decision 0086). */
export const SECOND_FACTOR_AMR = ['mfa', 'otp', 'hwk', 'swk', 'sms', 'fpt', 'face', 'sc'] as const;

/** Is this host the machine itself? Only there may an issuer be plain http (tests, a local IdP). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

const issuerSchema = z
  .string('v.url')
  .trim()
  .min(1, 'v.url')
  .max(2000, 'v.url')
  .refine((value) => {
    try {
      const url = new URL(value);
      if (url.search || url.hash || url.username || url.password) return false;
      return (
        url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))
      );
    } catch {
      return false;
    }
  }, 'v.url')
  .meta({
    format: 'uri',
    example: 'https://login.microsoftonline.com/00000000-0000-0000-0000-000000000000/v2.0',
  });

/** An email domain, lower case: `example.com`, no `@`, no scheme. */
export const emailDomainSchema = z
  .string('v.email_domain')
  .trim()
  .toLowerCase()
  .max(253, 'v.email_domain')
  // No lookahead for the length (`max` bounds it): the fuzz and CSRF suites generate values from
  // the schema's pattern, and their generator cannot build a lookahead.
  .regex(/^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'v.email_domain');

const textSchema = (max: number) =>
  z.string('v.required').trim().min(1, 'v.required').max(max, 'v.text_max');

/** An identity provider as the API shows it (never its secret). */
export const identityProviderSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  issuer: z.string(),
  client_id: z.string(),
  /** True once a secret is stored; the secret itself is never answered. */
  client_secret_set: z.boolean(),
  email_domains: z.array(z.string()),
  company_id: z.number().int().nullable(),
  default_type: z.enum(IDENTITY_PROVIDER_USER_TYPES),
  created_at: z.string(),
  updated_at: z.string(),
});
export type IdentityProvider = z.infer<typeof identityProviderSchema>;

/**
 * One provider in PUT /sys/identity-providers: with `id`, that provider (its secret kept when
 * `client_secret` is absent); without, a new one (a secret required).
 */
export const identityProviderInputSchema = z
  .strictObject({
    id: idSchema.optional(),
    name: textSchema(100),
    issuer: issuerSchema,
    client_id: textSchema(500),
    client_secret: z.string('v.required').min(1, 'v.required').max(2000, 'v.text_max').optional(),
    email_domains: z
      .array(emailDomainSchema, 'v.email_domain')
      .min(1, 'v.email_domain')
      .max(IDENTITY_PROVIDER_DOMAINS_MAX, 'v.invalid'),
    company_id: idSchema.nullable().optional(),
    default_type: z.enum(IDENTITY_PROVIDER_USER_TYPES, { error: () => 'v.choose_option' }),
  })
  .superRefine((provider, ctx) => {
    if (provider.id === undefined && provider.client_secret === undefined) {
      ctx.addIssue({ code: 'custom', path: ['client_secret'], message: 'v.required' });
    }
    const needsCompany = provider.default_type === 'company_admin';
    if (needsCompany && provider.company_id == null) {
      ctx.addIssue({ code: 'custom', path: ['company_id'], message: 'v.company_required' });
    }
    // A company's provider makes and signs in that company's admins only.
    if (!needsCompany && provider.company_id != null) {
      ctx.addIssue({ code: 'custom', path: ['company_id'], message: 'v.invalid' });
    }
  });
export type IdentityProviderInput = z.infer<typeof identityProviderInputSchema>;

/** PUT /sys/identity-providers: the whole list; a provider left out is removed. */
export const identityProvidersBodySchema = z
  .strictObject({
    providers: z.array(identityProviderInputSchema).max(IDENTITY_PROVIDERS_MAX, 'v.invalid'),
  })
  .meta({
    description:
      'Every identity provider: with id, kept or changed; without, added; left out, removed',
    example: {
      providers: [
        {
          name: 'Contoso Entra ID',
          issuer: 'https://login.microsoftonline.com/00000000-0000-0000-0000-000000000000/v2.0',
          client_id: '11111111-1111-1111-1111-111111111111',
          client_secret: 'the secret, on the first save',
          email_domains: ['contoso.com'],
          company_id: null,
          default_type: 'super_hr',
        },
      ],
    },
  });
export type IdentityProvidersBody = z.infer<typeof identityProvidersBodySchema>;

/** GET /iam/oidc/providers?email=: public; an email or a bare domain. */
export const identityProviderLookupQuerySchema = z.strictObject({
  email: z.string('v.required').trim().min(1, 'v.required').max(254, 'v.email_invalid'),
});

/** Which provider signs in an email's domain, if any: its id and name, nothing else. */
export const identityProviderMatchSchema = z.object({
  provider: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type IdentityProviderMatch = z.infer<typeof identityProviderMatchSchema>;

/** GET /iam/oidc/{provider_id}/start?from= */
export const oidcStartParamsSchema = z.strictObject({ provider_id: idSchema });
export const oidcStartQuerySchema = z.strictObject({
  from: z.string().max(2000).optional(),
});

/** GET /iam/oidc/callback: what the provider sends back (RFC 6749 4.1.2, RFC 9207). */
export const oidcCallbackQuerySchema = z
  .object({
    code: z.string().max(4000).optional(),
    state: z.string().max(500).optional(),
    iss: z.string().max(2000).optional(),
    error: z.string().max(500).optional(),
    error_description: z.string().max(2000).optional(),
  })
  .loose();

/**
 * A relative path of this site to go back to after signing in: one leading slash, not `//` or
 * `/\` (which a browser reads as another host), no control characters. Anything else: `/`.
 */
export function sameSiteReturnPath(from: string | null | undefined): string {
  if (!from || from.length > 2000) return '/';
  if (!from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) return '/';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(from)) return '/';
  return from;
}

/** Where a refused OIDC sign-in sends the browser: the sign-in page with the error's code. */
export const OIDC_ERROR_PARAM = 'sso_error';
