import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  dataOf,
  errorEnvelopeSchema,
  identityProviderLookupQuerySchema,
  identityProviderMatchSchema,
  identityProviderSchema,
  identityProvidersBodySchema,
  isErrorCode,
  OIDC_ERROR_PARAM,
  oidcCallbackQuerySchema,
  oidcStartParamsSchema,
  oidcStartQuerySchema,
  sameSiteReturnPath,
} from '@app/contract';
import { AppError } from '../../lib/app-error';
import { auditActorOf } from '../../lib/audit';
import { requirePermission } from '../../plugins/auth';
import { readSessionCookie, setMfaChallengeCookie, setSessionCookies } from '../iam';
import {
  completeOidcSignIn,
  OIDC_CALLBACK_PATH,
  OIDC_SIGN_IN_TTL_MS,
  startOidcSignIn,
} from './oidc.service';
import { findIdentityProviders, matchIdentityProvider, putIdentityProviders } from './sso.service';

const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema };

/** The starting browser's copy of `state`: sent back only to the callback. */
export const OIDC_STATE_COOKIE = 'oidc_state';

const redirectAnswer = z.null().meta({ description: 'A redirect (Location); no body' });

/** The web app's sign-in page, with a refused OIDC sign-in's code for it to show. */
const LOGIN_PATH = '/login';

function signInPageWith(code: string, from?: string): string {
  const params = new URLSearchParams({ [OIDC_ERROR_PARAM]: code });
  if (from && from !== '/') params.set('from', from);
  return `${LOGIN_PATH}?${params.toString()}`;
}

const codeOf = (error: unknown): string => {
  const code = (error as { code?: unknown }).code;
  return error instanceof AppError && isErrorCode(code) ? code : 'OIDC_SIGN_IN_FAILED';
};

const isHttps = (request: FastifyRequest) => request.protocol === 'https';

function clearStateCookie(request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(OIDC_STATE_COOKIE, {
    path: OIDC_CALLBACK_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps(request),
  });
}

/**
 * OIDC sign-in (DESIGN 9, decision 0086): the Super Admin's identity providers
 * (/api/v1/sys/identity-providers) and the sign-in itself (/api/v1/iam/oidc/*).
 */
export default async function ssoRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/sys/identity-providers',
    {
      preHandler: requirePermission('identity_providers.manage'),
      schema: {
        tags: ['system'],
        operationId: 'listIdentityProviders',
        summary: 'The OIDC identity providers back-office users sign in with (never their secrets)',
        response: { 200: dataOf(z.array(identityProviderSchema)), ...errors },
      },
    },
    async () => ({ data: await findIdentityProviders(app.deps) }),
  );

  r.put(
    '/sys/identity-providers',
    {
      preHandler: requirePermission('identity_providers.manage'),
      schema: {
        tags: ['system'],
        operationId: 'putIdentityProviders',
        summary:
          'Replace the identity providers: with id, changed (its secret kept unless sent); without, added; left out, removed. The client secret is write-only.',
        body: identityProvidersBodySchema,
        response: {
          200: dataOf(z.array(identityProviderSchema)),
          ...errors,
          404: errorEnvelopeSchema,
          409: errorEnvelopeSchema,
        },
      },
    },
    async (request) => ({
      data: await putIdentityProviders(app.deps, auditActorOf(request), request.body),
    }),
  );

  r.get(
    '/iam/oidc/providers',
    {
      config: {
        public: true,
        rateLimit: { max: app.deps.config.LOGIN_RATE_LIMIT_PER_MINUTE, timeWindow: 60_000 },
      },
      schema: {
        tags: ['iam'],
        operationId: 'matchIdentityProvider',
        summary:
          'Public: the identity provider that signs in an email (or a domain), by id and name, or null',
        querystring: identityProviderLookupQuerySchema,
        response: { 200: dataOf(identityProviderMatchSchema), 400: errorEnvelopeSchema },
      },
    },
    async (request) => ({ data: await matchIdentityProvider(app.deps, request.query.email) }),
  );

  r.get(
    '/iam/oidc/:provider_id/start',
    {
      config: {
        public: true,
        rateLimit: { max: app.deps.config.LOGIN_RATE_LIMIT_PER_MINUTE, timeWindow: 60_000 },
      },
      schema: {
        tags: ['iam'],
        operationId: 'startOidcSignIn',
        summary:
          'Public: sign in with an identity provider; 302 to it (authorization code, PKCE, state, nonce). Refused: 302 to /login?sso_error=<code>',
        params: oidcStartParamsSchema,
        querystring: oidcStartQuerySchema.extend({ login_hint: z.string().max(254).optional() }),
        responseHeaders: { 302: ['Location', 'Set-Cookie'] },
        response: { 302: redirectAnswer, 400: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const from = sameSiteReturnPath(request.query.from);
      try {
        const { url, state } = await startOidcSignIn(app.deps, {
          providerId: request.params.provider_id,
          from,
          loginHint: request.query.login_hint,
          redirectUri: new URL(OIDC_CALLBACK_PATH, `${request.protocol}://${request.host}`).href,
        });
        reply.setCookie(OIDC_STATE_COOKIE, state, {
          path: OIDC_CALLBACK_PATH,
          httpOnly: true,
          // Lax: the provider's redirect back is a top-level GET from another site.
          sameSite: 'lax',
          secure: isHttps(request),
          maxAge: OIDC_SIGN_IN_TTL_MS / 1000,
        });
        return reply.redirect(url, 302);
      } catch (error) {
        request.log.warn({ err: error }, 'OIDC sign-in not started');
        return reply.redirect(signInPageWith(codeOf(error), from), 302);
      }
    },
  );

  r.get(
    '/iam/oidc/callback',
    {
      config: { public: true },
      schema: {
        tags: ['iam'],
        operationId: 'completeOidcSignIn',
        summary:
          'Public: the identity provider sends the browser back here (the redirect URI to register). Signed in: session cookies and 302 to `from`; a second step: 302 to /login?second_step=1; refused: 302 to /login?sso_error=<code>',
        querystring: oidcCallbackQuerySchema,
        responseHeaders: { 302: ['Location', 'Set-Cookie'] },
        response: { 302: redirectAnswer, 400: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const query = request.raw.url?.split('?')[1] ?? '';
      clearStateCookie(request, reply);
      try {
        const result = await completeOidcSignIn(app.deps, {
          query,
          stateCookie: request.cookies[OIDC_STATE_COOKIE],
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? null,
          previousToken: readSessionCookie(request),
        });
        if (result.kind === 'second_step') {
          setMfaChallengeCookie(request, reply, result.challenge);
          const params = new URLSearchParams({ second_step: '1' });
          if (result.returnTo !== '/') params.set('from', result.returnTo);
          return reply.redirect(`${LOGIN_PATH}?${params.toString()}`, 302);
        }
        request.log.info('signed in with OIDC');
        setSessionCookies(request, reply, result.session);
        return reply.redirect(result.returnTo, 302);
      } catch (error) {
        if (!(error instanceof AppError)) request.log.error({ err: error }, 'OIDC callback failed');
        return reply.redirect(signInPageWith(codeOf(error)), 302);
      }
    },
  );
}
