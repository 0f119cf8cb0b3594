// The webhooks section of the OpenAPI 3.1 document (issue 44, decision 0084): each event type as a
// `webhooks` entry, the POST a receiver gets, with its signed headers, its body (a named schema in
// `components.schemas`, made from the contract's zod schema of the event's data) and an example.
// `openapi.ts` puts both in the document; the delivery tests check every body a receiver gets
// against them.
import { z } from 'zod';
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENTS,
  WEBHOOK_SECRET_OVERLAP_HOURS,
  webhookEnvelopeSchema,
  type WebhookEventType,
} from '@app/contract';

type Json = Record<string, unknown>;

/** `order.created` → `OrderCreated`. */
const pascal = (type: string) =>
  type
    .split(/[._]/)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

/** The component that holds an event's whole body, e.g. `OrderCreatedWebhookEvent`. */
export const webhookEventSchemaName = (type: WebhookEventType) => `${pascal(type)}WebhookEvent`;

/** The component that holds each event's `data` (both approval events share one). */
const DATA_NAME: Record<WebhookEventType, string> = {
  'order.created': 'OrderEventData',
  'order.refunded': 'OrderRefundedEventData',
  'tokens.issued': 'TokensIssuedEventData',
  'tokens.distributed': 'TokensDistributedEventData',
  'reset.completed': 'ResetCompletedEventData',
  'approval.requested': 'ApprovalEventData',
  'approval.decided': 'ApprovalEventData',
  'employee.created': 'EmployeeEventData',
  'employee.updated': 'EmployeeChangedEventData',
  'employee.deactivated': 'EmployeeDeactivatedEventData',
  'settlement.closed': 'SettlementClosedEventData',
};

/**
 * A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect), as an input: no
 * `additionalProperties: false`, since fields may be added to an event (a receiver ignores them).
 */
function jsonSchemaOf(schema: z.ZodType): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
  }) as Json;
  return rest;
}

const SIGNATURE_HEADERS = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description:
      'The event’s id (`msg_…`), the body’s `id`: the same on every attempt. Deduplicate on it.',
    schema: { type: 'string' },
    example: 'msg_2f9d8c0e6b8a4f53a1f0c4b7e9d2a611',
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description:
      'When this attempt was signed, in Unix seconds. `standardwebhooks` refuses one more than ' +
      '5 minutes from the receiver’s clock.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
    example: '1778731929',
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the ' +
      'base64-decoded part of the endpoint’s secret after `whsec_`. For ' +
      `${WEBHOOK_SECRET_OVERLAP_HOURS} hours after a rotation, two signatures separated by a ` +
      'space: the new secret’s, then the old one’s. A receiver accepts the request when one of ' +
      'them verifies with its secret (`standardwebhooks` does this).',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$' },
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
];

const DELIVERY_RULES =
  'Sent as a signed Standard Webhooks `POST` within seconds of the change (the event is written in ' +
  'the change’s own transaction: it exists if and only if the change committed). A 2xx answer ' +
  'within 10 seconds is a delivery; anything else is retried with the same `webhook-id` after ' +
  'about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h, then given up (a manual retry sends it again); ' +
  '410 disables the endpoint. Deliveries can arrive out of order and, rarely, twice: order them ' +
  'by `sequence` (1, 2, 3, … per endpoint, without gaps) and deduplicate on `webhook-id`.';

/** The document's `webhooks` and the `components.schemas` they refer to. */
export function webhooksDocument(): { webhooks: Json; schemas: Json } {
  const schemas: Json = {};
  for (const type of WEBHOOK_EVENT_TYPES) {
    schemas[DATA_NAME[type]] = jsonSchemaOf(WEBHOOK_EVENTS[type].data);
  }
  const envelope = jsonSchemaOf(webhookEnvelopeSchema) as { properties: Json; required: string[] };
  const webhooks: Json = {};
  for (const type of WEBHOOK_EVENT_TYPES) {
    const event = WEBHOOK_EVENTS[type];
    const name = webhookEventSchemaName(type);
    schemas[name] = {
      type: 'object',
      description: event.summary,
      properties: {
        ...envelope.properties,
        type: { type: 'string', const: type },
        data: { $ref: `#/components/schemas/${DATA_NAME[type]}` },
      },
      required: envelope.required,
    };
    webhooks[type] = {
      post: {
        operationId: `${pascal(type)[0]!.toLowerCase()}${pascal(type).slice(1)}Webhook`,
        summary: event.summary,
        description: `${event.description}\n\n${DELIVERY_RULES}`,
        tags: ['webhooks'],
        security: [],
        parameters: SIGNATURE_HEADERS,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { $ref: `#/components/schemas/${name}` },
              example: {
                id: 'msg_2f9d8c0e6b8a4f53a1f0c4b7e9d2a611',
                type,
                timestamp: '2026-05-14T04:12:09.311Z',
                sequence: 42,
                test: false,
                data: event.example,
              },
            },
          },
        },
        responses: {
          '200': { description: 'Received (any 2xx within 10 seconds): delivered' },
          '410': {
            description:
              'Gone: the endpoint is disabled (`disabled_reason: gone`) until it is enabled again',
          },
        },
      },
    };
  }
  return { webhooks, schemas };
}
