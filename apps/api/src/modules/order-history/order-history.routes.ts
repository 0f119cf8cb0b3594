import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  dataOf,
  errorEnvelopeSchema,
  orderDetailSchema,
  orderHistoryListSchema,
  orderHistoryParamsSchema,
  orderHistoryQuerySchema,
} from '@app/contract';
import { scopeOf } from '../../lib/scope';
import { currentUser, requirePermission } from '../../plugins/auth';
import { getOrderDetail, listOrderHistory } from './order-history.service';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
};

/**
 * /api/v1/orders/admin: the back-office's order history (admin, Group HR). A plugin of its own,
 * beside the terminal API of the orders module (POST /orders, POST /orders/{id}/refund).
 */
export default async function orderHistoryRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/',
    {
      preHandler: requirePermission('orders.admin'),
      schema: {
        tags: ['orders'],
        operationId: 'listOrders',
        summary:
          'Orders newest first: status, company, merchant, terminal, employee, order number, date range; page or cursor',
        querystring: orderHistoryQuerySchema,
        response: { 200: orderHistoryListSchema, ...errors },
      },
    },
    async (request) => listOrderHistory(app.deps, scopeOf(currentUser(request)), request.query),
  );

  r.get(
    '/:id',
    {
      preHandler: requirePermission('orders.admin'),
      schema: {
        tags: ['orders'],
        operationId: 'getOrder',
        summary: 'An order with its items and refunds',
        params: orderHistoryParamsSchema,
        response: { 200: dataOf(orderDetailSchema), ...errors },
      },
    },
    async (request) => ({
      data: await getOrderDetail(app.deps, scopeOf(currentUser(request)), request.params.id),
    }),
  );
}
