import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema, okSchema, userIdParamsSchema } from '@app/contract';
import { auditActorOf } from '../../lib/audit';
import { requirePermission } from '../../plugins/auth';
import { resetUserMfa } from './mfa.service';

/** DELETE /api/v1/users/{id}/mfa: an admin removes a user's second factor (lost phone). */
export default async function mfaAdminRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.delete(
    '/:id/mfa',
    {
      preHandler: requirePermission('users.sign_in_reset'),
      schema: {
        tags: ['users'],
        operationId: 'resetUserMfa',
        summary: 'Reset a user’s two-factor sign-in (audited)',
        params: userIdParamsSchema,
        response: {
          200: okSchema,
          400: errorEnvelopeSchema,
          401: errorEnvelopeSchema,
          403: errorEnvelopeSchema,
          404: errorEnvelopeSchema,
        },
      },
    },
    async (request) => {
      await resetUserMfa(app.deps, request.params.id, auditActorOf(request));
      return { data: { ok: true as const } };
    },
  );
}
