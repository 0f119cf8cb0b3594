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
  webhookTestBodySchema,
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
  sendTestWebhook,
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
        description:
          "Adds an endpoint that receives the chosen events of the caller's scope (an admin: all; a merchant admin: its merchant's orders and refunds; a company admin: its company's orders, refunds, top-ups, distributions and resets), signed as Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). The answer's `secret` (`whsec_…`) is shown this once: keep it to verify deliveries. The URL must be https and resolve only to public addresses (400 `WEBHOOK_URL_NOT_ALLOWED`); an event the role may not choose is 400 `WEBHOOK_EVENT_NOT_ALLOWED`.",
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
        description:
          "The webhook endpoints of the caller's scope, newest first, page by page (`page`, `page_size` of 10, 20 or 50); secrets are never shown.",
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
        description:
          "One webhook endpoint of the caller's scope, without its secret; another scope's endpoint is 404 `RECORD_NOT_FOUND`.",
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
        description:
          "Changes an endpoint's URL (checked as at creation), events or description, or disables (`status: disabled`) and enables it. A disabled endpoint's pending deliveries wait and are sent once it is enabled again; an endpoint whose receiver answers 410 is disabled by the server.",
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
        description:
          'Deletes an endpoint and its delivery log; deliveries not yet sent are dropped.',
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
        description:
          "Replaces the endpoint's signing secret and answers the new one, shown this once. Deliveries are signed with the new secret from the next attempt on, retries of earlier events included; for 24 hours the old secret signs beside it (a second `v1,` signature), so a receiver can switch without losing any.",
        summary:
          'Replace a webhook endpoint’s secret; the new one is shown only here, the old one signs beside it for 24 h',
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
        description:
          "An endpoint's deliveries, newest first, 20 a page: each with its event, status (`pending`, `succeeded`, `failed`), attempts, the receiver's last answer and the next attempt's time. Page on with the answer's `next_cursor` as `cursor`. A failed attempt is retried after 5 s, 5 min, 30 min, 2 h, 5 h and 10 h, then the delivery is `failed`.",
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
        description:
          'Makes a delivery due now: one more attempt, with the same `webhook-id` (a receiver that already processed it recognises the event by that id and ignores it).',
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

  r.post(
    '/:id/test',
    {
      preHandler: guard,
      schema: {
        tags: TAGS,
        operationId: 'sendTestWebhook',
        summary: 'Send the endpoint a signed test event of a chosen type',
        description:
          'Queues one event of `type` (any type the endpoint’s scope may receive, subscribed or ' +
          'not) with example data in the endpoint’s own company or merchant codes and `test: ' +
          'true`, to this endpoint only. It is delivered as every event is: numbered, signed ' +
          '(with both secrets during a rotation’s 24 hours), sent within about a second and ' +
          'retried on failure; the answer is its delivery, still `pending` (follow it in ' +
          '`GET /webhooks/{id}/deliveries`). 409 `WEBHOOK_DISABLED` for a disabled endpoint.',
        params: webhookIdParamsSchema,
        body: webhookTestBodySchema,
        response: {
          202: dataOf(webhookDeliverySchema),
          400: errorEnvelopeSchema,
          409: errorEnvelopeSchema,
          ...withNotFound,
        },
      },
    },
    async (request, reply) => {
      const delivery = await sendTestWebhook(
        app.deps,
        scopeOf(currentUser(request)),
        request.params.id,
        request.body,
      );
      return reply.code(202).send({ data: delivery });
    },
  );
}
