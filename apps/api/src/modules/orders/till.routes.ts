// The till's routes (DESIGN 8), under /api/v1/till: the merchant roles' session, with its CSRF
// token like every session write, in place of a terminal key.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createOrderBodySchema,
  dataOf,
  errorEnvelopeSchema,
  IDEMPOTENCY_KEY_HEADER,
  orderCheckSchema,
  orderIdParamsSchema,
  orderSchema,
  placedOrderSchema,
  refundOrderBodySchema,
  refundResultSchema,
  tillOrdersQuerySchema,
  tillTakingsQuerySchema,
  tillTakingsSchema,
  tillTerminalParamsSchema,
  tillTerminalSchema,
} from '@app/contract';
import { requiredIdempotencyKeyHeaders } from '../../lib/idempotency';
import { currentUser, requirePermission } from '../../plugins/auth';
import { checkIdempotencyKey } from './orders.service';
import {
  chargeAtTill,
  checkAtTill,
  getTillTakings,
  listTillOrders,
  listTillTerminals,
  refundAtTill,
} from './till.service';

const headers = requiredIdempotencyKeyHeaders;
const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
};
const TAGS = ['till'];
/** What the till sends: the pay code the employee's wallet shows, and what it bought. */
const CHARGE_EXAMPLE = {
  pay_code: '482913650274193728',
  order_type: 'take_away',
  items: [{ name: 'Noodle soup', quantity: 1, unit_tokens: 38 }],
};

export default async function tillRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/terminals',
    {
      preHandler: requirePermission('till.charge'),
      schema: {
        tags: TAGS,
        operationId: 'listTillTerminals',
        description:
          "The active terminals of the signed-in user's merchant, one of which the till charges through.",
        summary: 'The active terminals of the signed-in user’s merchant, for its till',
        response: { 200: dataOf(z.array(tillTerminalSchema)), ...errors },
      },
    },
    async (request) => ({ data: await listTillTerminals(app.deps, currentUser(request)) }),
  );

  r.post(
    '/terminals/:id/orders',
    {
      preHandler: requirePermission('till.charge'),
      schema: {
        tags: TAGS,
        operationId: 'chargeAtTill',
        description:
          "The till's charge, for a signed-in merchant user: the same order as `POST /api/v1/orders` through one of the merchant's terminals, the employee named by the pay code their wallet shows or by company code and staff number. Takes an `Idempotency-Key` kept by the till until a definite answer, as a terminal's order does.",
        summary:
          'Charge an employee (pay code or staff number) through one of the merchant’s terminals',
        headers,
        params: tillTerminalParamsSchema,
        body: createOrderBodySchema.meta({ example: CHARGE_EXAMPLE }),
        response: { 201: dataOf(placedOrderSchema), ...errors },
      },
    },
    async (request, reply) => {
      const key = checkIdempotencyKey(request.headers[IDEMPOTENCY_KEY_HEADER]);
      const answer = await chargeAtTill(
        app.deps,
        currentUser(request),
        request.params.id,
        key,
        request.body,
      );
      return reply.code(answer.status).send(answer.body as never);
    },
  );

  r.post(
    '/terminals/:id/check',
    {
      preHandler: requirePermission('till.charge'),
      schema: {
        tags: TAGS,
        operationId: 'checkAtTill',
        description:
          "A dry run of the till's charge: whether it would pass and for how much, writing nothing and spending no pay code.",
        summary: 'Dry run at the till: whether a charge would pass, and for how much',
        params: tillTerminalParamsSchema,
        body: createOrderBodySchema.meta({ example: CHARGE_EXAMPLE }),
        response: { 200: dataOf(orderCheckSchema), ...errors },
      },
    },
    async (request) => ({
      data: await checkAtTill(app.deps, currentUser(request), request.params.id, request.body),
    }),
  );

  r.get(
    '/orders',
    {
      preHandler: requirePermission('till.charge'),
      schema: {
        tags: TAGS,
        operationId: 'listTillOrders',
        description:
          "The orders of the merchant's terminals on a day (today by default), newest first, for the till's list.",
        summary:
          'A day’s orders (today by default): staff its terminal’s, a supervisor or admin every terminal’s',
        querystring: tillOrdersQuerySchema,
        response: { 200: dataOf(z.array(orderSchema)), ...errors },
      },
    },
    async (request) => ({
      data: (await listTillOrders(app.deps, currentUser(request), request.query)) as never,
    }),
  );

  r.get(
    '/takings',
    {
      preHandler: requirePermission('till.charge'),
      schema: {
        tags: TAGS,
        operationId: 'getTillTakings',
        description:
          "A local day's takings (today by default, in the server's time zone) of the merchant's terminals, terminal by terminal and summed: the orders placed that day, the tokens the wallets paid for them, how much of them has been refunded since, and the net. Every active terminal is listed, and any other one that took orders that day.",
        summary:
          'A day’s takings (today by default) of the merchant’s terminals, terminal by terminal, and their sum',
        querystring: tillTakingsQuerySchema,
        response: { 200: dataOf(tillTakingsSchema), ...errors },
      },
    },
    async (request) => ({
      data: await getTillTakings(app.deps, currentUser(request), request.query),
    }),
  );

  r.post(
    '/orders/:id/refund',
    {
      preHandler: requirePermission('till.refund'),
      schema: {
        tags: TAGS,
        operationId: 'refundAtTill',
        description:
          "Refunds an order of the merchant from the till, fully or (`item_removed`, with `amount`) in part; for merchant supervisors and admins. Takes an `Idempotency-Key`, as the terminal's refund does.",
        summary: 'Refund an order of the merchant, fully or in part (supervisor and admin)',
        headers,
        params: orderIdParamsSchema,
        body: refundOrderBodySchema,
        response: { 200: dataOf(refundResultSchema), ...errors },
      },
    },
    async (request, reply) => {
      const key = checkIdempotencyKey(request.headers[IDEMPOTENCY_KEY_HEADER]);
      const answer = await refundAtTill(
        app.deps,
        currentUser(request),
        request.params.id,
        key,
        request.body,
      );
      return reply.code(answer.status).send(answer.body as never);
    },
  );
}
