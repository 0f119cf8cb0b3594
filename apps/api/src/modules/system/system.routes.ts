import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  currentPeriodSchema,
  dataOf,
  errorEnvelopeSchema,
  listOf,
  systemResetDateBodySchema,
  systemResetDateSchema,
  systemPeriodListQuerySchema,
  systemPeriodSchema,
} from '@app/contract';
import { auditActorOf } from '../../lib/audit';
import { requirePermission } from '../../plugins/auth';
import {
  getCurrentSystemPeriod,
  getSystemResetDate,
  listSystemPeriods,
  setSystemResetDate,
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
        operationId: 'getCurrentPeriod',
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
        operationId: 'listSystemPeriods',
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
        operationId: 'getSystemResetDate',
        summary: 'The day the current system period ends',
        response: { 200: dataOf(systemResetDateSchema), ...errors },
      },
    },
    async () => ({ data: await getSystemResetDate(app.deps) }),
  );

  r.put(
    '/reset-date',
    {
      preHandler: requirePermission('sys.manage'),
      schema: {
        tags,
        operationId: 'setSystemResetDate',
        summary: 'Set the next system reset date (a day after today, APP_TIMEZONE)',
        body: systemResetDateBodySchema,
        response: { 200: dataOf(systemResetDateSchema), ...errors },
      },
    },
    async (request) => ({
      data: await setSystemResetDate(app.deps, auditActorOf(request), request.body),
    }),
  );
}
