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
import { answerOnce, requiredIdempotencyKeyHeaders } from '../../lib/idempotency';
import { within } from '../../lib/transaction';
import { scopeOf } from '../../lib/scope';
import { currentUser, requirePermission } from '../../plugins/auth';
import { listTransactions } from '../transactions';
import {
  distributeOrRequestApproval,
  getTokenConfiguration,
  topUpOrRequestApproval,
  type Outcome,
  updateTokenConfiguration,
} from './tokens.service';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
};

/** The answers of a money request: 422 when its Idempotency-Key came with another request. */
const moneyErrors = { 409: errorEnvelopeSchema, 422: errorEnvelopeSchema, ...errors };

/** What the route answers for an outcome: 200 applied, or 202 with the pending approval. */
const answerOf = <T>(outcome: Outcome<T>) =>
  'approval' in outcome
    ? { status: 202, body: { data: { approval: outcome.approval } } }
    : { status: 200, body: { data: outcome.applied } };

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
        headers: requiredIdempotencyKeyHeaders,
        body: topupCompanyBodySchema,
        response: {
          200: dataOf(topupCompanyResultSchema),
          202: approvalRequestedSchema,
          ...moneyErrors,
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const answer = await answerOnce(
        app.deps,
        {
          userId: user.id,
          headers: request.headers,
          path: '/tokens/topup-token',
          body: request.body,
        },
        async (tx) =>
          answerOf(
            await topUpOrRequestApproval(
              app.deps,
              user,
              auditActorOf(request),
              request.body,
              within(tx),
            ),
          ),
      );
      return reply.code(answer.status).send(answer.body as never);
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
        headers: requiredIdempotencyKeyHeaders,
        body: distributeBodySchema,
        response: {
          200: dataOf(distributeResultSchema),
          202: approvalRequestedSchema,
          ...moneyErrors,
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const answer = await answerOnce(
        app.deps,
        {
          userId: user.id,
          headers: request.headers,
          path: '/tokens/topup-token/employees',
          body: request.body,
        },
        async (tx) =>
          answerOf(
            await distributeOrRequestApproval(
              app.deps,
              user,
              scopeOf(user),
              auditActorOf(request),
              request.body,
              within(tx),
            ),
          ),
      );
      return reply.code(answer.status).send(answer.body as never);
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
