import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createEmployeeAccountBodySchema,
  dataOf,
  employeeAccountSchema,
  employeeIdParamsSchema,
  errorEnvelopeSchema,
  walletSchema,
} from '@app/contract';
import { auditActorOf } from '../../lib/audit';
import { scopeOf } from '../../lib/scope';
import { currentUser, requirePermission } from '../../plugins/auth';
import { createEmployeeAccount, getOwnWallet } from './self-service.service';

const errors = {
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
};

/** Employee self-service (DESIGN 6, decision 0033), under /api/v1. */
export default async function selfServiceRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/employees/:id/account',
    {
      preHandler: requirePermission('employees.account'),
      schema: {
        tags: ['employees'],
        operationId: 'createEmployeeAccount',
        summary: 'Give an employee of the company its own sign-in (one per employee)',
        params: employeeIdParamsSchema,
        body: createEmployeeAccountBodySchema,
        response: {
          201: dataOf(employeeAccountSchema),
          400: errorEnvelopeSchema,
          409: errorEnvelopeSchema,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const account = await createEmployeeAccount(
        app.deps,
        scopeOf(currentUser(request)),
        request.params.id,
        request.body,
        auditActorOf(request),
      );
      return reply.code(201).send({ data: account });
    },
  );

  r.get(
    '/me/wallet',
    {
      preHandler: requirePermission('wallet.self'),
      schema: {
        tags: ['self-service'],
        operationId: 'getOwnWallet',
        summary:
          'The signed-in employee’s wallet: balance, token month, next reset and what expires then',
        response: { 200: dataOf(walletSchema), ...errors },
      },
    },
    async (request) => ({
      data: await getOwnWallet(app.deps, scopeOf(currentUser(request))),
    }),
  );
}
