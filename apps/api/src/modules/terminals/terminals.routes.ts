import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createTerminalBodySchema,
  dataOf,
  errorEnvelopeSchema,
  listOf,
  okSchema,
  statusChangeBodySchema,
  terminalIdParamsSchema,
  terminalListQuerySchema,
  terminalSchema,
  terminalWithKeySchema,
  updateTerminalBodySchema,
} from '@app/contract';
import { auditActorOf } from '../../lib/audit';
import { requirePermission } from '../../plugins/auth';
import {
  createTerminal,
  deleteTerminal,
  getTerminal,
  listTerminals,
  rotateTerminalKey,
  setTerminalStatus,
  updateTerminalDetails,
} from './terminals.service';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
};

/**
 * /api/v1/terminals: create (key shown once), list, read, update, status, key rotation and
 * (soft) delete, for admins. Every change is audit-logged, never with the key.
 */
export default async function terminalsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = requirePermission('terminals.manage');

  r.post(
    '/',
    {
      preHandler: guard,
      schema: {
        tags: ['terminals'],
        operationId: 'createTerminal',
        summary: 'Create a terminal; the answer carries its API key, shown this once',
        body: createTerminalBodySchema,
        response: { 201: dataOf(terminalWithKeySchema), 409: errorEnvelopeSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send({ data: await createTerminal(app.deps, request.body, auditActorOf(request)) }),
  );

  r.get(
    '/',
    {
      preHandler: guard,
      schema: {
        tags: ['terminals'],
        operationId: 'listTerminals',
        summary: 'List terminals (not deleted ones); search matches code or name',
        querystring: terminalListQuerySchema,
        response: { 200: listOf(terminalSchema), ...errors },
      },
    },
    async (request) => listTerminals(app.deps, request.query),
  );

  r.get(
    '/:id',
    {
      preHandler: guard,
      schema: {
        tags: ['terminals'],
        operationId: 'getTerminal',
        summary: 'A terminal (never its key)',
        params: terminalIdParamsSchema,
        response: { 200: dataOf(terminalSchema), ...errors },
      },
    },
    async (request) => ({ data: await getTerminal(app.deps, request.params.id) }),
  );

  r.patch(
    '/:id/status',
    {
      preHandler: guard,
      schema: {
        tags: ['terminals'],
        operationId: 'updateTerminalStatus',
        summary: 'Activate or deactivate a terminal',
        params: terminalIdParamsSchema,
        body: statusChangeBodySchema,
        response: { 200: dataOf(terminalSchema), ...errors },
      },
    },
    async (request) => ({
      data: await setTerminalStatus(
        app.deps,
        request.params.id,
        request.body.status,
        auditActorOf(request),
      ),
    }),
  );

  r.post(
    '/:id/rotate-key',
    {
      preHandler: guard,
      schema: {
        tags: ['terminals'],
        operationId: 'rotateTerminalKey',
        summary: 'Replace the terminal’s API key; the old key stops working at once',
        params: terminalIdParamsSchema,
        response: { 200: dataOf(terminalWithKeySchema), ...errors },
      },
    },
    async (request) => ({
      data: await rotateTerminalKey(app.deps, request.params.id, auditActorOf(request)),
    }),
  );

  r.put(
    '/:id',
    {
      preHandler: guard,
      schema: {
        tags: ['terminals'],
        operationId: 'updateTerminal',
        summary: 'Update a terminal’s name and status (code and merchant are immutable)',
        params: terminalIdParamsSchema,
        body: updateTerminalBodySchema,
        response: { 200: dataOf(terminalSchema), ...errors },
      },
    },
    async (request) => ({
      data: await updateTerminalDetails(
        app.deps,
        auditActorOf(request),
        request.params.id,
        request.body,
      ),
    }),
  );

  r.delete(
    '/:id',
    {
      preHandler: guard,
      schema: {
        tags: ['terminals'],
        operationId: 'deleteTerminal',
        summary: 'Delete a terminal softly: hidden, and its key is refused from now on',
        params: terminalIdParamsSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await deleteTerminal(app.deps, auditActorOf(request), request.params.id);
      return { data: { ok: true as const } };
    },
  );
}
