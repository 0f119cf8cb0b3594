// Pay devices' routes (DESIGN 8): the employee's own under /me, its company admin's under
// /employees/{id}. Registered under their prefixes in app.ts.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  dataOf,
  employeePayDeviceParamsSchema,
  errorEnvelopeSchema,
  idSchema,
  okSchema,
  payDeviceParamsSchema,
  payDeviceSchema,
  registeredPayDeviceSchema,
  registerPayDeviceBodySchema,
} from '@app/contract';
import { auditActorOf } from '../../lib/audit';
import { scopeOf } from '../../lib/scope';
import { currentUser, requirePermission } from '../../plugins/auth';
import {
  listEmployeePayDevices,
  listOwnPayDevices,
  registerPayDevice,
  removeEmployeePayDevice,
  removeOwnPayDevice,
} from './pay-codes.service';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
};
const TAGS = ['pay-codes'];

/** /api/v1/me/pay-devices: the signed-in employee's phones. */
export async function ownPayDevicesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/pay-devices',
    {
      preHandler: requirePermission('pay_devices.self'),
      schema: {
        tags: TAGS,
        operationId: 'listOwnPayDevices',
        summary: 'The signed-in employee’s pay devices (never their secrets)',
        response: { 200: dataOf(z.array(payDeviceSchema)), ...errors },
      },
    },
    async (request) => ({
      data: await listOwnPayDevices(app.deps, scopeOf(currentUser(request))),
    }),
  );
  r.post(
    '/pay-devices',
    {
      preHandler: requirePermission('pay_devices.self'),
      schema: {
        tags: TAGS,
        operationId: 'registerPayDevice',
        summary: 'Register a phone to pay with: its secret is answered this once (at most 3)',
        body: registerPayDeviceBodySchema,
        response: { 201: dataOf(registeredPayDeviceSchema), ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send({
        data: await registerPayDevice(
          app.deps,
          scopeOf(currentUser(request)),
          request.body,
          auditActorOf(request),
        ),
      }),
  );
  r.delete(
    '/pay-devices/:device_id',
    {
      preHandler: requirePermission('pay_devices.self'),
      schema: {
        tags: TAGS,
        operationId: 'removeOwnPayDevice',
        summary: 'Remove one of the signed-in employee’s pay devices: its codes stop at once',
        params: payDeviceParamsSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await removeOwnPayDevice(
        app.deps,
        scopeOf(currentUser(request)),
        request.params.device_id,
        auditActorOf(request),
      );
      return { data: { ok: true as const } };
    },
  );
}

/** /api/v1/employees/{id}/pay-devices: an employee's phones, for its company's admins. */
export async function employeePayDevicesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/:id/pay-devices',
    {
      preHandler: requirePermission('pay_devices.manage'),
      schema: {
        tags: TAGS,
        operationId: 'listEmployeePayDevices',
        summary: 'An employee’s pay devices',
        params: z.object({ id: idSchema }),
        response: { 200: dataOf(z.array(payDeviceSchema)), ...errors },
      },
    },
    async (request) => ({
      data: await listEmployeePayDevices(
        app.deps,
        scopeOf(currentUser(request)),
        request.params.id,
      ),
    }),
  );
  r.delete(
    '/:id/pay-devices/:device_id',
    {
      preHandler: requirePermission('pay_devices.manage'),
      schema: {
        tags: TAGS,
        operationId: 'removeEmployeePayDevice',
        summary: 'Remove an employee’s pay device (a lost phone): its codes stop at once',
        params: employeePayDeviceParamsSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await removeEmployeePayDevice(
        app.deps,
        scopeOf(currentUser(request)),
        request.params.id,
        request.params.device_id,
        auditActorOf(request),
      );
      return { data: { ok: true as const } };
    },
  );
}
