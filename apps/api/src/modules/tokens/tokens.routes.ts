import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  approvalRequestedSchema,
  cursorListOf,
  dataOf,
  distributeBodySchema,
  distributeResultSchema,
  errorEnvelopeSchema,
  tokenConfigurationQuerySchema,
  tokenConfigurationSchema,
  tokenTransactionSchema,
  topupCompanyBodySchema,
  topupCompanyResultSchema,
  transactionListQuerySchema,
  updateTokenConfigurationBodySchema,
} from '@app/contract';
import { auditActorOf } from '../../lib/audit';
import { scopeOf } from '../../lib/scope';
import { currentUser, requirePermission } from '../../plugins/auth';
import { listTransactions } from '../transactions/transactions.service';
import {
  distributeOrRequestApproval,
  getTokenConfiguration,
  topUpOrRequestApproval,
  updateTokenConfiguration,
} from './tokens.service';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
};

/** /api/v1/tokens: issuing, distributing, the monthly plan and the ledger itself. */
export default async function tokensRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/topup-token',
    {
      preHandler: requirePermission('tokens.issue_company'),
      schema: {
        tags: ['tokens'],
        operationId: 'issueCompanyTokens',
        summary:
          'Issue tokens to a company (company_issued); at or above the approval threshold it answers 202 with the pending approval and moves no token',
        body: topupCompanyBodySchema,
        response: {
          200: dataOf(topupCompanyResultSchema),
          202: approvalRequestedSchema,
          409: errorEnvelopeSchema,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const outcome = await topUpOrRequestApproval(
        app.deps,
        currentUser(request),
        auditActorOf(request),
        request.body,
      );
      if ('approval' in outcome)
        return reply.code(202).send({ data: { approval: outcome.approval } });
      return { data: outcome.applied };
    },
  );

  r.post(
    '/topup-token/employees',
    {
      preHandler: requirePermission('tokens.distribute'),
      schema: {
        tags: ['tokens'],
        operationId: 'distributeTokens',
        summary:
          'Distribute tokens from the company to employees, all or nothing; at or above the approval threshold it answers 202 with the pending approval and moves no token',
        body: distributeBodySchema,
        response: {
          200: dataOf(distributeResultSchema),
          202: approvalRequestedSchema,
          409: errorEnvelopeSchema,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const outcome = await distributeOrRequestApproval(
        app.deps,
        user,
        scopeOf(user),
        auditActorOf(request),
        request.body,
      );
      if ('approval' in outcome)
        return reply.code(202).send({ data: { approval: outcome.approval } });
      return { data: outcome.applied };
    },
  );

  r.get(
    '/configuration',
    {
      preHandler: requirePermission('tokens.configuration'),
      schema: {
        tags: ['tokens'],
        operationId: 'getTokenConfiguration',
        summary: 'A company’s monthly plan (admin and HR pass company_id)',
        querystring: tokenConfigurationQuerySchema,
        response: { 200: dataOf(tokenConfigurationSchema), ...errors },
      },
    },
    async (request) => ({
      data: await getTokenConfiguration(
        app.deps,
        scopeOf(currentUser(request)),
        request.query.company_id,
      ),
    }),
  );

  r.put(
    '/configuration',
    {
      preHandler: requirePermission('tokens.configuration'),
      schema: {
        tags: ['tokens'],
        operationId: 'updateTokenConfiguration',
        summary:
          'Change a company’s monthly plan; reset day and allocations are for admin and HR only',
        body: updateTokenConfigurationBodySchema,
        response: { 200: dataOf(tokenConfigurationSchema), ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return {
        data: await updateTokenConfiguration(
          app.deps,
          user,
          scopeOf(user),
          request.body,
          auditActorOf(request),
        ),
      };
    },
  );

  r.get(
    '/transactions',
    {
      preHandler: requirePermission('tokens.transactions'),
      schema: {
        tags: ['tokens'],
        operationId: 'listTransactions',
        summary: 'Ledger rows within the caller’s scope, newest first, cursor-paged',
        querystring: transactionListQuerySchema,
        response: { 200: cursorListOf(tokenTransactionSchema), ...errors },
      },
    },
    async (request) => listTransactions(app.deps, scopeOf(currentUser(request)), request.query),
  );
}
