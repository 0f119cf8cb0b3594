import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  dataOf,
  errorEnvelopeSchema,
  loginBodySchema,
  loginResponseSchema,
  mfaCodeBodySchema,
  okSchema,
  reauthenticateBodySchema,
  reauthenticatedSchema,
  selfInfoResponseSchema,
  signedInResponseSchema,
} from '@app/contract';
import { AppError } from '../../lib/app-error';
import { auditActorOf } from '../../lib/audit';
import { currentUser, requirePermission } from '../../plugins/auth';
import { confirmCurrentPassword, signIn, signOut } from './iam.service';
import { completeMfaSignIn, reauthenticate, sessionUserOf } from './mfa.service';
import {
  clearMfaChallengeCookie,
  clearSessionCookies,
  MFA_CHALLENGE_COOKIE,
  readSessionCookie,
  setMfaChallengeCookie,
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
        operationId: 'login',
        responseHeaders: { 200: ['Set-Cookie'] },
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
      const result = await signIn(
        { database, clock, config },
        {
          login: request.body.username,
          password: request.body.password,
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? null,
          previousToken: readSessionCookie(request),
        },
      );
      if (result.mfaChallenge !== undefined) {
        // Password right, TOTP on: nothing is granted until POST /iam/login/mfa (DESIGN 4.1).
        clearSessionCookies(request, reply);
        setMfaChallengeCookie(request, reply, result.mfaChallenge);
        return { data: { mfa_required: true as const } };
      }
      request.log.info({ userId: result.user.id }, 'signed in');
      setSessionCookies(request, reply, result.session);
      // TOTP is off: signIn read it, else it would have answered the challenge.
      return { data: { user: await sessionUserOf(app.deps, result.user, false) } };
    },
  );

  r.post(
    '/login/mfa',
    {
      config: {
        public: true,
        rateLimit: { max: config.LOGIN_RATE_LIMIT_PER_MINUTE, timeWindow: 60_000 },
      },
      schema: {
        tags: ['iam'],
        operationId: 'loginSecondStep',
        responseHeaders: { 200: ['Set-Cookie'], 401: ['Set-Cookie'] },
        summary:
          'Second step of a sign-in with TOTP on: a code or a recovery code; sets the session cookies',
        body: mfaCodeBodySchema,
        response: {
          200: signedInResponseSchema,
          400: errorEnvelopeSchema,
          401: errorEnvelopeSchema,
          403: errorEnvelopeSchema,
          409: errorEnvelopeSchema,
          429: errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      let signedIn;
      try {
        signedIn = await completeMfaSignIn(app.deps, {
          challengeToken: request.cookies[MFA_CHALLENGE_COOKIE],
          factor: request.body,
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? null,
        });
      } catch (error) {
        // A dead challenge is of no further use to the browser.
        if ((error as { code?: unknown }).code === 'MFA_CHALLENGE_INVALID') {
          clearMfaChallengeCookie(request, reply);
        }
        throw error;
      }
      request.log.info({ userId: signedIn.user.id }, 'signed in with a second factor');
      clearMfaChallengeCookie(request, reply);
      setSessionCookies(request, reply, signedIn.session);
      return { data: { user: await sessionUserOf(app.deps, signedIn.user) } };
    },
  );

  r.post(
    '/logout',
    {
      // Signing out without a live session still clears the cookies; with one, CSRF applies.
      config: { public: true, beforeMfaEnrolment: true },
      schema: {
        tags: ['iam'],
        operationId: 'logout',
        responseHeaders: { 200: ['Set-Cookie'] },
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

  r.post(
    '/reauthenticate',
    {
      preHandler: requirePermission('iam.self'),
      schema: {
        tags: ['iam'],
        operationId: 'reauthenticate',
        summary:
          'Step-up: prove who you are again (password, or the second factor when on); the actions that answer 401 REAUTHENTICATION_REQUIRED then go through for details.within_seconds (STEP_UP_WINDOW_SECONDS, 300 by default)',
        body: reauthenticateBodySchema,
        response: {
          200: dataOf(reauthenticatedSchema),
          400: errorEnvelopeSchema,
          401: errorEnvelopeSchema,
          403: errorEnvelopeSchema,
          429: errorEnvelopeSchema,
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const data = await reauthenticate(
        app.deps,
        user,
        request.authSession!.idHash,
        request.body,
        auditActorOf(request),
        async (password) => {
          if (!password) {
            throw new AppError('BODY_INVALID', { metadata: { password: 'v.required' } });
          }
          await confirmCurrentPassword(app.deps, {
            userId: user.id,
            currentPassword: password,
            ip: request.ip,
          });
        },
      );
      return { data };
    },
  );

  r.get(
    '/self-info',
    {
      preHandler: requirePermission('iam.self'),
      config: { beforeMfaEnrolment: true },
      schema: {
        tags: ['iam'],
        operationId: 'getSelfInfo',
        responseHeaders: { 200: ['Set-Cookie'] },
        summary: 'The signed-in user',
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
      return { data: await sessionUserOf(app.deps, user) };
    },
  );
}
