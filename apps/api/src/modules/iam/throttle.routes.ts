import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  clearSignInThrottleResponseSchema,
  errorEnvelopeSchema,
  userIdParamsSchema,
} from '@app/contract';
import { auditActorOf } from '../../lib/audit';
import { requirePermission } from '../../plugins/auth';
import { clearUserSignInThrottle } from './iam.service';

/** An administrator clears a user's sign-in throttle: /api/v1/users/:id/sign-in-throttle. */
export default async function signInThrottleRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, clock } = app.deps;

  r.delete(
    '/:id/sign-in-throttle',
    {
      preHandler: requirePermission('users.sign_in_reset'),
      schema: {
        tags: ['users'],
        operationId: 'clearSignInThrottle',
        summary: "Clear a user's sign-in throttle (its username and email, from every address)",
        params: userIdParamsSchema,
        response: {
          200: clearSignInThrottleResponseSchema,
          401: errorEnvelopeSchema,
          403: errorEnvelopeSchema,
          404: errorEnvelopeSchema,
        },
      },
    },
    async (request) => ({
      data: await clearUserSignInThrottle(
        database,
        auditActorOf(request),
        request.params.id,
        clock.now(),
      ),
    }),
  );
}
