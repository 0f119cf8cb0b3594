import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  companyReportParamsSchema,
  companyReportQuerySchema,
  companyReportSchema,
  errorEnvelopeSchema,
  reportSummaryQuerySchema,
  reportSummarySchema,
} from '@app/contract';
import { scopeOf } from '../../lib/scope';
import { currentUser, requirePermission } from '../../plugins/auth';
import { findCompanyReport, findReportSummary } from './reports.service';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
};

/** /api/v1/reports: the summary report of a token month (decision 0007). */
export default async function reportsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/summary',
    {
      preHandler: requirePermission('summary_report.view'),
      schema: {
        tags: ['reports'],
        operationId: 'getSummaryReport',
        summary:
          'Each company’s totals for a token month, paged, with the grand total (own company for a company admin)',
        querystring: reportSummaryQuerySchema,
        response: { 200: reportSummarySchema, ...errors },
      },
    },
    async (request) => findReportSummary(app.deps, scopeOf(currentUser(request)), request.query),
  );

  r.get(
    '/summary/:companyId',
    {
      preHandler: requirePermission('summary_report.company.view'),
      schema: {
        tags: ['reports'],
        operationId: 'getCompanySummaryReport',
        summary: 'A company’s totals and its employees’ rows for a token month, paged',
        params: companyReportParamsSchema,
        querystring: companyReportQuerySchema,
        response: { 200: companyReportSchema, ...errors },
      },
    },
    async (request) =>
      findCompanyReport(
        app.deps,
        scopeOf(currentUser(request)),
        request.params.companyId,
        request.query,
      ),
  );
}
