import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditEntrySchema, auditListQuerySchema, errorEnvelopeSchema, listOf } from '@app/contract';
import { currentUser, requirePermission } from '../../plugins/auth';
import { listAuditLog } from './audit.service';

/**
 * The audit log: /api/v1/audit-log, each caller its scope (decision 0036). Read-only; rows are
 * written by recordAudit.
 */
export default async function auditRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/',
    {
      preHandler: requirePermission('audit.read'),
      schema: {
        tags: ['audit'],
        operationId: 'listAuditLog',
        summary:
          'Audit log in the caller’s scope, newest first (record, actor, action, date range, sort, paging)',
        querystring: auditListQuerySchema,
        response: {
          200: listOf(auditEntrySchema),
          400: errorEnvelopeSchema,
          401: errorEnvelopeSchema,
          403: errorEnvelopeSchema,
        },
      },
    },
    async (request) => listAuditLog(app.deps, currentUser(request), request.query),
  );
}
