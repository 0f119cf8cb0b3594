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
        description:
          "Creates a terminal of a merchant. The answer's `api_key` is the terminal's Bearer key for the terminal API: it is shown this once and stored only as a digest, so keep it now (a lost key is replaced with `rotate-key`).",
        summary: 'Create a terminal; the answer carries its API key, shown this once',
        body: createTerminalBodySchema.meta({
          example: { merchant_id: 3, code: 'T01', name: 'Front counter' },
        }),
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
        description:
          "The terminals in the caller's scope, page by page (`page`, `page_size` of 10, 20 or 50), filtered by merchant, status or a search on code and name. Keys are never shown.",
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
        description: "One terminal by id, in the caller's scope; never its key.",
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
        description:
          "Activates or deactivates a terminal. An inactive terminal's key is refused with 403 `TERMINAL_INACTIVE` (and every terminal of an inactive merchant with `MERCHANT_INACTIVE`).",
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
        description:
          "Replaces the terminal's key and answers the new one, shown this once. The old key stops working at once (401); Idempotency-Keys stay the terminal's, so a retry with the new key still finds its orders.",
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
        description:
          "Changes a terminal's name and status; its code and merchant are fixed at creation.",
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
        description:
          'Deletes a terminal softly: it leaves the lists, its key is refused from now on, and its orders stay in the history.',
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
