import { z } from 'zod';
import { APPROVAL_KINDS, APPROVAL_STATUSES } from './approvals';
import { ORDER_STATUSES, STATUSES } from './constants';
import { REFUND_REASONS } from './events';
import type { WebhookEventType } from './webhooks';

/**
 * What each webhook event's `data` holds (decisions 0038 and 0084): the API writes these shapes,
 * the OpenAPI document's `webhooks` section is made from them, and the tests check every body a
 * receiver gets against that section. Never a wallet balance. Fields may be added (an integrator
 * ignores what it does not know); none is renamed or removed within /api/v1.
 */

const int = () => z.number().int();
const instant = (description: string) =>
  z.string().meta({ format: 'date-time' }).describe(`${description} (ISO 8601, UTC)`);

export const orderEventDataSchema = z.object({
  order_id: int().describe('The order’s id (`GET /api/v1/orders/{id}` and the refund path)'),
  order_no: z.string().describe('The order’s number, as on the receipt'),
  merchant_code: z.string().nullable(),
  terminal_code: z.string().nullable(),
  company_code: z.string(),
  employee_id: z.string().describe('The employee’s staff number in its company'),
  subtotal: int().describe('Tokens the order cost'),
  refunded_amount: int().describe('Tokens refunded so far, this refund included'),
  status: z.enum(ORDER_STATUSES),
  ordered_at: instant('When the order was placed'),
});

export const orderRefundedEventDataSchema = orderEventDataSchema.extend({
  refund_amount: int().describe('Tokens this refund gave back'),
  refund_reason: z.enum(REFUND_REASONS),
});

export const tokensIssuedEventDataSchema = z.object({
  company_code: z.string(),
  transaction_id: int().describe('The ledger row of the top-up'),
  amount: int(),
  period: z.string().describe('The company’s token month, YYYY-MM'),
  issued_at: instant('When the tokens were issued'),
});

export const tokensDistributedEventDataSchema = z.object({
  company_code: z.string(),
  total: int().describe('Tokens distributed in all'),
  employees: int().describe('How many employees received tokens (a count, not the list)'),
  period: z.string().describe('The company’s token month, YYYY-MM'),
  distributed_at: instant('When the distribution was applied'),
});

export const resetCompletedEventDataSchema = z.object({
  company_code: z.string(),
  period: z.string().describe('The token month the reset opened, YYYY-MM'),
  previous_period: z.string(),
  expired_employee_tokens: int(),
  expired_company_tokens: int(),
  added_tokens: int(),
  allocated_tokens: int(),
  renewed_employees: int(),
  completed_at: instant('When the reset was applied'),
});

/** `approval.requested` and `approval.decided` (four-eyes approvals, decision 0039). */
export const approvalEventDataSchema = z.object({
  approval_id: int().describe(
    'The request’s id (`GET /api/v1/approvals`, `POST /api/v1/approvals/{id}/approve`)',
  ),
  kind: z.enum(APPROVAL_KINDS),
  status: z.enum(APPROVAL_STATUSES).describe('`pending` when requested; then the decision'),
  company_code: z.string(),
  total: int().describe('Tokens the request moves when approved'),
  employees: int()
    .nullable()
    .describe('A distribution’s number of employees (not the list); null for a top-up'),
  note: z.string().nullable(),
  requested_by: z.string().nullable().describe('The requester’s username'),
  requested_at: instant('When it was requested'),
  expires_at: instant('When it expires if nobody decides it'),
  decided_by: z
    .string()
    .nullable()
    .describe('The decider’s username; null while pending and when it expired'),
  decided_at: instant('When it was approved, rejected or expired').nullable(),
  reason: z.string().nullable().describe('A rejection’s reason'),
});

/** The fields of an employee an `employee.updated` or `employee.deactivated` event can name. */
export const EMPLOYEE_EVENT_FIELDS = [
  'employee_id',
  'name',
  'email',
  'status',
  'monthly_tokens',
] as const;
export type EmployeeEventField = (typeof EMPLOYEE_EVENT_FIELDS)[number];

export const employeeEventDataSchema = z.object({
  id: int().describe('The employee’s id (`GET /api/v1/employees/{id}`); never changes'),
  employee_id: z.string().describe('The staff number (it can change: see `changed`)'),
  company_code: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  status: z.enum(STATUSES),
  monthly_tokens: int()
    .nullable()
    .describe('The employee’s own monthly amount; null: the company’s default'),
  updated_at: instant('When the change was made'),
});

