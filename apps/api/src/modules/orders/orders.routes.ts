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
} from '@app/contract';
import { currentTerminal } from '../../plugins/terminal-auth';
import {
  authenticateOrderTerminal,
  checkIdempotencyKey,
  checkTerminalOrder,
  getTerminalOrder,
  placeOrderFor,
  refundTerminalOrder,
  settleOrderTerminal,
} from './orders.service';

const headers = z.object({
  [IDEMPOTENCY_KEY_HEADER]: z
    .string()
    .optional()
    .describe('Required: the same key on a retry returns the first answer'),
});
/** What a till sends (the document's examples): a lunch for staff number E0001 of company C001. */
const ORDER_EXAMPLE = {
  company_code: 'C001',
  employee_id: 'E0001',
  order_type: 'dine_in',
  items: [
    { name: 'Chicken rice', quantity: 1, unit_tokens: 45 },
    { name: 'Iced tea', quantity: 2, unit_tokens: 10 },
  ],
};
/** A partial refund: one iced tea taken off the order. */
const REFUND_EXAMPLE = { reason: 'item_removed', amount: 10 };

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
  422: errorEnvelopeSchema,
};

/** The terminal API: orders and refunds, authenticated by the terminal's own key. */
export default async function ordersRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { terminalKeys } = app;

  r.post(
    '/',
    {
      config: { auth: 'terminal', terminalKey: 'in-statement' },
      // The terminal's key, before the body: checked now, or left to the order's statement.
      onRequest: (request) =>
        authenticateOrderTerminal(terminalKeys, request, {
          authorization: request.headers.authorization,
          ip: request.ip,
          now: app.deps.clock.now(),
        }),
      // A request refused before its statement (its body, say) has its pending key judged first.
      errorHandler: async (error, request) => {
        await settleOrderTerminal(terminalKeys, request);
        throw error;
      },
      schema: {
        tags: ['terminal'],
        operationId: 'placeOrder',
        summary: 'Place an order for an employee, paid from its wallet',
        security: [{ terminalKey: [] }],
        headers,
        body: createOrderBodySchema.meta({ example: ORDER_EXAMPLE }),
        response: { 201: dataOf(placedOrderSchema), ...errors },
      },
    },
    async (request, reply) => {
      const key = checkIdempotencyKey(request.headers[IDEMPOTENCY_KEY_HEADER]);
      const answer = await placeOrderFor(app.deps, terminalKeys, request, key, request.body);
      return reply.code(answer.status).send(answer.body as never);
    },
  );

  r.post(
    '/check',
    {
      config: { auth: 'terminal' },
      schema: {
        tags: ['terminal'],
        operationId: 'checkOrder',
        summary:
          'Dry run: whether an order would be accepted, and for how much, under the balance and the spending rules; writes nothing',
        security: [{ terminalKey: [] }],
        body: createOrderBodySchema.meta({ example: ORDER_EXAMPLE }),
        response: { 200: dataOf(orderCheckSchema), ...errors },
      },
    },
    async (request) => ({
      data: await checkTerminalOrder(app.deps, currentTerminal(request), request.body),
    }),
  );

  r.get(
    '/',
    {
      config: { auth: 'terminal' },
      schema: {
        tags: ['terminal'],
        operationId: 'findOrderByIdempotencyKey',
        summary: 'This terminal’s order placed with an Idempotency-Key: a lost answer found again',
        security: [{ terminalKey: [] }],
        querystring: z.object({ idempotency_key: z.string().min(1).max(200) }),
        response: { 200: dataOf(orderSchema), ...errors },
      },
    },
    async (request) => ({
      data: (await getTerminalOrder(app.deps, currentTerminal(request), {
        idempotencyKey: request.query.idempotency_key,
      })) as never,
    }),
  );

  r.get(
    '/:id',
    {
      config: { auth: 'terminal' },
      schema: {
        tags: ['terminal'],
        operationId: 'getTerminalOrder',
        summary: 'One of this terminal’s orders (another terminal’s is not found)',
        security: [{ terminalKey: [] }],
        params: orderIdParamsSchema,
        response: { 200: dataOf(orderSchema), ...errors },
      },
    },
    async (request) => ({
      data: (await getTerminalOrder(app.deps, currentTerminal(request), {
        id: request.params.id,
      })) as never,
    }),
  );

  r.post(
    '/:id/refund',
    {
      config: { auth: 'terminal' },
      schema: {
        tags: ['terminal'],
        operationId: 'refundOrder',
        summary: 'Refund an order of this terminal’s merchant, fully or (item_removed) in part',
        security: [{ terminalKey: [] }],
        headers,
        params: orderIdParamsSchema,
        body: refundOrderBodySchema.meta({ example: REFUND_EXAMPLE }),
        response: { 200: dataOf(refundResultSchema), ...errors },
      },
    },
    async (request, reply) => {
      const terminal = currentTerminal(request);
      const key = checkIdempotencyKey(request.headers[IDEMPOTENCY_KEY_HEADER]);
      const answer = await refundTerminalOrder(
        app.deps,
        terminal,
        key,
        request.params.id,
        request.body,
      );
      return reply.code(answer.status).send(answer.body as never);
    },
  );
}
