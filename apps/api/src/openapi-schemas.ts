// The resources of the API as named schemas (issue 44): `components.schemas.Order`, `Employee`,
// ... referenced (`$ref`) wherever an answer or a body holds one, so that a generated client has
// a type per resource, not a copy inlined in every operation. The contract's zod schemas are
// given their name here, in zod's global registry, which fastify-type-provider-zod reads when it
// writes the document (src/openapi.ts); the contract itself stays free of the document's names.
import { z } from 'zod';
import {
  approvalPolicySchema,
  approvalSchema,
  auditEntrySchema,
  companySchema,
  createOrderBodySchema,
  createWebhookBodySchema,
  employeeAccountSchema,
  employeeSchema,
  errorEnvelopeSchema,
  invitationSchema,
  managedUserSchema,
  merchantSchema,
  orderCheckSchema,
  orderDeclineSchema,
  orderDetailSchema,
  orderHistoryItemSchema,
  orderItemSchema,
  orderRefundSchema,
  orderSchema,
  payDeviceSchema,
  placedOrderSchema,
  reauthenticateBodySchema,
  refundOrderBodySchema,
  refundResultSchema,
  registeredPayDeviceSchema,
  selfUserSchema,
  settlementPeriodSchema,
  settlementStatementSchema,
  holidaySchema,
  holidaysViewSchema,
  spendingRulesPreviewSchema,
  spendingRulesSchema,
  spendingRulesViewSchema,
  systemPeriodSchema,
  terminalSchema,
  terminalWithKeySchema,
  tillTakingsSchema,
  tillTerminalSchema,
  tokenConfigurationSchema,
  tokenTransactionSchema,
  updateTerminalBodySchema,
  updateWebhookBodySchema,
  walletSchema,
  webhookDeliverySchema,
  webhookSchema,
  webhookTestBodySchema,
  webhookWithSecretSchema,
} from '@app/contract';

/** An order as a terminal sees it (GET /orders/{id}): the example of the named schemas below. */
const ORDER = {
  id: 1042,
  order_no: 'ORD0000001042',
  status: 'ordered',
  subtotal: 65,
  refunded_amount: 0,
  paid_tokens: 65,
  to_pay_otherwise: 0,
  company_id: 1,
  company_code: 'ACME',
  employee_id: 'E0001',
  merchant_id: 3,
  terminal_id: 7,
  order_type: 'dine_in',
  items: [
    { name: 'Chicken rice', quantity: 1, unit_tokens: 45 },
    { name: 'Iced tea', quantity: 2, unit_tokens: 10 },
  ],
  ordered_at: '2025-03-14T04:12:09.000Z',
};

/** What a till sends for that order: a lunch for staff number E0001 of company ACME. */
const ORDER_REQUEST = {
  company_code: 'ACME',
  employee_id: 'E0001',
  order_type: 'dine_in',
  items: ORDER.items,
};

/** A merchant's terminal (the back office's `terminals`), as the examples show it. */
const TERMINAL = {
  id: 7,
  merchant_id: 3,
  code: 'T01',
  name: 'Front counter',
  status: 'active',
  api_key_prefix: 'tk_ZXhhbXB',
  key_rotated_at: '2025-03-01T09:00:00.000Z',
  created_at: '2025-03-01T09:00:00.000Z',
  updated_at: '2025-03-01T09:00:00.000Z',
};

/** The till's own terminal list and a day's takings through it. */
const TILL_TERMINAL = {
  id: 7,
  code: 'T01',
  name: 'Front counter',
  merchant_id: 3,
  merchant_name: 'Noodle Bar',
};
const TAKINGS = { orders: 42, tokens: 2730, refunded: 10, net: 2720 };

/** A merchant admin's endpoint for its orders and refunds. */
const WEBHOOK = {
  id: 12,
  url: 'https://hooks.example.com/token-programme',
  description: 'Till reconciliation',
  events: ['order.created', 'order.refunded'],
  status: 'active',
  disabled_reason: null,
  scope: 'merchant',
  merchant_id: 3,
  company_id: null,
  previous_secret_expires_at: null,
  created_at: '2025-03-01T09:00:00.000Z',
  updated_at: '2025-03-01T09:00:00.000Z',
};

/**
 * The rules between fields the zod schemas check in code, said in the document too, so a
 * generated client or a validating proxy knows them: an order names its employee by pay code or
 * by company code and staff number; only an `item_removed` refund carries an `amount`.
 */
const RULES = new Map<z.ZodType, Record<string, unknown>>([
  [
    createOrderBodySchema,
    {
      anyOf: [{ required: ['pay_code'] }, { required: ['company_code', 'employee_id'] }],
    },
  ],
  [
    refundOrderBodySchema,
    {
      oneOf: [
        { properties: { reason: { enum: ['item_removed'] } }, required: ['reason', 'amount'] },
        {
          properties: {
            reason: { enum: ['cancelled', 'rejected', 'auto_archived'] },
            // Never sent with these reasons: they refund what is left.
            amount: { not: {} },
          },
          required: ['reason'],
        },
      ],
    },
  ],
  [
    // Step-up (decision 0083): one proof, the password or a second factor's code; the service
    // refuses an empty body (BODY_INVALID), so the document says it too.
    reauthenticateBodySchema,
    {
      anyOf: [{ required: ['password'] }, { required: ['code'] }, { required: ['recovery_code'] }],
    },
  ],
]);

/**
 * Each named schema: its name and, for the terminal's resources (what an integrator reads
 * first), an example (checked against the schema by the suite's linters).
 */
