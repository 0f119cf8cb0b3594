import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createEmployeeBodySchema,
  dataOf,
  employeeIdParamsSchema,
  employeeListQuerySchema,
  employeeSchema,
  errorEnvelopeSchema,
  listOf,
  okSchema,
  statusChangeBodySchema,
  updateEmployeeBodySchema,
} from '@app/contract';
import { auditActorOf } from '../../lib/audit';
import { scopeOf } from '../../lib/scope';
import { currentUser, requirePermission } from '../../plugins/auth';
import {
  createEmployee,
  deleteEmployee,
  getEmployee,
  listEmployees,
  renewEmployee,
  setEmployeeStatus,
  updateEmployee,
} from './employees.service';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
};

/** /api/v1/employees: create, read, update, delete, status and renewal (CSV import: employee-import). */
export default async function employeesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/',
    {
      preHandler: requirePermission('employees.write'),
      schema: {
        tags: ['employees'],
        operationId: 'createEmployee',
        summary: 'Add an employee to the company’s current token month',
        body: createEmployeeBodySchema,
        response: { 201: dataOf(employeeSchema), 409: errorEnvelopeSchema, ...errors },
      },
    },
    async (request, reply) => {
      const employee = await createEmployee(
        app.deps,
        scopeOf(currentUser(request)),
        request.body,
        auditActorOf(request),
      );
      return reply.code(201).send({ data: employee });
    },
  );

  r.get(
    '/',
    {
      preHandler: requirePermission('employees.read'),
      schema: {
        tags: ['employees'],
        operationId: 'listEmployees',
        summary: 'List employees within the caller’s scope (admin and HR filter by company_id)',
        querystring: employeeListQuerySchema,
        response: { 200: listOf(employeeSchema), ...errors },
      },
    },
    async (request) => listEmployees(app.deps, scopeOf(currentUser(request)), request.query),
  );

  r.get(
    '/:id',
    {
      preHandler: requirePermission('employees.read'),
      schema: {
        tags: ['employees'],
        operationId: 'getEmployee',
        summary: 'An employee and its wallet',
        params: employeeIdParamsSchema,
        response: { 200: dataOf(employeeSchema), ...errors },
      },
    },
    async (request) => ({
      data: await getEmployee(app.deps, scopeOf(currentUser(request)), request.params.id),
    }),
  );

  r.put(
    '/:id',
    {
      preHandler: requirePermission('employees.write'),
      schema: {
        tags: ['employees'],
        operationId: 'updateEmployee',
        summary: 'Change an employee’s staff number, name, email, status or monthly amount',
        params: employeeIdParamsSchema,
        body: updateEmployeeBodySchema,
        response: { 200: dataOf(employeeSchema), 409: errorEnvelopeSchema, ...errors },
      },
    },
    async (request) => ({
      data: await updateEmployee(
        app.deps,
        scopeOf(currentUser(request)),
        request.params.id,
        request.body,
        auditActorOf(request),
      ),
    }),
  );

  r.delete(
    '/:id',
    {
      preHandler: requirePermission('employees.write'),
      schema: {
        tags: ['employees'],
        operationId: 'deleteEmployee',
        summary: 'Delete an employee (its ledger history stays; decision 0008)',
        params: employeeIdParamsSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await deleteEmployee(
        app.deps,
        scopeOf(currentUser(request)),
        request.params.id,
        auditActorOf(request),
      );
      return { data: { ok: true as const } };
    },
  );

  r.patch(
    '/:id/status',
    {
      preHandler: requirePermission('employees.write'),
      schema: {
        tags: ['employees'],
        operationId: 'updateEmployeeStatus',
        summary: 'Activate or deactivate an employee',
        params: employeeIdParamsSchema,
        body: statusChangeBodySchema,
        response: { 200: dataOf(employeeSchema), ...errors },
      },
    },
    async (request) => ({
      data: await setEmployeeStatus(
        app.deps,
        scopeOf(currentUser(request)),
        request.params.id,
        request.body.status,
        auditActorOf(request),
      ),
    }),
  );

  r.post(
    '/:id/renew',
    {
      preHandler: requirePermission('employees.write'),
      schema: {
        tags: ['employees'],
        operationId: 'renewEmployee',
        summary: 'Renew an employee who missed a reset into the current token month',
        params: employeeIdParamsSchema,
        response: { 200: dataOf(employeeSchema), 409: errorEnvelopeSchema, ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return {
        data: await renewEmployee(app.deps, scopeOf(user), request.params.id, user.id),
      };
    },
  );
}