export const employeeChangedEventDataSchema = employeeEventDataSchema.extend({
  changed: z
    .array(z.enum(EMPLOYEE_EVENT_FIELDS))
    .describe('The fields this change set (their new values are above)'),
});

export const employeeDeactivatedEventDataSchema = employeeChangedEventDataSchema.extend({
  deleted: z
    .boolean()
    .describe('True when the employee was deleted (for good), false when only deactivated'),
});

export const settlementClosedEventDataSchema = z.object({
  merchant_code: z.string(),
  merchant_name: z.string(),
  period_start: z.string().describe('The half-month’s first day, YYYY-MM-DD (a 1st or a 16th)'),
  period_end: z.string().describe('Its last day, YYYY-MM-DD'),
  orders: int(),
  refunds: int(),
  purchased_tokens: int(),
  refunded_tokens: int(),
  net_tokens: int().describe('purchased − refunded: what the programme owes for the period'),
  closed_at: instant('When the period ended'),
});

/** The order of the order events' examples: placed, then refunded in part. */
const ORDER_EXAMPLE = {
  order_id: 4182,
  order_no: 'ORD0000004182',
  merchant_code: 'SHOP',
  terminal_code: 'SHOPT1',
  company_code: 'ACME',
  employee_id: 'E0001',
  subtotal: 65,
  refunded_amount: 0,
  status: 'ordered',
  ordered_at: '2026-05-14T04:12:09.311Z',
};

