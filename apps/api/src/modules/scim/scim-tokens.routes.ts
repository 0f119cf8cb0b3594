import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  companyIdParamsSchema,
  createScimTokenBodySchema,
  dataOf,
  errorEnvelopeSchema,
  okSchema,
  scimRequestSchema,
  scimTokenCreatedSchema,
  scimTokenParamsSchema,
  scimTokenSchema,
} from '@app/contract';
import { auditActorOf } from '../../lib/audit';
import { scopeOf } from '../../lib/scope';
import { currentUser, requirePermission } from '../../plugins/auth';
import {
  createScimToken,
  listScimRequests,
  listScimTokens,
  revokeScimTokenOf,
} from './scim.service';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
};

/**
 * /api/v1/companies/{id}/scim-tokens and /scim-requests (DESIGN 9, decision 0087): a company's
 * SCIM tokens, made, listed and revoked by its admins (the admin for any company), and the log
 * of its last SCIM requests.
 */
export default async function scimTokensRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/:id/scim-tokens',
    {
      preHandler: requirePermission('scim_tokens.manage'),
      schema: {
        tags: ['companies'],
        operationId: 'createScimToken',
        summary: 'Make a SCIM token for the company (shown once)',
        params: companyIdParamsSchema,
        body: createScimTokenBodySchema,
        response: { 201: dataOf(scimTokenCreatedSchema), ...errors },
      },
    },
    async (request, reply) => {
      const created = await createScimToken(
        app.deps,
        scopeOf(currentUser(request)),
        request.params.id,
        request.body,
        auditActorOf(request),
      );
      return reply.code(201).header('cache-control', 'no-store').send({ data: created });
    },
  );

  r.get(
    '/:id/scim-tokens',
    {
      preHandler: requirePermission('scim_tokens.manage'),
      schema: {
        tags: ['companies'],
        operationId: 'listScimTokens',
        summary: 'List the company’s SCIM tokens (never the tokens themselves)',
        params: companyIdParamsSchema,
        response: { 200: z.object({ data: z.array(scimTokenSchema) }), ...errors },
      },
    },
    async (request) => ({
      data: await listScimTokens(app.deps, scopeOf(currentUser(request)), request.params.id),
    }),
  );

  r.delete(
    '/:id/scim-tokens/:token_id',
    {
      preHandler: requirePermission('scim_tokens.manage'),
      schema: {
        tags: ['companies'],
        operationId: 'revokeScimToken',
        summary: 'Revoke a SCIM token: its next request is 401',
        params: scimTokenParamsSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await revokeScimTokenOf(
        app.deps,
        scopeOf(currentUser(request)),
        request.params.id,
        request.params.token_id,
        auditActorOf(request),
      );
      return { data: { ok: true as const } };
    },
  );

  r.get(
    '/:id/scim-requests',
    {
      preHandler: requirePermission('scim_tokens.manage'),
      schema: {
        tags: ['companies'],
        operationId: 'listScimRequests',
        summary: 'The company’s last 50 SCIM requests, newest first',
        params: companyIdParamsSchema,
        response: { 200: z.object({ data: z.array(scimRequestSchema) }), ...errors },
      },
    },
    async (request) => ({
      data: await listScimRequests(app.deps, scopeOf(currentUser(request)), request.params.id),
    }),
  );
}
