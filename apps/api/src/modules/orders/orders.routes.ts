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
import { checkIdempotencyKey, placeTerminalOrder, refundTerminalOrder } from './orders.service';

const headers = z.object({
  [IDEMPOTENCY_KEY_HEADER]: z
    .string()
    .optional()
    .describe('Required: the same key on a retry returns the first answer'),
});
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

  r.post(
    '/',
    {
      config: { auth: 'terminal' },
      schema: {
        tags: ['terminal'],
        summary: 'Place an order for an employee, paid from its wallet',
        security: [{ terminalKey: [] }],
        headers,
        body: createOrderBodySchema,
        response: { 201: dataOf(placedOrderSchema), ...errors },
      },
    },
    async (request, reply) => {
      const terminal = currentTerminal(request);
      const key = checkIdempotencyKey(request.headers[IDEMPOTENCY_KEY_HEADER]);
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
        summary: 'Refund an order of this terminal’s merchant, fully or (item_removed) in part',
        security: [{ terminalKey: [] }],
        headers,
        params: orderIdParamsSchema,
        body: refundOrderBodySchema,
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