/** Each event type: its data, when it is sent, and an example (the test event sends it). */
export const WEBHOOK_EVENTS = {
  'order.created': {
    data: orderEventDataSchema,
    summary: 'An order was placed at a terminal',
    description: 'Written with the order, in its transaction; a refused order sends nothing.',
    example: ORDER_EXAMPLE,
  },
  'order.refunded': {
    data: orderRefundedEventDataSchema,
    summary: 'An order was refunded, in full or in part',
    description:
      'Written with the refund. Its `sequence` is always higher than its order’s `order.created`.',
    example: {
      ...ORDER_EXAMPLE,
      refunded_amount: 10,
      refund_amount: 10,
      refund_reason: 'item_removed',
    },
  },
  'tokens.issued': {
    data: tokensIssuedEventDataSchema,
    summary: 'Tokens were issued to a company (a top-up)',
    description: 'Written with the ledger row of the top-up (an approved request’s too).',
    example: {
      company_code: 'ACME',
      transaction_id: 90211,
      amount: 5000,
      period: '2026-05',
      issued_at: '2026-05-02T01:00:00.000Z',
    },
  },
  'tokens.distributed': {
    data: tokensDistributedEventDataSchema,
    summary: 'A company distributed tokens to its employees',
    description: 'One event per distribution (a bulk reward from a file too), with a count.',
    example: {
      company_code: 'ACME',
      total: 3000,
      employees: 10,
      period: '2026-05',
      distributed_at: '2026-05-02T01:05:00.000Z',
    },
  },
  'reset.completed': {
    data: resetCompletedEventDataSchema,
    summary: 'A company’s monthly reset was applied',
    description: 'Written with the reset’s record: what expired, what was added and allocated.',
    example: {
      company_code: 'ACME',
      period: '2026-06',
      previous_period: '2026-05',
      expired_employee_tokens: 412,
      expired_company_tokens: 0,
      added_tokens: 20000,
      allocated_tokens: 3000,
      renewed_employees: 10,
      completed_at: '2026-05-31T16:00:00.000Z',
    },
  },
  'approval.requested': {
    data: approvalEventDataSchema,
    summary: 'A top-up or a distribution waits for a second person’s approval',
    description:
      'Written with the pending request (four-eyes approvals). A company’s endpoints receive its ' +
      'distributions’ requests; top-up requests go to the Super Admin’s endpoints only.',
    example: {
      approval_id: 17,
      kind: 'distribution',
      status: 'pending',
      company_code: 'ACME',
      total: 12000,
      employees: 10,
      note: 'May bonus',
      requested_by: 'acme.admin',
      requested_at: '2026-05-14T02:00:00.000Z',
      expires_at: '2026-05-21T02:00:00.000Z',
      decided_by: null,
      decided_at: null,
      reason: null,
    },
  },
  'approval.decided': {
    data: approvalEventDataSchema,
    summary: 'A pending request was approved, rejected, or expired after 7 days',
    description:
      'Written with the decision (an approval’s `tokens.issued` or `tokens.distributed` in the ' +
      'same transaction, numbered just before it). `decided_by` is null when it expired.',
    example: {
      approval_id: 17,
      kind: 'distribution',
      status: 'approved',
      company_code: 'ACME',
      total: 12000,
      employees: 10,
      note: 'May bonus',
      requested_by: 'acme.admin',
      requested_at: '2026-05-14T02:00:00.000Z',
      expires_at: '2026-05-21T02:00:00.000Z',
      decided_by: 'grouphr',
      decided_at: '2026-05-14T03:30:00.000Z',
      reason: null,
    },
  },
  'employee.created': {
    data: employeeEventDataSchema,
    summary: 'An employee was added (on the screen, by the API or by an import)',
    description: 'One event per employee, an import’s included, written with the employee.',
    example: {
      id: 311,
      employee_id: 'E0042',
      company_code: 'ACME',
      name: 'Grace Lin',
      email: 'grace.lin@acme.example',
      status: 'active',
      monthly_tokens: null,
      updated_at: '2026-05-14T02:00:00.000Z',
    },
  },
  'employee.updated': {
    data: employeeChangedEventDataSchema,
    summary: 'An employee’s staff number, name, email, monthly amount or status changed',
    description:
      'Any change but a deactivation (which is `employee.deactivated`); a reactivation names ' +
      '`status`. `changed` lists the fields set.',
    example: {
      id: 311,
      employee_id: 'E0042',
      company_code: 'ACME',
      name: 'Grace Lin',
      email: 'grace.lin@acme.example',
      status: 'active',
      monthly_tokens: 400,
      updated_at: '2026-05-15T02:00:00.000Z',
      changed: ['monthly_tokens'],
    },
  },
  'employee.deactivated': {
    data: employeeDeactivatedEventDataSchema,
    summary: 'An employee was deactivated or deleted: terminals refuse it from now on',
    description:
      'A change from active to inactive (an edit, the status switch, an import), or a deletion ' +
      '(`deleted: true`, whatever the status was).',
    example: {
      id: 311,
      employee_id: 'E0042',
      company_code: 'ACME',
      name: 'Grace Lin',
      email: 'grace.lin@acme.example',
      status: 'inactive',
      monthly_tokens: 400,
      updated_at: '2026-05-20T02:00:00.000Z',
      changed: ['status'],
      deleted: false,
    },
  },
  'settlement.closed': {
    data: settlementClosedEventDataSchema,
    summary: 'A merchant’s half-month settlement period ended: its statement is final',
    description:
      'One per merchant, statements of zeros included, written by the jobs timer within a minute ' +
      'of the period’s end (`GET /api/v1/settlements/{merchant_id}/{period_start}`).',
    example: {
      merchant_code: 'SHOP',
      merchant_name: 'Campus Shop',
      period_start: '2026-05-01',
      period_end: '2026-05-15',
      orders: 412,
      refunds: 9,
      purchased_tokens: 18240,
      refunded_tokens: 310,
      net_tokens: 17930,
      closed_at: '2026-05-15T16:00:00.000Z',
    },
  },
} as const satisfies Record<
  WebhookEventType,
  { data: z.ZodObject; summary: string; description: string; example: Record<string, unknown> }
>;

/** The envelope of every delivery: `{ id, type, timestamp, sequence, test, data }`. */
export const webhookEnvelopeSchema = z.object({
  id: z
    .string()
    .describe('The event’s id, `msg_…`: the `webhook-id` header, the same on every attempt'),
  type: z.string(),
  timestamp: instant('When the event happened'),
  sequence: int()
    .min(1)
    .describe(
      'The delivery’s number among this endpoint’s: 1, 2, 3, … without gaps. Deliveries may ' +
        'arrive out of order (retries, concurrent sends): order them by this number.',
    ),
  test: z.boolean().describe('True for an event sent by `POST /api/v1/webhooks/{id}/test`'),
  data: z.record(z.string(), z.unknown()),
});