const NAMED: Array<[z.ZodType, string, unknown?]> = [
  [errorEnvelopeSchema, 'ErrorEnvelope'],
  // The terminal API (DESIGN 6).
  [createOrderBodySchema, 'CreateOrderRequest', ORDER_REQUEST],
  [refundOrderBodySchema, 'RefundOrderRequest', { reason: 'item_removed', amount: 10 }],
  [orderItemSchema, 'OrderItem'],
  [orderSchema, 'Order', ORDER],
  [placedOrderSchema, 'PlacedOrder', { ...ORDER, available_tokens: 435 }],
  [
    refundResultSchema,
    'RefundResult',
    {
      order: { ...ORDER, refunded_amount: 10 },
      refund: { amount: 10, reason: 'item_removed', transaction_id: 88231, available_tokens: 445 },
    },
  ],
  [
    orderCheckSchema,
    'OrderCheck',
    { allowed: true, payable_tokens: 65, remaining_today: 135, available_tokens: 500 },
  ],
  // The terminals, the till and the webhooks: what an integrator sets up and reads.
  [updateTerminalBodySchema, 'UpdateTerminalRequest', { name: 'Front counter', status: 'active' }],
  [terminalSchema, 'Terminal', TERMINAL],
  [
    terminalWithKeySchema,
    'TerminalWithKey',
    { ...TERMINAL, api_key: 'tk_ZXhhbXBsZS10ZXJtaW5hbC1rZXktbm90LWEtcmVhbC0' },
  ],
  [tillTerminalSchema, 'TillTerminal', TILL_TERMINAL],
  [
    tillTakingsSchema,
    'TillTakings',
    {
      date: '2025-03-14',
      terminals: [{ terminal_id: 7, code: 'T01', name: 'Front counter', ...TAKINGS }],
      totals: TAKINGS,
    },
  ],
  [
    createWebhookBodySchema,
    'CreateWebhookRequest',
    {
      url: WEBHOOK.url,
      events: WEBHOOK.events,
      description: WEBHOOK.description,
    },
  ],
  [updateWebhookBodySchema, 'UpdateWebhookRequest', { status: 'disabled' }],
  [reauthenticateBodySchema, 'ReauthenticateRequest', { password: 'correct horse battery staple' }],
  [webhookTestBodySchema, 'WebhookTestRequest', { type: 'order.created' }],
  [webhookSchema, 'Webhook', WEBHOOK],
  [
    webhookWithSecretSchema,
    'WebhookWithSecret',
    { ...WEBHOOK, secret: 'whsec_ZXhhbXBsZS13ZWJob29rLXNlY3JldC0y' },
  ],
  [
    webhookDeliverySchema,
    'WebhookDelivery',
    {
      id: 88,
      sequence: 42,
      event_id: 'msg_0f8e2a4c6b1d4e7f9a3c5b2d8e6f1a0c',
      event_type: 'order.created',
      status: 'succeeded',
      attempts: 1,
      last_status_code: 200,
      last_response: 'ok',
      last_attempt_at: '2025-03-14T04:12:10.000Z',
      next_attempt_at: null,
      created_at: '2025-03-14T04:12:09.000Z',
    },
  ],
  // The back office's resources.
  [companySchema, 'Company'],
  [employeeSchema, 'Employee'],
  [employeeAccountSchema, 'EmployeeAccount'],
  [walletSchema, 'Wallet'],
  [merchantSchema, 'Merchant'],
  [payDeviceSchema, 'PayDevice'],
  [registeredPayDeviceSchema, 'RegisteredPayDevice'],
  [managedUserSchema, 'User'],
  [selfUserSchema, 'SignedInUser'],
  [invitationSchema, 'Invitation'],
  [tokenTransactionSchema, 'TokenTransaction'],
  [tokenConfigurationSchema, 'TokenConfiguration'],
  [orderHistoryItemSchema, 'OrderSummary'],
  [orderDetailSchema, 'OrderDetail'],
  [orderRefundSchema, 'OrderRefund'],
  [orderDeclineSchema, 'OrderDecline'],
  [spendingRulesSchema, 'SpendingRules'],
  // A terminal's creation stays unnamed too: its `status` has a default, and openapi-typescript
  // makes a named schema's defaulted field required (the web's form leaves it out); its example
  // is the route's (terminals.routes.ts).
  // A rule version and an employee's exception stay unnamed: each is also sent as null (the rules
  // in force, an employee without an exception), and OpenAPI 3.0 cannot say "a reference, or
  // null" so that a validator admits the null (`nullable` beside `allOf` is refused by Redocly
  // and does not admit null).
  [spendingRulesViewSchema, 'SpendingRulesVersions'],
  [spendingRulesPreviewSchema, 'SpendingRulesPreview'],
  [holidaySchema, 'Holiday'],
  [holidaysViewSchema, 'Holidays'],
  [approvalPolicySchema, 'ApprovalPolicy'],
  [approvalSchema, 'Approval'],
  [auditEntrySchema, 'AuditEntry'],
  [systemPeriodSchema, 'SystemPeriod'],
  [settlementPeriodSchema, 'SettlementPeriod'],
  [settlementStatementSchema, 'SettlementStatement'],
];

/** The names given (a module is evaluated once per process, so once per registry). */
export const NAMED_SCHEMAS: readonly string[] = NAMED.map(([, id]) => id);

for (const [schema, id, example] of NAMED) {
  const meta = z.globalRegistry.get(schema);
  if (meta?.id === id) continue;
  // Added to what the contract already said of it (its description), never in its place.
  z.globalRegistry.add(schema, {
    ...meta,
    ...RULES.get(schema),
    id,
    ...(example === undefined ? {} : { example }),
  });
}
