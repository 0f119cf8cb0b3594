// Spending rules' routes (DESIGN 7): a company's rule sets and their preview, an employee's
// exception, the holiday calendar and the declines kept. Each group is registered under its
// resource's prefix in app.ts.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  dataOf,
  errorEnvelopeSchema,
  holidaysQuerySchema,
  holidaysViewSchema,
  listOf,
  okSchema,
  orderDeclineSchema,
  orderDeclinesQuerySchema,
  previewSpendingRulesBodySchema,
  putHolidaysBodySchema,
  putSpendingRulesBodySchema,
  spendingExceptionBodySchema,
  spendingExceptionSchema,
  spendingRulesParamsSchema,
  spendingRulesPreviewSchema,
  spendingRulesViewSchema,
  spendingRuleVersionParamsSchema,
} from '@app/contract';
import { auditActorOf } from '../../lib/audit';
import { scopeOf } from '../../lib/scope';
import { currentUser, requirePermission, requireRecentSignIn } from '../../plugins/auth';
import {
  getHolidays,
  lookupSpendingException,
  getSpendingRules,
  listDeclines,
  previewSpendingRules,
  putHolidays,
  putSpendingException,
  putSpendingRules,
  removeSpendingException,
  withdrawSpendingRules,
} from './spending-rules.service';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
};
const TAGS = ['spending-rules'];

/** /api/v1/companies/{id}/spending-rules. */
export async function companySpendingRulesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/:id/spending-rules',
    {
      preHandler: requirePermission('spending_rules.read'),
      schema: {
        tags: TAGS,
        operationId: 'getSpendingRules',
        summary:
          'A company’s spending rules: the version in force today, the scheduled ones, the past',
        params: spendingRulesParamsSchema,
        response: { 200: dataOf(spendingRulesViewSchema), ...errors },
      },
    },
    async (request) => ({
      data: await getSpendingRules(app.deps, scopeOf(currentUser(request)), request.params.id),
    }),
  );
  r.put(
    '/:id/spending-rules',
    {
      // Step-up (DESIGN 9): a change of what employees may spend.
      preHandler: [requirePermission('spending_rules.manage'), requireRecentSignIn],
      schema: {
        tags: TAGS,
        operationId: 'putSpendingRules',
        summary:
          'Add a version of the rules taking effect at 00:00 of effective_from (today or later); the same date replaces it',
        params: spendingRulesParamsSchema,
        body: putSpendingRulesBodySchema,
        response: { 200: dataOf(spendingRulesViewSchema), ...errors },
      },
    },
    async (request) => ({
      data: await putSpendingRules(
        app.deps,
        auditActorOf(request),
        scopeOf(currentUser(request)),
        request.params.id,
        request.body,
      ),
    }),
  );
  r.delete(
    '/:id/spending-rules/:effective_from',
    {
      // Step-up (DESIGN 9): a change of what employees may spend.
      preHandler: [requirePermission('spending_rules.manage'), requireRecentSignIn],
      schema: {
        tags: TAGS,
        operationId: 'withdrawSpendingRules',
        summary: 'Withdraw a scheduled version (the one in force and the past are kept)',
        params: spendingRuleVersionParamsSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await withdrawSpendingRules(
        app.deps,
        auditActorOf(request),
        scopeOf(currentUser(request)),
        request.params.id,
        request.params.effective_from,
      );
      return { data: { ok: true as const } };
    },
  );
  r.post(
    '/:id/spending-rules/preview',
    {
      preHandler: requirePermission('spending_rules.manage'),
      schema: {
        tags: TAGS,
        operationId: 'previewSpendingRules',
        summary:
          'Replay the company’s last 30 days of orders against candidate rules; writes nothing',
        params: spendingRulesParamsSchema,
        body: previewSpendingRulesBodySchema,
        response: { 200: dataOf(spendingRulesPreviewSchema), ...errors },
      },
    },
    async (request) => ({
      data: (await previewSpendingRules(
        app.deps,
        scopeOf(currentUser(request)),
        request.params.id,
        request.body.rules,
      )) as never,
    }),
  );
}

/** /api/v1/employees/{id}/spending-exception. */
export async function employeeSpendingExceptionRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/:id/spending-exception',
    {
      preHandler: requirePermission('spending_rules.read'),
      schema: {
        tags: TAGS,
        operationId: 'getSpendingException',
        summary: 'An employee’s exception to its company’s rules, or null',
        params: spendingRulesParamsSchema,
        response: { 200: dataOf(spendingExceptionSchema.nullable()), ...errors },
      },
    },
    async (request) => ({
      data: await lookupSpendingException(
        app.deps,
        scopeOf(currentUser(request)),
        request.params.id,
      ),
    }),
  );
  r.put(
    '/:id/spending-exception',
    {
      // Step-up (DESIGN 9): a change of what employees may spend.
      preHandler: [requirePermission('spending_rules.manage'), requireRecentSignIn],
      schema: {
        tags: TAGS,
        operationId: 'putSpendingException',
        summary: 'Set an employee’s exception (weekdays, holidays, daily limit, until a date)',
        params: spendingRulesParamsSchema,
        body: spendingExceptionBodySchema,
        response: { 200: dataOf(spendingExceptionSchema), ...errors },
      },
    },
    async (request) => ({
      data: await putSpendingException(
        app.deps,
        auditActorOf(request),
        scopeOf(currentUser(request)),
        request.params.id,
        request.body,
      ),
    }),
  );
  r.delete(
    '/:id/spending-exception',
    {
      // Step-up (DESIGN 9): a change of what employees may spend.
      preHandler: [requirePermission('spending_rules.manage'), requireRecentSignIn],
      schema: {
        tags: TAGS,
        operationId: 'removeSpendingException',
        summary: 'Remove an employee’s exception',
        params: spendingRulesParamsSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await removeSpendingException(
        app.deps,
        auditActorOf(request),
        scopeOf(currentUser(request)),
        request.params.id,
      );
      return { data: { ok: true as const } };
    },
  );
}

/** /api/v1/sys/holidays. */
export async function holidaysRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/holidays',
    {
      preHandler: requirePermission('holidays.read'),
      schema: {
        tags: TAGS,
        operationId: 'getHolidays',
        summary: 'The public holidays of a year',
        querystring: holidaysQuerySchema,
        response: { 200: dataOf(holidaysViewSchema), ...errors },
      },
    },
    async (request) => ({ data: await getHolidays(app.deps, request.query.year) }),
  );
  r.put(
    '/holidays',
    {
      preHandler: requirePermission('holidays.manage'),
      schema: {
        tags: TAGS,
        operationId: 'putHolidays',
        summary: 'Replace the public holidays of a year',
        body: putHolidaysBodySchema,
        response: { 200: dataOf(holidaysViewSchema), ...errors },
      },
    },
    async (request) => ({ data: await putHolidays(app.deps, auditActorOf(request), request.body) }),
  );
}

/** /api/v1/orders/declines. */
export async function declinesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/declines',
    {
      preHandler: requirePermission('orders.declines'),
      schema: {
        tags: TAGS,
        operationId: 'listOrderDeclines',
        summary:
          'Orders refused by a spending rule or the balance, newest first, in the caller’s scope',
        querystring: orderDeclinesQuerySchema,
        response: { 200: listOf(orderDeclineSchema), ...errors },
      },
    },
    async (request) => listDeclines(app.deps, scopeOf(currentUser(request)), request.query),
  );
}
