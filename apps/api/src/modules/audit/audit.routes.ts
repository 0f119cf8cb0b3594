import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditEntrySchema, auditListQuerySchema, errorEnvelopeSchema, listOf } from '@app/contract';
import { requirePermission } from '../../plugins/auth';
import { listAuditLog } from './audit.service';

/** The audit log (admin): /api/v1/audit-log. Read-only; rows are written by recordAudit. */
export default async function auditRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/',
    {
      preHandler: requirePermission('audit.read'),
      schema: {
        tags: ['audit'],
        operationId: 'listAuditLog',
        summary: 'Administrative changes, newest first (entity, actor, action, date range, paging)',
        querystring: auditListQuerySchema,
        response: {
          200: listOf(auditEntrySchema),
          400: errorEnvelopeSchema,
          401: errorEnvelopeSchema,
          403: errorEnvelopeSchema,
        },
      },
    },
    async (request) => listAuditLog(app.deps, request.query),
  );
}
