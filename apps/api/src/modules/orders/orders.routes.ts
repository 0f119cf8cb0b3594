import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createOrderBodySchema,
  dataOf,
  errorEnvelopeSchema,
  IDEMPOTENCY_KEY_HEADER,
  orderIdParamsSchema,
  placedOrderSchema,
  refundOrderBodySchema,
  refundResultSchema,
} from '@app/contract';
import { currentTerminal } from '../../plugins/terminal-auth';
import {
  checkIdempotencyKey,
  placeTerminalOrder,
  placeTerminalOrderWithKey,
  refundTerminalOrder,
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

  // A request whose key was left to its order's statement (decision 0043) but that failed before
  // reaching it (a body or header refused, say) has its key checked now: a bad key answers with
  // its own 401, 403 or 429 first, and is counted, as if checked before the body.
  app.setErrorHandler(async (error, request) => {
    await terminalKeys.settle(request);
    throw error;
  });

  r.post(
    '/',
    {
      config: { auth: 'terminal', terminalKey: 'in-statement' },
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
      const pending = terminalKeys.pending(request);
      if (pending) {
        const { check, order } = await placeTerminalOrderWithKey(
          app.deps,
          pending,
          terminalKeys.limits,
          key,
          request.body,
        );
        await terminalKeys.accept(request, check);
        if (!order) throw new Error('an order let through by its key check was not placed');
        if (!order.ok) throw order.error;
        return reply.code(order.value.status).send(order.value.body as never);
      }
      const terminal = currentTerminal(request);
      const answer = await placeTerminalOrder(app.deps, terminal, key, request.body);
      return reply.code(answer.status).send(answer.body as never);
    },
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
