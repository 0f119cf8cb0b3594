import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  companyAdminListQuerySchema,
  companyAdminParamsSchema,
  createCompanyAdminBodySchema,
  dataOf,
  errorEnvelopeSchema,
  listOf,
  managedUserSchema,
  statusChangeBodySchema,
  updateCompanyAdminBodySchema,
} from '@app/contract';
import { auditActorOf } from '../../lib/audit';
import { requirePermission } from '../../plugins/auth';
import {
  createCompanyAdmin,
  listCompanyAdmins,
  setCompanyAdminStatus,
  updateCompanyAdmin,
} from './company-admins.service';

const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema };
const notFound = { 404: errorEnvelopeSchema };
const conflict = { 409: errorEnvelopeSchema };

/**
 * Company admins (admin, Group HR): /api/v1/companies/admin. Its own plugin so the static
 * `admin` segment is routed here before the companies module's `/companies/:id`.
 */
export default async function companyAdminsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['company admins'];
  const companyAdmin = dataOf(managedUserSchema);

  r.get(
    '/',
    {
      preHandler: requirePermission('company_admins.manage'),
      schema: {
        tags,
        operationId: 'listCompanyAdmins',
        summary: 'List company admins (company, search, status, paging)',
        querystring: companyAdminListQuerySchema,
        response: { 200: listOf(managedUserSchema), ...errors },
      },
    },
    async (request) => listCompanyAdmins(app.deps, request.query),
  );

  r.post(
    '/',
    {
      preHandler: requirePermission('company_admins.manage'),
      schema: {
        tags,
        operationId: 'createCompanyAdmin',
        summary: 'Create a company admin for an existing company',
        body: createCompanyAdminBodySchema,
        response: { 201: companyAdmin, ...errors, ...notFound, ...conflict },
      },
    },
    async (request, reply) => {
      const created = await createCompanyAdmin(app.deps, auditActorOf(request), request.body);
      return reply.code(201).send({ data: created });
    },
  );

  r.put(
    '/:user_id',
    {
      preHandler: requirePermission('company_admins.manage'),
      schema: {
        tags,
        operationId: 'updateCompanyAdmin',
        summary: 'Edit a company admin; an empty password keeps the current one',
        params: companyAdminParamsSchema,
        body: updateCompanyAdminBodySchema,
        // 429: one's own password set with wrong current ones (updateAccount), as on /users.
        response: {
          200: companyAdmin,
          ...errors,
          ...notFound,
          ...conflict,
          429: errorEnvelopeSchema,
        },
      },
    },
    async (request) => ({
      data: await updateCompanyAdmin(
        app.deps,
        auditActorOf(request),
        request.params.user_id,
        request.body,
      ),
    }),
  );

  r.patch(
    '/:user_id/status',
    {
      preHandler: requirePermission('company_admins.manage'),
      schema: {
        tags,
        operationId: 'updateCompanyAdminStatus',
        summary: 'Activate or deactivate a company admin (deactivating ends its sessions)',
        params: companyAdminParamsSchema,
        body: statusChangeBodySchema,
        response: { 200: companyAdmin, ...errors, ...notFound },
      },
    },
    async (request) => ({
      data: await setCompanyAdminStatus(
        app.deps,
        auditActorOf(request),
        request.params.user_id,
        request.body.status,
      ),
    }),
  );
}
