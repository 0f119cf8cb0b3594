import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  autoArchiveJobBodySchema,
  autoArchiveJobResultSchema,
  dataOf,
  errorEnvelopeSchema,
  monthlyResetJobResultSchema,
} from '@app/contract';
import { requirePermission } from '../../plugins/auth';
import { runAutoArchive, runMonthlyResets } from './jobs.service';

const errors = { 401: errorEnvelopeSchema, 403: errorEnvelopeSchema };

/** /api/v1/jobs: run the scheduled jobs now (they also run on a timer in every instance). */
export default async function jobsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/monthly-reset',
    {
      preHandler: requirePermission('jobs.run'),
      schema: {
        tags: ['jobs'],
        operationId: 'runMonthlyResets',
        summary: 'Apply every monthly reset that is due now',
        response: { 200: dataOf(monthlyResetJobResultSchema), ...errors },
      },
    },
    async (request) => ({
      data: {
        runs: await runMonthlyResets(app.deps, {
          onFailure: (companyId, error) =>
            request.log.error({ err: error, companyId }, 'monthly reset failed'),
        }),
      },
    }),
  );

  r.post(
    '/auto-archive',
    {
      preHandler: requirePermission('jobs.run'),
      schema: {
        tags: ['jobs'],
        operationId: 'runAutoArchive',
        summary: 'Refund (auto_archived) orders still open after the configured age',
        body: autoArchiveJobBodySchema,
        response: { 200: dataOf(autoArchiveJobResultSchema), 400: errorEnvelopeSchema, ...errors },
      },
    },
    async (request) => ({
      data: await runAutoArchive(
        app.deps,
        request.body?.older_than_hours ?? app.deps.config.AUTO_ARCHIVE_AFTER_HOURS,
      ),
    }),
  );
}
