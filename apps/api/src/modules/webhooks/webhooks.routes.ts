import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createWebhookBodySchema,
  dataOf,
  errorEnvelopeSchema,
  cursorListOf,
  listOf,
  pageQuerySchema,
  okSchema,
  updateWebhookBodySchema,
  webhookDeliveriesQuerySchema,
  webhookDeliveryParamsSchema,
  webhookDeliverySchema,
  webhookIdParamsSchema,
  webhookSchema,
  webhookWithSecretSchema,
} from '@app/contract';
import { auditActorOf } from '../../lib/audit';
import { scopeOf } from '../../lib/scope';
import { currentUser, requirePermission } from '../../plugins/auth';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhookDeliveries,
  listWebhooks,
  retryWebhookDelivery,
  rotateWebhookSecret,
  updateWebhook,
} from './webhooks.service';

const errors = {
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
};
const withNotFound = { ...errors, 404: errorEnvelopeSchema };
const TAGS = ['webhooks'];

/** Webhook endpoints and their delivery log (DESIGN 6 "Integrations", decision 0038). */
export default async function webhooksRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = requirePermission('webhooks.manage');

  r.post(
    '/',
    {
      preHandler: guard,
      schema: {
        tags: TAGS,
        operationId: 'createWebhook',
        summary:
          'Add a webhook endpoint for the caller’s scope; its whsec_ secret is shown only here',
        body: createWebhookBodySchema,
        response: { 201: dataOf(webhookWithSecretSchema), 400: errorEnvelopeSchema, ...errors },
      },
    },
    async (request, reply) => {
      const endpoint = await createWebhook(
        app.deps,
        scopeOf(currentUser(request)),
        request.body,
        auditActorOf(request),
      );
      return reply.code(201).send({ data: endpoint });
    },
  );

  r.get(
    '/',
    {
      preHandler: guard,
      schema: {
        tags: TAGS,
        operationId: 'listWebhooks',
        summary: 'The webhook endpoints of the caller’s scope, newest first',
        querystring: pageQuerySchema,
        response: { 200: listOf(webhookSchema), 400: errorEnvelopeSchema, ...errors },
      },
    },
    async (request) => listWebhooks(app.deps, scopeOf(currentUser(request)), request.query),
  );

  r.get(
    '/:id',
    {
      preHandler: guard,
      schema: {
        tags: TAGS,
        operationId: 'getWebhook',
        summary: 'One webhook endpoint (without its secret)',
        params: webhookIdParamsSchema,
        response: { 200: dataOf(webhookSchema), ...withNotFound },
      },
    },
    async (request) => ({
      data: await getWebhook(app.deps, scopeOf(currentUser(request)), request.params.id),
    }),
  );

  r.patch(
    '/:id',
    {
      preHandler: guard,
      schema: {
        tags: TAGS,
        operationId: 'updateWebhook',
        summary:
          'Change a webhook endpoint’s address, events or description, or disable / enable it',
        params: webhookIdParamsSchema,
        body: updateWebhookBodySchema,
        response: { 200: dataOf(webhookSchema), 400: errorEnvelopeSchema, ...withNotFound },
      },
    },
    async (request) => ({
      data: await updateWebhook(
        app.deps,
        scopeOf(currentUser(request)),
        request.params.id,
        request.body,
        auditActorOf(request),
      ),
    }),
  );

  r.delete(
    '/:id',
    {
      preHandler: guard,
      schema: {
        tags: TAGS,
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook endpoint and its delivery log',
        params: webhookIdParamsSchema,
        response: { 200: okSchema, ...withNotFound },
      },
    },
    async (request) => {
      await deleteWebhook(
        app.deps,
        scopeOf(currentUser(request)),
        request.params.id,
        auditActorOf(request),
      );
      return { data: { ok: true as const } };
    },
  );

  r.post(
    '/:id/rotate-secret',
    {
      preHandler: guard,
      schema: {
        tags: TAGS,
        operationId: 'rotateWebhookSecret',
        summary: 'Replace a webhook endpoint’s secret; the new one is shown only here',
        params: webhookIdParamsSchema,
        response: { 200: dataOf(webhookWithSecretSchema), ...withNotFound },
      },
    },
    async (request) => ({
      data: await rotateWebhookSecret(
        app.deps,
        scopeOf(currentUser(request)),
        request.params.id,
        auditActorOf(request),
      ),
    }),
  );

  r.get(
    '/:id/deliveries',
    {
      preHandler: guard,
      schema: {
        tags: TAGS,
        operationId: 'listWebhookDeliveries',
        summary:
          'A webhook endpoint’s deliveries, newest first: status, attempts, last answer, next attempt',
        params: webhookIdParamsSchema,
        querystring: webhookDeliveriesQuerySchema,
        response: {
          200: cursorListOf(webhookDeliverySchema),
          400: errorEnvelopeSchema,
          ...withNotFound,
        },
      },
    },
    async (request) =>
      listWebhookDeliveries(
        app.deps,
        scopeOf(currentUser(request)),
        request.params.id,
        request.query,
      ),
  );

  r.post(
    '/:id/deliveries/:did/retry',
    {
      preHandler: guard,
      schema: {
        tags: TAGS,
        operationId: 'retryWebhookDelivery',
        summary: 'Send a delivery again now, with the same webhook-id',
        params: webhookDeliveryParamsSchema,
        response: { 200: dataOf(webhookDeliverySchema), ...withNotFound },
      },
    },
    async (request) => ({
      data: await retryWebhookDelivery(
        app.deps,
        scopeOf(currentUser(request)),
        request.params.id,
        request.params.did,
      ),
    }),
  );
}
