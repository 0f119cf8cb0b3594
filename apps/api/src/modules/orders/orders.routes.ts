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
import { requiredIdempotencyKeyHeaders } from '../../lib/idempotency';
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

const headers = requiredIdempotencyKeyHeaders;

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
        description:
          "Charges the employee's wallet for the order and answers 201 with the order and the balance left. The employee is named by `company_code` and `employee_id` (the staff number), or by the `pay_code` their wallet shows (18 digits, good once for about 30 seconds). The order passes the company's spending rules (hours, days, merchants, daily and per-order limits); with `partial: true`, where the rules allow it, an order the balance or the day's limit covers only in part is accepted for what is covered (`paid_tokens`, `to_pay_otherwise`).\n\nSend a new `Idempotency-Key` per order and keep it until you have a definite answer: a retry with the same key and body answers the first order again (money moves once), the same key with another body is 422 `IDEMPOTENCY_KEY_REUSED`. A refused order (4xx) keeps no key. After a lost answer (a timeout, a dropped connection), retry with the same key, or find the order with `GET /api/v1/orders?idempotency_key=`. Keys are per terminal. 5xx and 429 are safe to retry with the same key.",
        summary: 'Place an order for an employee, paid from its wallet',
        security: [{ terminalKey: [] }],
        headers,
        body: createOrderBodySchema,
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
        description:
          "A dry run of `POST /api/v1/orders` with the same body: answers whether the order would be accepted now (`allowed`), for how much (`payable_tokens`), the day's remaining limit and the balance, and, when refused, the refusal's `code` and `details` as the order would get them. Nothing is written, no pay code is spent, and no Idempotency-Key is needed.",
        summary:
          'Dry run: whether an order would be accepted, and for how much, under the balance and the spending rules; writes nothing',
        security: [{ terminalKey: [] }],
        body: createOrderBodySchema,
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
        description:
          "Finds this terminal's order placed with the given `Idempotency-Key`: the way to recover a lost answer (404 `ORDER_NOT_FOUND` when no order was placed with it, so the order may be sent again with the same key). Another terminal's keys find nothing.",
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
        description:
          "One of this terminal's orders by id, with its refunded amount so far. Another terminal's order is 404 `ORDER_NOT_FOUND`, as is an unknown id.",
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
        description:
          "Refunds an order of this terminal's merchant to the employee's wallet. `cancelled`, `rejected` and `auto_archived` refund what is left of the order and carry no `amount`; `item_removed` refunds `amount` tokens (at most what is left: 409 `REFUND_EXCEEDS_SUBTOTAL`). An order refunded in full is 409 `ORDER_ALREADY_REFUNDED`. Refunds take an `Idempotency-Key` as orders do: a retry with the same key and body answers the first refund again.",
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
