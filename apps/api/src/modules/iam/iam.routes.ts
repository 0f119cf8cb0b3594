import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  errorEnvelopeSchema,
  loginBodySchema,
  loginResponseSchema,
  okSchema,
  selfInfoResponseSchema,
} from '@app/contract';
import { currentUser, requirePermission } from '../../plugins/auth';
import { toSelfUser } from './iam.repository';
import { signIn, signOut } from './iam.service';
import {
  clearSessionCookies,
  readSessionCookie,
  setSessionCookies,
  setXsrfCookie,
  XSRF_COOKIE,
} from './session-cookies';

/** Sign-in, sign-out and the signed-in user: /api/v1/iam/*. */
export default async function iamRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, clock, config } = app.deps;

  r.post(
    '/login',
    {
      config: {
        public: true,
        // Nothing to forge before a session exists; the new session gets a new CSRF token.
        csrf: false,
      },
      schema: {
        tags: ['iam'],
        summary: 'Sign in with username or email; sets the session and XSRF-TOKEN cookies',
        description:
          'A wrong username and a wrong password answer alike (401). Past the free failures of a ' +
          '(username, address) or an address, 429 with Retry-After (seconds) until a doubling ' +
          'wait is over; no account is ever locked.',
        body: loginBodySchema,
        response: {
          200: loginResponseSchema,
          400: errorEnvelopeSchema,
          401: errorEnvelopeSchema,
          403: errorEnvelopeSchema,
          429: errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const { user, session } = await signIn(
        { database, clock, config },
        {
          login: request.body.username,
          password: request.body.password,
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? null,
          previousToken: readSessionCookie(request),
        },
      );
      request.log.info({ userId: user.id }, 'signed in');
      setSessionCookies(request, reply, session);
      return { data: { user: toSelfUser(user) } };
    },
  );

  r.post(
    '/logout',
    {
      // Signing out without a live session still clears the cookies; with one, CSRF applies.
      config: { public: true },
      schema: {
        tags: ['iam'],
        summary: 'Sign out: ends the session server-side and clears the cookies',
        response: { 200: okSchema, 403: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      if (request.authSession) {
        await signOut(database.db, request.authSession.idHash);
        request.log.info({ userId: request.user?.id }, 'signed out');
      }
      clearSessionCookies(request, reply);
      return { data: { ok: true as const } };
    },
  );

  r.get(
    '/self-info',
    {
      preHandler: requirePermission('iam.self'),
      schema: {
        tags: ['iam'],
        summary: 'The signed-in user',
        security: [{ session: [] }],
        response: { 200: selfInfoResponseSchema, 401: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const session = request.authSession;
      // A browser that lost (or holds a stale) XSRF-TOKEN gets the session's token again: it is
      // derived from the session token, so re-sending it changes nothing (a GET changes no state,
      // and another tab's copy keeps working).
      if (session && request.cookies[XSRF_COOKIE] !== session.csrfToken) {
        setXsrfCookie(request, reply, session.csrfToken);
      }
      return { data: toSelfUser(user) };
    },
  );
}
