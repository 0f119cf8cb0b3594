import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createUserBodySchema,
  dataOf,
  errorEnvelopeSchema,
  hrListQuerySchema,
  listOf,
  managedUserSchema,
  okSchema,
  statusChangeBodySchema,
  updateUserBodySchema,
  userIdParamsSchema,
  userListQuerySchema,
} from '@app/contract';
import { auditActorOf } from '../../lib/audit';
import { currentUser, requirePermission } from '../../plugins/auth';
import {
  createUser,
  deleteUser,
  getUser,
  listHrs,
  listUsers,
  setUserStatus,
  updateUser,
  usersScopeOf,
} from './users.service';

const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema };
const notFound = { 404: errorEnvelopeSchema };
const conflict = { 409: errorEnvelopeSchema };

/**
 * User Management: platform users (admin, Group HR) and merchant users at /users for the admin, a
 * merchant's supervisors and staff for its merchant admin (DESIGN 2; usersScopeOf), and the Group
 * HR list at /hrs. Registered under /api/v1. Company admins live at /companies/admin; company
 * admins and employees are not found here.
 */
export default async function usersRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['users'];
  const user = dataOf(managedUserSchema);

  r.get(
    '/users',
    {
      preHandler: requirePermission('users.manage'),
      schema: {
        tags,
        operationId: 'listUsers',
        summary:
          'List platform and merchant users (a merchant admin: its merchant’s supervisors and staff)',
        querystring: userListQuerySchema,
        response: { 200: listOf(managedUserSchema), ...errors },
      },
    },
    async (request) => listUsers(app.deps, usersScopeOf(currentUser(request)), request.query),
  );

  r.post(
    '/users',
    {
      preHandler: requirePermission('users.manage'),
      schema: {
        tags,
        operationId: 'createUser',
        summary:
          'Create an admin, a Group HR user or a merchant user (a merchant admin: its own staff)',
        body: createUserBodySchema,
        response: { 201: user, ...errors, ...notFound, ...conflict },
      },
    },
    async (request, reply) => {
      const created = await createUser(
        app.deps,
        auditActorOf(request),
        usersScopeOf(currentUser(request)),
        request.body,
      );
      return reply.code(201).send({ data: created });
    },
  );

  r.get(
    '/users/:id',
    {
      preHandler: requirePermission('users.manage'),
      schema: {
        tags,
        operationId: 'getUser',
        summary: 'A platform or merchant user',
        params: userIdParamsSchema,
        response: { 200: user, ...errors, ...notFound },
      },
    },
    async (request) => ({
      data: await getUser(app.deps, usersScopeOf(currentUser(request)), request.params.id),
    }),
  );

  r.put(
    '/users/:id',
    {
      preHandler: requirePermission('users.manage'),
      schema: {
        tags,
        operationId: 'updateUser',
        summary:
          'Edit a user (a new password resets it; empty keeps it); the admin edits no merchant supervisor or staff',
        params: userIdParamsSchema,
        body: updateUserBodySchema,
        // 429: one's own password set with wrong current ones, throttled like sign-ins.
        response: { 200: user, ...errors, ...notFound, ...conflict, 429: errorEnvelopeSchema },
      },
    },
    async (request) => ({
      data: await updateUser(
        app.deps,
        auditActorOf(request),
        usersScopeOf(currentUser(request)),
        request.params.id,
        request.body,
      ),
    }),
  );

  r.patch(
    '/users/:id/status',
    {
      preHandler: requirePermission('users.manage'),
      schema: {
        tags,
        operationId: 'updateUserStatus',
        summary: 'Activate or deactivate a user (deactivating ends its sessions)',
        params: userIdParamsSchema,
        body: statusChangeBodySchema,
        response: { 200: user, ...errors, ...notFound },
      },
    },
    async (request) => ({
      data: await setUserStatus(
        app.deps,
        auditActorOf(request),
        usersScopeOf(currentUser(request)),
        request.params.id,
        request.body.status,
      ),
    }),
  );

  r.delete(
    '/users/:id',
    {
      preHandler: requirePermission('users.manage'),
      schema: {
        tags,
        operationId: 'deleteUser',
        summary: 'Delete a user (kept for history, gone from lists and sign-in)',
        params: userIdParamsSchema,
        response: { 200: okSchema, ...errors, ...notFound },
      },
    },
    async (request) => {
      await deleteUser(
        app.deps,
        auditActorOf(request),
        usersScopeOf(currentUser(request)),
        request.params.id,
      );
      return { data: { ok: true as const } };
    },
  );

  r.get(
    '/hrs',
    {
      preHandler: requirePermission('hrs.read'),
      schema: {
        tags,
        operationId: 'listGroupHrs',
        summary: 'List Group HR users',
        querystring: hrListQuerySchema,
        response: { 200: listOf(managedUserSchema), ...errors },
      },
    },
    async (request) => listHrs(app.deps, request.query),
  );
}
