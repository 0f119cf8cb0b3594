import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  currentPeriodSchema,
  dataOf,
  errorEnvelopeSchema,
  listOf,
  resetDateBodySchema,
  resetDateSchema,
  systemPeriodListQuerySchema,
  systemPeriodSchema,
} from '@app/contract';
import { auditActorOf } from '../../lib/audit';
import { requirePermission } from '../../plugins/auth';
import {
  getCurrentSystemPeriod,
  getResetDate,
  listSystemPeriods,
  setResetDate,
} from './system.service';

const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema };

/** System periods, the platform's reporting month: /api/v1/sys/*. */
export default async function systemRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['system'];

  r.get(
    '/current-period',
    {
      preHandler: requirePermission('sys.current_period'),
      schema: {
        tags,
        summary: 'The current system period and the next reset date',
        response: { 200: dataOf(currentPeriodSchema), ...errors },
      },
    },
    async () => ({ data: await getCurrentSystemPeriod(app.deps) }),
  );

  r.get(
    '/system-periods',
    {
      preHandler: requirePermission('sys.manage'),
      schema: {
        tags,
        summary: 'System periods, newest first',
        querystring: systemPeriodListQuerySchema,
        response: { 200: listOf(systemPeriodSchema), ...errors },
      },
    },
    async (request) => listSystemPeriods(app.deps, request.query),
  );

  r.get(
    '/reset-date',
    {
      preHandler: requirePermission('sys.manage'),
      schema: {
        tags,
        summary: 'The day the current system period ends',
        response: { 200: dataOf(resetDateSchema), ...errors },
      },
    },
    async () => ({ data: await getResetDate(app.deps) }),
  );

  r.put(
    '/reset-date',
    {
      preHandler: requirePermission('sys.manage'),
      schema: {
        tags,
        summary: 'Set the next system reset date (a day after today, APP_TIMEZONE)',
        body: resetDateBodySchema,
        response: { 200: dataOf(resetDateSchema), ...errors },
      },
    },
    async (request) => ({
      data: await setResetDate(app.deps, auditActorOf(request), request.body),
    }),
  );
}
