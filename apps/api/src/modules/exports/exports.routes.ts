import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  auditExportQuerySchema,
  companyReportFilterSchema,
  companyReportParamsSchema,
  employeeExportQuerySchema,
  errorEnvelopeSchema,
  orderHistoryFilterSchema,
  reportSummaryFilterSchema,
  settlementExportQuerySchema,
  settlementParamsSchema,
  transactionListQuerySchema,
  type Lang,
} from '@app/contract';
import { scopeOf } from '../../lib/scope';
import { currentUser, requirePermission } from '../../plugins/auth';
import { requestLanguage } from '../../plugins/errors';
import { csvFileSchema } from '../../openapi';
import { sendCsv } from './csv';
import {
  exportAuditLog,
  exportCompanyReport,
  exportEmployees,
  exportOrders,
  exportSettlementStatement,
  exportSettlements,
  exportSummary,
  exportTransactions,
} from './exports.service';

const responses = {
  200: csvFileSchema,
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
  422: errorEnvelopeSchema,
};

/**
 * The language of an export's enum cells: a `lang` query parameter (`en`/`zh`, for a link opened
 * outside the app), else the caller's as errors pick it (the `lang` cookie, Accept-Language),
 * else English (decision 0022). Read from the URL: the list schemas it shares stay the lists'.
 */
function exportLanguage(request: FastifyRequest): Lang {
  const lang = new URL(request.url, 'http://localhost').searchParams.get('lang')?.toLowerCase();
  if (lang?.startsWith('zh')) return 'zh';
  if (lang?.startsWith('en')) return 'en';
  return requestLanguage(request);
}

/**
 * /api/v1/exports: each list as a CSV download (decision 0007). Each takes its list's filters
 * and access rule; sizes past EXPORT_MAX_ROWS are refused (422 EXPORT_TOO_LARGE) up front.
 */
export default async function exportsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/transactions',
    {
      preHandler: requirePermission('tokens.transactions'),
      schema: {
        tags: ['exports'],
        operationId: 'exportTransactions',
        summary: 'Token transactions as CSV: the filters of GET /tokens/transactions (no cursor)',
        querystring: transactionListQuerySchema,
        response: responses,
      },
    },
    async (request, reply) => {
      const csv = await exportTransactions(
        app.deps,
        scopeOf(currentUser(request)),
        request.query,
        exportLanguage(request),
      );
      return sendCsv(reply, csv.filename, csv.body);
    },
  );

  r.get(
    '/orders',
    {
      preHandler: requirePermission('orders.admin'),
      schema: {
        tags: ['exports'],
        operationId: 'exportOrders',
        summary: 'The order history as CSV: the filters of GET /orders/admin (no paging)',
        querystring: orderHistoryFilterSchema,
        response: responses,
      },
    },
    async (request, reply) => {
      const csv = await exportOrders(
        app.deps,
        scopeOf(currentUser(request)),
        request.query,
        exportLanguage(request),
      );
      return sendCsv(reply, csv.filename, csv.body);
    },
  );

  r.get(
    '/employees',
    {
      preHandler: requirePermission('employees.read'),
      schema: {
        tags: ['exports'],
        operationId: 'exportEmployees',
        summary: 'Employees as CSV: the filters of GET /employees (no paging)',
        querystring: employeeExportQuerySchema,
        response: responses,
      },
    },
    async (request, reply) => {
      const csv = await exportEmployees(app.deps, scopeOf(currentUser(request)), request.query);
      return sendCsv(reply, csv.filename, csv.body);
    },
  );

  r.get(
    '/summary',
    {
      preHandler: requirePermission('summary_report.view'),
      schema: {
        tags: ['exports'],
        operationId: 'exportSummaryReport',
        summary: 'The summary report’s company rows as CSV: the filters of GET /reports/summary',
        querystring: reportSummaryFilterSchema,
        response: responses,
      },
    },
    async (request, reply) => {
      const csv = await exportSummary(app.deps, scopeOf(currentUser(request)), request.query);
      return sendCsv(reply, csv.filename, csv.body);
    },
  );

  r.get(
    '/summary/:companyId',
    {
      preHandler: requirePermission('summary_report.company.view'),
      schema: {
        tags: ['exports'],
        operationId: 'exportCompanySummaryReport',
        summary: 'A company’s per-employee report rows as CSV',
        params: companyReportParamsSchema,
        querystring: companyReportFilterSchema,
        response: responses,
      },
    },
    async (request, reply) => {
      const csv = await exportCompanyReport(
        app.deps,
        scopeOf(currentUser(request)),
        request.params.companyId,
        request.query,
      );
      return sendCsv(reply, csv.filename, csv.body);
    },
  );

  r.get(
    '/audit-log',
    {
      preHandler: requirePermission('audit.read'),
      schema: {
        tags: ['exports'],
        operationId: 'exportAuditLog',
        summary: 'The audit log as CSV: the filters and order of GET /audit-log (no paging)',
        querystring: auditExportQuerySchema,
        response: responses,
      },
    },
    async (request, reply) => {
      const csv = await exportAuditLog(app.deps, currentUser(request), request.query);
      return sendCsv(reply, csv.filename, csv.body);
    },
  );

  r.get(
    '/settlements',
    {
      preHandler: requirePermission('settlements.read'),
      schema: {
        tags: ['exports'],
        operationId: 'exportSettlements',
        summary:
          'Settlement statements as CSV, one line per merchant, period and company: the range of GET /settlements',
        querystring: settlementExportQuerySchema,
        response: responses,
      },
    },
    async (request, reply) => {
      const csv = await exportSettlements(app.deps, scopeOf(currentUser(request)), request.query);
      return sendCsv(reply, csv.filename, csv.body);
    },
  );

  r.get(
    '/settlements/:merchant_id/:period_start',
    {
      preHandler: requirePermission('settlements.read'),
      schema: {
        tags: ['exports'],
        operationId: 'exportSettlementStatement',
        summary: 'Every order of a merchant’s half-month statement as CSV',
        params: settlementParamsSchema,
        response: responses,
      },
    },
    async (request, reply) => {
      const csv = await exportSettlementStatement(
        app.deps,
        scopeOf(currentUser(request)),
        request.params.merchant_id,
        request.params.period_start,
      );
      return sendCsv(reply, csv.filename, csv.body);
    },
  );
}
