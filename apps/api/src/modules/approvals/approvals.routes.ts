import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  approvalIdParamsSchema,
  approvalListQuerySchema,
  approvalPolicyBodySchema,
  approvalPolicySchema,
  approvalSchema,
  approveApprovalBodySchema,
  dataOf,
  errorEnvelopeSchema,
  listOf,
  rejectApprovalBodySchema,
} from '@app/contract';
import { auditActorOf } from '../../lib/audit';
import { answerOnce, requiredIdempotencyKeyHeaders } from '../../lib/idempotency';
import { within } from '../../lib/transaction';
import { currentUser, requirePermission, requireRecentSignIn } from '../../plugins/auth';
import {
  approveApproval,
  getApprovalPolicy,
  listApprovals,
  rejectApproval,
  setApprovalPolicy,
} from './approvals.service';

const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema };
const tags = ['approvals'];

/** /api/v1/approvals: the requests waiting for a second person, and their decisions. */
export default async function approvalsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/',
    {
      preHandler: requirePermission('approvals.decide'),
      schema: {
        tags,
        operationId: 'listApprovals',
        summary:
          'Approvals in the caller’s scope, newest first; `status` filters (several joined by commas)',
        querystring: approvalListQuerySchema,
        response: { 200: listOf(approvalSchema), ...errors },
      },
    },
    async (request) => listApprovals(app.deps, currentUser(request), request.query),
  );

  r.post(
    '/:id/approve',
    {
      // Step-up (DESIGN 9): approving moves the money.
      preHandler: [requirePermission('approvals.decide'), requireRecentSignIn],
      schema: {
        tags,
        operationId: 'approveApproval',
        summary:
          'Approve a pending request: it is applied now, once, with the balances of this moment',
        headers: requiredIdempotencyKeyHeaders,
        params: approvalIdParamsSchema,
        body: approveApprovalBodySchema.nullish(),
        response: {
          200: dataOf(approvalSchema),
          404: errorEnvelopeSchema,
          409: errorEnvelopeSchema,
          422: errorEnvelopeSchema,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { id } = request.params;
      const answer = await answerOnce(
        app.deps,
        {
          userId: user.id,
          headers: request.headers,
          path: `/approvals/${id}/approve`,
          body: request.body ?? {},
        },
        async (tx) => ({
          status: 200,
          body: {
            data: await approveApproval(
              app.deps,
              user,
              auditActorOf(request),
              id,
              request.body ?? undefined,
              within(tx),
            ),
          },
        }),
      );
      return reply.code(answer.status).send(answer.body as never);
    },
  );

  r.post(
    '/:id/reject',
    {
      preHandler: requirePermission('approvals.decide'),
      schema: {
        tags,
        operationId: 'rejectApproval',
        summary: 'Reject a pending request with a reason; nothing is applied',
        headers: requiredIdempotencyKeyHeaders,
        params: approvalIdParamsSchema,
        body: rejectApprovalBodySchema,
        response: {
          200: dataOf(approvalSchema),
          404: errorEnvelopeSchema,
          409: errorEnvelopeSchema,
          422: errorEnvelopeSchema,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { id } = request.params;
      const answer = await answerOnce(
        app.deps,
        {
          userId: user.id,
          headers: request.headers,
          path: `/approvals/${id}/reject`,
          body: request.body,
        },
        async (tx) => ({
          status: 200,
          body: {
            data: await rejectApproval(
              app.deps,
              user,
              auditActorOf(request),
              id,
              request.body,
              within(tx),
            ),
          },
        }),
      );
      return reply.code(answer.status).send(answer.body as never);
    },
  );
}

/** /api/v1/sys/approval-policy: the thresholds (admin). */
export async function approvalPolicyRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/approval-policy',
    {
      preHandler: requirePermission('sys.manage'),
      schema: {
        tags,
        operationId: 'getApprovalPolicy',
        summary: 'The four-eyes thresholds (null: that rule is off)',
        response: { 200: dataOf(approvalPolicySchema), ...errors },
      },
    },
    async () => ({ data: await getApprovalPolicy(app.deps) }),
  );

  r.put(
    '/approval-policy',
    {
      // Step-up too (decision 0083): a session left open could otherwise turn four-eyes off,
      // and then move any amount without approval and without a step-up.
      preHandler: [requirePermission('sys.manage'), requireRecentSignIn],
      schema: {
        tags,
        operationId: 'setApprovalPolicy',
        summary:
          'Set the four-eyes thresholds: a top-up or distribution whose total reaches one waits for approval',
        body: approvalPolicyBodySchema,
        response: { 200: dataOf(approvalPolicySchema), ...errors },
      },
    },
    async (request) => ({
      data: await setApprovalPolicy(app.deps, auditActorOf(request), request.body),
    }),
  );
}
