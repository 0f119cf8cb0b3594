import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  errorEnvelopeSchema,
  settlementListQuerySchema,
  settlementListSchema,
  settlementMerchantListSchema,
  settlementParamsSchema,
  settlementPdfQuerySchema,
  settlementStatementQuerySchema,
  settlementStatementSchema,
} from '@app/contract';
import { scopeOf } from '../../lib/scope';
import { pdfFileSchema } from '../../openapi';
import { currentUser, requirePermission } from '../../plugins/auth';
import { requestLanguage } from '../../plugins/errors';
import { renderSettlementPdf } from './settlement-pdf';
import {
  findAllStatementOrders,
  getSettlementStatement,
  getStatementHead,
  listSettlementMerchants,
  listSettlements,
} from './settlements.service';

/** Sends a PDF document as a download named `filename`. */
function sendPdf(reply: FastifyReply, filename: string, body: Buffer): FastifyReply {
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`)
    .header('cache-control', 'no-store')
    .send(body);
}

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
};

/**
 * /api/v1/settlements: merchant settlement statements by half-month (DESIGN 6, decision 0040).
 * The admin and Group HR read every merchant's; a merchant role its own merchant's (another
 * merchant is 404). The CSV exports are in modules/exports.
 */
export default async function settlementsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/',
    {
      preHandler: requirePermission('settlements.read'),
      schema: {
        tags: ['settlements'],
        operationId: 'listSettlements',
        summary:
          'Each merchant’s half-month statements in a range of days: totals and the split by company',
        querystring: settlementListQuerySchema,
        response: { 200: settlementListSchema, ...errors },
      },
    },
    async (request) => listSettlements(app.deps, scopeOf(currentUser(request)), request.query),
  );

  r.get(
    '/merchants',
    {
      preHandler: requirePermission('settlements.read'),
      schema: {
        tags: ['settlements'],
        operationId: 'listSettlementMerchants',
        summary: 'The merchants whose statements the caller may read (a merchant role: its own)',
        response: { 200: settlementMerchantListSchema, ...errors },
      },
    },
    async (request) => listSettlementMerchants(app.deps, scopeOf(currentUser(request))),
  );

  r.get(
    '/:merchant_id/:period_start',
    {
      preHandler: requirePermission('settlements.read'),
      schema: {
        tags: ['settlements'],
        operationId: 'getSettlementStatement',
        summary: 'A merchant’s statement for a half-month: totals, split by company, its orders',
        params: settlementParamsSchema,
        querystring: settlementStatementQuerySchema,
        response: { 200: settlementStatementSchema, ...errors },
      },
    },
    async (request) =>
      getSettlementStatement(
        app.deps,
        scopeOf(currentUser(request)),
        request.params.merchant_id,
        request.params.period_start,
        request.query,
      ),
  );

  r.get(
    '/:merchant_id/:period_start/pdf',
    {
      preHandler: requirePermission('settlements.read'),
      schema: {
        tags: ['settlements'],
        operationId: 'getSettlementStatementPdf',
        summary: 'A merchant’s statement for a half-month as a PDF document (English or Chinese)',
        params: settlementParamsSchema,
        querystring: settlementPdfQuerySchema,
        response: { 200: pdfFileSchema, ...errors, 422: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const { merchant_id, period_start } = request.params;
      const { statement, period } = await getStatementHead(
        app.deps,
        scopeOf(currentUser(request)),
        merchant_id,
        period_start,
      );
      const orders = await findAllStatementOrders(app.deps, merchant_id, period);
      const pdf = await renderSettlementPdf(statement, orders, {
        lang: request.query.lang ?? requestLanguage(request),
        timeZone: app.deps.config.APP_TIMEZONE,
        now: app.deps.clock.now(),
      });
      return sendPdf(
        reply,
        `settlement-${statement.merchant_code}-${statement.period_start}.pdf`,
        pdf,
      );
    },
  );
}
