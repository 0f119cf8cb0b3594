import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  acceptInvitationBodySchema,
  companyAdminParamsSchema,
  dataOf,
  errorEnvelopeSchema,
  invitationInfoSchema,
  invitationLookupBodySchema,
  invitationSchema,
  inviteCompanyAdminBodySchema,
  inviteUserBodySchema,
  userIdParamsSchema,
} from '@app/contract';
import { auditActorOf } from '../../lib/audit';
import { currentUser, requirePermission } from '../../plugins/auth';
import { usersScopeOf } from '../users';
import {
  acceptInvitation,
  inviteCompanyAdmin,
  inviteUser,
  lookUpInvitation,
  resendCompanyAdminInvitation,
  resendUserInvitation,
  type InviteContext,
} from './invitations.service';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
};

/** The origin the admin reached the app at (behind a trusted proxy: its forwarded one). */
const contextOf = (request: FastifyRequest): InviteContext => ({
  origin: `${request.protocol}://${request.host}`,
  log: request.log,
});

/**
 * Invitations: /api/v1/users/invitations, /companies/admin/invitations, a new link for an account
 * without a password at /users/{id}/invitations and /companies/admin/{user_id}/invitations, and
 * the public /iam/invitations/*.
 */
export default async function invitationsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/users/invitations',
    {
      preHandler: requirePermission('users.manage'),
      schema: {
        tags: ['users'],
        operationId: 'inviteUser',
        summary:
          'Create a user without a password and return a one-time set-password link (emailed when SMTP is configured)',
        body: inviteUserBodySchema,
        response: { 201: dataOf(invitationSchema), ...errors },
      },
    },
    async (request, reply) => {
      const invitation = await inviteUser(
        app.deps,
        auditActorOf(request),
        usersScopeOf(currentUser(request)),
        request.body,
        contextOf(request),
      );
      return reply.code(201).send({ data: invitation });
    },
  );

  r.post(
    '/companies/admin/invitations',
    {
      preHandler: requirePermission('company_admins.manage'),
      schema: {
        tags: ['company admins'],
        operationId: 'inviteCompanyAdmin',
        summary:
          'Create a company admin without a password and return a one-time set-password link',
        body: inviteCompanyAdminBodySchema,
        response: { 201: dataOf(invitationSchema), ...errors },
      },
    },
    async (request, reply) => {
      const invitation = await inviteCompanyAdmin(
        app.deps,
        auditActorOf(request),
        request.body,
        contextOf(request),
      );
      return reply.code(201).send({ data: invitation });
    },
  );

  r.post(
    '/users/:id/invitations',
    {
      preHandler: requirePermission('users.manage'),
      schema: {
        tags: ['users'],
        operationId: 'resendUserInvitation',
        summary:
          'A new set-password link for a user without a password: the open one stops working (409 INVITATION_NOT_PENDING once a password is set)',
        params: userIdParamsSchema,
        response: { 201: dataOf(invitationSchema), ...errors },
      },
    },
    async (request, reply) => {
      const invitation = await resendUserInvitation(
        app.deps,
        auditActorOf(request),
        usersScopeOf(currentUser(request)),
        request.params.id,
        contextOf(request),
      );
      return reply.code(201).send({ data: invitation });
    },
  );

  r.post(
    '/companies/admin/:user_id/invitations',
    {
      preHandler: requirePermission('company_admins.manage'),
      schema: {
        tags: ['company admins'],
        operationId: 'resendCompanyAdminInvitation',
        summary:
          'A new set-password link for a company admin without a password: the open one stops working (409 INVITATION_NOT_PENDING once a password is set)',
        params: companyAdminParamsSchema,
        response: { 201: dataOf(invitationSchema), ...errors },
      },
    },
    async (request, reply) => {
      const invitation = await resendCompanyAdminInvitation(
        app.deps,
        auditActorOf(request),
        request.params.user_id,
        contextOf(request),
      );
      return reply.code(201).send({ data: invitation });
    },
  );

  r.post(
    '/iam/invitations/lookup',
    {
      // Whoever holds the link; a signed-in browser still sends its CSRF token (auth plugin).
      config: { public: true },
      schema: {
        tags: ['iam'],
        operationId: 'lookupInvitation',
        summary:
          'Whose open set-password link this is (410 INVITATION_INVALID when used or expired)',
        body: invitationLookupBodySchema,
        response: {
          200: dataOf(invitationInfoSchema),
          400: errorEnvelopeSchema,
          // INVITATION_ACCOUNT_INACTIVE: the account was deactivated (decision 0070).
          403: errorEnvelopeSchema,
          410: errorEnvelopeSchema,
        },
      },
    },
    async (request) => ({ data: await lookUpInvitation(app.deps, request.body.token) }),
  );

  r.post(
    '/iam/invitations/accept',
    {
      config: { public: true },
      schema: {
        tags: ['iam'],
        operationId: 'acceptInvitation',
        summary: 'Set the password with a one-time link; the link is spent',
        body: acceptInvitationBodySchema,
        response: {
          200: dataOf(invitationInfoSchema.extend({ ok: z.literal(true) })),
          400: errorEnvelopeSchema,
          403: errorEnvelopeSchema,
          410: errorEnvelopeSchema,
        },
      },
    },
    async (request) => ({
      data: {
        ok: true as const,
        ...(await acceptInvitation(app.deps, request.body, request.ip || null)),
      },
    }),
  );
}
