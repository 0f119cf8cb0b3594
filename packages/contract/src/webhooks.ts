import { z } from 'zod';
import type { Role } from './constants';
import { idSchema } from './validation';
import { webhookDeliveryCursor } from './calendar';
import type { orderEventDataSchema } from './webhook-events';

/**
 * Webhooks (DESIGN 6 "Integrations", decision 0038): the events an endpoint can receive, an
 * endpoint, and its deliveries. Signed as Standard Webhooks (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`).
 */
export const WEBHOOK_EVENT_TYPES = [
  'order.created',
  'order.refunded',
  'tokens.issued',
  'tokens.distributed',
  'reset.completed',
  // Issue 44 (decision 0084).
  'approval.requested',
  'approval.decided',
  'employee.created',
  'employee.updated',
  'employee.deactivated',
  'settlement.closed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The events an endpoint created by each role may receive (its creator's scope). */
export const WEBHOOK_EVENTS_BY_ROLE: Partial<Record<Role, readonly WebhookEventType[]>> = {
  admin: WEBHOOK_EVENT_TYPES,
  merchant_admin: ['order.created', 'order.refunded', 'settlement.closed'],
  company_admin: [
    'tokens.issued',
    'tokens.distributed',
    'order.created',
    'order.refunded',
    'reset.completed',
    'approval.requested',
    'approval.decided',
    'employee.created',
    'employee.updated',
    'employee.deactivated',
  ],
};

/** A rotated secret keeps signing beside the new one this long (decision 0084). */
export const WEBHOOK_SECRET_OVERLAP_HOURS = 24;

export const webhookEventsOf = (role: string | null | undefined): readonly WebhookEventType[] =>
  (role && WEBHOOK_EVENTS_BY_ROLE[role as Role]) || [];

export const WEBHOOK_STATUSES = ['active', 'disabled'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** At most this long, so a URL fits a log line and a table cell. */
export const WEBHOOK_URL_MAX = 2000;

const urlSchema = z
  .string()
  .trim()
  .min(1)
  .max(WEBHOOK_URL_MAX)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, 'v.url')
  .meta({ format: 'uri', example: 'https://hooks.example.com/token-programme' });
const eventsSchema = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length)
  .refine((events) => new Set(events).size === events.length, 'v.invalid');
const descriptionSchema = z.string().trim().max(200);

export const createWebhookBodySchema = z.strictObject({
  url: urlSchema,
  events: eventsSchema,
  description: descriptionSchema.optional(),
});
export type CreateWebhookBody = z.infer<typeof createWebhookBodySchema>;

export const updateWebhookBodySchema = z.strictObject({
  url: urlSchema.optional(),
  events: eventsSchema.optional(),
  description: descriptionSchema.nullable().optional(),
  status: z.enum(WEBHOOK_STATUSES).optional(),
});
export type UpdateWebhookBody = z.infer<typeof updateWebhookBodySchema>;

export const webhookSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  status: z.enum(WEBHOOK_STATUSES),
  /** 'manual', or 'gone' when the receiver answered 410; null while active. */
  disabled_reason: z.string().nullable(),
  scope: z.enum(['all', 'merchant', 'company']),
  merchant_id: z.number().int().nullable(),
  company_id: z.number().int().nullable(),
  /**
   * Until when the secret the last rotation replaced still signs beside the current one (24 hours
   * after the rotation); null before any rotation. A time past means it no longer signs.
   */
  previous_secret_expires_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** An endpoint with its signing secret: only the answers of create and rotate-secret. */
export const webhookWithSecretSchema = webhookSchema.extend({ secret: z.string() });
export type WebhookWithSecret = z.infer<typeof webhookWithSecretSchema>;

export const webhookDeliverySchema = z.object({
  id: z.number().int(),
  /**
   * Its number among the endpoint's deliveries (1, 2, 3, … without gaps, decision 0084), the body's
   * `sequence`; null for the moment between the event's commit and the worker's next pass.
   */
  sequence: z.number().int().nullable(),
  /** The event's Standard Webhooks message id (the `webhook-id` header). */
  event_id: z.string(),
  event_type: z.enum(WEBHOOK_EVENT_TYPES),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  last_status_code: z.number().int().nullable(),
  /** The start of the last answer's body, or why there was none. */
  last_response: z.string().nullable(),
  last_attempt_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookIdParamsSchema = z.object({ id: idSchema });
/** Deliveries come newest first, WEBHOOK_DELIVERIES_PAGE at a time, after `cursor`. */
export const WEBHOOK_DELIVERIES_PAGE = 20;
export const webhookDeliveriesQuerySchema = z.strictObject({
  cursor: webhookDeliveryCursor.schema.optional(),
});
export type WebhookDeliveriesQuery = z.infer<typeof webhookDeliveriesQuerySchema>;
export const webhookDeliveryParamsSchema = z.object({ id: idSchema, did: idSchema });

/** POST /webhooks/{id}/test: a signed test event of one of the endpoint's scope's types. */
export const webhookTestBodySchema = z.strictObject({ type: z.enum(WEBHOOK_EVENT_TYPES) });
export type WebhookTestBody = z.infer<typeof webhookTestBodySchema>;

/** An order as its events show it (DESIGN 6): never a wallet balance. */
export type WebhookOrderData = z.infer<typeof orderEventDataSchema>;
