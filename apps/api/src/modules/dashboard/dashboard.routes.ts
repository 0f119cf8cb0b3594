import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  dashboardQuerySchema,
  dashboardSchema,
  dashboardSummaryQuerySchema,
  dashboardSummarySchema,
  dataOf,
  errorEnvelopeSchema,
} from '@app/contract';
import { scopeOf } from '../../lib/scope';
import { currentUser, requirePermission } from '../../plugins/auth';
import { getDashboard, getDashboardSummary } from './dashboard.service';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
};

/** /api/v1/dashboard: the totals of a token month (decision 0007). */
export default async function dashboardRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/',
    {
      preHandler: requirePermission('dashboard.read'),
      schema: {
        tags: ['dashboard'],
        operationId: 'getDashboard',
        summary:
          'The five totals of a token month and its daily flows, for the caller’s company, wallet or merchant (admin and HR: all or company_id)',
        querystring: dashboardQuerySchema,
        response: { 200: dataOf(dashboardSchema), ...errors },
      },
    },
    async (request) => ({
      data: await getDashboard(app.deps, scopeOf(currentUser(request)), request.query),
    }),
  );

  r.get(
    '/summary',
    {
      preHandler: requirePermission('dashboard.summary'),
      schema: {
        tags: ['dashboard'],
        operationId: 'getDashboardSummary',
        summary: 'Every company’s totals for a token month and the grand total',
        querystring: dashboardSummaryQuerySchema,
        response: { 200: dataOf(dashboardSummarySchema), ...errors },
      },
    },
    async (request) => ({
      data: await getDashboardSummary(app.deps, scopeOf(currentUser(request)), request.query),
    }),
  );
}
