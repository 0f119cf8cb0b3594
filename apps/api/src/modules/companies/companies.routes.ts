import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  companyIdParamsSchema,
  companyListQuerySchema,
  companySchema,
  createCompanyBodySchema,
  dataOf,
  errorEnvelopeSchema,
  listOf,
  statusChangeBodySchema,
  updateCompanyBodySchema,
} from '@app/contract';
import { auditActorOf } from '../../lib/audit';
import { scopeOf } from '../../lib/scope';
import { currentUser, requirePermission } from '../../plugins/auth';
import {
  createCompany,
  getCompany,
  listCompanies,
  setCompanyStatus,
  updateCompanyDetails,
} from './companies.service';

const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema };

/** /api/v1/companies: list, create, read, update and status; every change is audit-logged. */
export default async function companiesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/',
    {
      preHandler: requirePermission('companies.write'),
      schema: {
        tags: ['companies'],
        operationId: 'createCompany',
        summary: 'Create a company; its init_token is credited for its first token month',
        body: createCompanyBodySchema,
        response: { 201: dataOf(companySchema), 409: errorEnvelopeSchema, ...errors },
      },
    },
    async (request, reply) => {
      currentUser(request);
      const company = await createCompany(app.deps, auditActorOf(request), request.body);
      return reply.code(201).send({ data: company });
    },
  );

  r.get(
    '/',
    {
      preHandler: requirePermission('companies.read'),
      schema: {
        tags: ['companies'],
        operationId: 'listCompanies',
        summary: 'List companies within the caller’s scope; search matches code or name',
        querystring: companyListQuerySchema,
        response: { 200: listOf(companySchema), ...errors },
      },
    },
    async (request) => listCompanies(app.deps, scopeOf(currentUser(request)), request.query),
  );

  r.get(
    '/:id',
    {
      preHandler: requirePermission('companies.read'),
      schema: {
        tags: ['companies'],
        operationId: 'getCompany',
        summary: 'A company and its wallet',
        params: companyIdParamsSchema,
        response: { 200: dataOf(companySchema), 404: errorEnvelopeSchema, ...errors },
      },
    },
    async (request) => ({
      data: await getCompany(app.deps, scopeOf(currentUser(request)), request.params.id),
    }),
  );

  r.put(
    '/:id',
    {
      preHandler: requirePermission('companies.write'),
      schema: {
        tags: ['companies'],
        operationId: 'updateCompany',
        summary:
          'Update a company’s name, status, reset day and monthly plan (the code is immutable)',
        params: companyIdParamsSchema,
        body: updateCompanyBodySchema,
        response: { 200: dataOf(companySchema), 404: errorEnvelopeSchema, ...errors },
      },
    },
    async (request) => ({
      data: await updateCompanyDetails(
        app.deps,
        auditActorOf(request),
        scopeOf(currentUser(request)),
        request.params.id,
        request.body,
      ),
    }),
  );

  r.patch(
    '/:id/status',
    {
      preHandler: requirePermission('companies.write'),
      schema: {
        tags: ['companies'],
        operationId: 'updateCompanyStatus',
        summary: 'Activate or deactivate a company',
        params: companyIdParamsSchema,
        body: statusChangeBodySchema,
        response: { 200: dataOf(companySchema), 404: errorEnvelopeSchema, ...errors },
      },
    },
    async (request) => ({
      data: await setCompanyStatus(
        app.deps,
        scopeOf(currentUser(request)),
        request.params.id,
        request.body.status,
        auditActorOf(request),
      ),
    }),
  );
}
