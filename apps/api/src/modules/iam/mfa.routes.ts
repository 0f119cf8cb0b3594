import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  errorEnvelopeSchema,
  mfaCodeBodySchema,
  mfaStatusResponseSchema,
  okSchema,
  recoveryCodesResponseSchema,
  totpEnrolmentResponseSchema,
  totpVerifyBodySchema,
} from '@app/contract';
import { auditActorOf } from '../../lib/audit';
import { currentUser, requirePermission } from '../../plugins/auth';
import { confirmTotpEnrolment, disableTotp, getMfaStatus, startTotpEnrolment } from './mfa.service';

/** The signed-in user's own second factor: /api/v1/iam/mfa/* (DESIGN 4.1). */
export default async function mfaRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Wrong codes cost the same as wrong passwords from one address.
  r.get(
    '/',
    {
      preHandler: requirePermission('iam.self'),
      config: { beforeMfaEnrolment: true },
      schema: {
        tags: ['iam'],
        operationId: 'getMfaStatus',
        summary: 'The signed-in user’s two-factor state',
        response: { 200: mfaStatusResponseSchema, 401: errorEnvelopeSchema },
      },
    },
    async (request) => ({ data: await getMfaStatus(app.deps, currentUser(request)) }),
  );

  r.post(
    '/totp',
    {
      preHandler: requirePermission('iam.self'),
      config: { beforeMfaEnrolment: true },
      schema: {
        tags: ['iam'],
        operationId: 'startTotpEnrolment',
        summary: 'Start TOTP enrolment: a new pending secret and its otpauth:// URL',
        response: {
          200: totpEnrolmentResponseSchema,
          401: errorEnvelopeSchema,
          403: errorEnvelopeSchema,
          409: errorEnvelopeSchema,
        },
      },
    },
    async (request) => ({
      data: await startTotpEnrolment(app.deps, currentUser(request), auditActorOf(request)),
    }),
  );

  r.post(
    '/totp/verify',
    {
      preHandler: requirePermission('iam.self'),
      config: { beforeMfaEnrolment: true },
      schema: {
        tags: ['iam'],
        operationId: 'verifyTotpEnrolment',
        summary: 'Confirm TOTP enrolment with a code: turns it on, returns ten recovery codes once',
        body: totpVerifyBodySchema,
        response: {
          200: recoveryCodesResponseSchema,
          400: errorEnvelopeSchema,
          401: errorEnvelopeSchema,
          403: errorEnvelopeSchema,
          409: errorEnvelopeSchema,
          429: errorEnvelopeSchema,
        },
      },
    },
    async (request) => {
      const codes = await confirmTotpEnrolment(
        app.deps,
        currentUser(request),
        request.body.code,
        auditActorOf(request),
      );
      return { data: { recovery_codes: codes } };
    },
  );

  r.delete(
    '/totp',
    {
      preHandler: requirePermission('iam.self'),
      schema: {
        tags: ['iam'],
        operationId: 'disableTotp',
        summary: 'Turn TOTP off with a code or a recovery code',
        body: mfaCodeBodySchema,
        response: {
          200: okSchema,
          400: errorEnvelopeSchema,
          401: errorEnvelopeSchema,
          403: errorEnvelopeSchema,
          409: errorEnvelopeSchema,
          429: errorEnvelopeSchema,
        },
      },
    },
    async (request) => {
      await disableTotp(app.deps, currentUser(request), request.body, auditActorOf(request));
      return { data: { ok: true as const } };
    },
  );
}
