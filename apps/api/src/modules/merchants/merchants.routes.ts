import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createMerchantBodySchema,
  dataOf,
  errorEnvelopeSchema,
  listOf,
  merchantIdParamsSchema,
  merchantListQuerySchema,
  merchantSchema,
  okSchema,
  statusChangeBodySchema,
  updateMerchantBodySchema,
} from '@app/contract';
import { auditActorOf } from '../../lib/audit';
import { requirePermission } from '../../plugins/auth';
import {
  createMerchant,
  deleteMerchant,
  getMerchant,
  listMerchants,
  setMerchantStatus,
  updateMerchantDetails,
} from './merchants.service';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
};

/** /api/v1/merchants: list, create, read, update, status and (soft) delete, for admins. */
export default async function merchantsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = requirePermission('merchants.manage');

  r.post(
    '/',
    {
      preHandler: guard,
      schema: {
        tags: ['merchants'],
        operationId: 'createMerchant',
        summary: 'Create a merchant',
        body: createMerchantBodySchema,
        response: { 201: dataOf(merchantSchema), 409: errorEnvelopeSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send({ data: await createMerchant(app.deps, request.body, auditActorOf(request)) }),
  );

  r.get(
    '/',
    {
      preHandler: guard,
      schema: {
        tags: ['merchants'],
        operationId: 'listMerchants',
        summary: 'List merchants (not deleted ones); search matches code or name',
        querystring: merchantListQuerySchema,
        response: { 200: listOf(merchantSchema), ...errors },
      },
    },
    async (request) => listMerchants(app.deps, request.query),
  );

  r.get(
    '/:id',
    {
      preHandler: guard,
      schema: {
        tags: ['merchants'],
        operationId: 'getMerchant',
        summary: 'A merchant',
        params: merchantIdParamsSchema,
        response: { 200: dataOf(merchantSchema), ...errors },
      },
    },
    async (request) => ({ data: await getMerchant(app.deps, request.params.id) }),
  );

  r.patch(
    '/:id/status',
    {
      preHandler: guard,
      schema: {
        tags: ['merchants'],
        operationId: 'updateMerchantStatus',
        summary: 'Activate or deactivate a merchant (its terminals are refused while inactive)',
        params: merchantIdParamsSchema,
        body: statusChangeBodySchema,
        response: { 200: dataOf(merchantSchema), ...errors },
      },
    },
    async (request) => ({
      data: await setMerchantStatus(
        app.deps,
        request.params.id,
        request.body.status,
        auditActorOf(request),
      ),
    }),
  );

  r.put(
    '/:id',
    {
      preHandler: guard,
      schema: {
        tags: ['merchants'],
        operationId: 'updateMerchant',
        summary: 'Update a merchant’s name and status (the code is immutable)',
        params: merchantIdParamsSchema,
        body: updateMerchantBodySchema,
        response: { 200: dataOf(merchantSchema), ...errors },
      },
    },
    async (request) => ({
      data: await updateMerchantDetails(
        app.deps,
        auditActorOf(request),
        request.params.id,
        request.body,
      ),
    }),
  );

  r.delete(
    '/:id',
    {
      preHandler: guard,
      schema: {
        tags: ['merchants'],
        operationId: 'deleteMerchant',
        summary:
          'Delete a merchant softly: it and its terminals are hidden and refused from now on',
        params: merchantIdParamsSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await deleteMerchant(app.deps, auditActorOf(request), request.params.id);
      return { data: { ok: true as const } };
    },
  );
}
