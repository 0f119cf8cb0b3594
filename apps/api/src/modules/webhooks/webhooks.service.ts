import crypto from 'node:crypto';
import type {
  CreateWebhookBody,
  PageQuery,
  UpdateWebhookBody,
  Webhook,
  WebhookDeliveriesQuery,
  WebhookDelivery,
  WebhookEventType,
  WebhookTestBody,
  WebhookWithSecret,
} from '@app/contract';
import {
  WEBHOOK_DELIVERIES_PAGE,
  WEBHOOK_EVENTS,
  WEBHOOK_EVENTS_BY_ROLE,
  WEBHOOK_SECRET_OVERLAP_HOURS,
  webhookDeliveryCursor,
} from '@app/contract';
import { AppError } from '../../lib/app-error';
import { recordAudit, type AuditActor } from '../../lib/audit';
import type { ServiceDeps } from '../../lib/deps';
import type { TenantScope } from '../../lib/scope';
import { inTransaction } from '../../lib/transaction';
import { checkWebhookTarget, systemResolver, type Resolver } from './webhook-targets';
import {
  deleteEndpoint,
  findDeliveries,
  lookupEndpoint,
  findEndpoints,
  insertEndpoint,
  insertTestDelivery,
  getScopeCodes,
  rotateEndpointSecret,
  scheduleDeliveryNow,
  updateEndpoint,
  withCurrentSecret,
  withoutSecret,
  type EndpointRecord,
} from './webhooks.repository';

/** The audit log's name for an endpoint. */
const ENTITY = 'webhook_endpoint';

export interface WebhookDeps extends ServiceDeps {
  /** Resolves target host names (tests inject one); dns.lookup otherwise. */
  resolve?: Resolver | undefined;
}

/** The events an endpoint of a scope may receive: its creator's role's (DESIGN 6). */
function eventsOfScope(kind: Webhook['scope']): readonly WebhookEventType[] {
  const role = kind === 'all' ? 'admin' : kind === 'merchant' ? 'merchant_admin' : 'company_admin';
  return WEBHOOK_EVENTS_BY_ROLE[role] ?? [];
}

function scopeKind(scope: TenantScope): Webhook['scope'] {
  if (scope.kind === 'all' || scope.kind === 'merchant' || scope.kind === 'company') {
    return scope.kind;
  }
  throw new AppError('PERMISSION_DENIED');
}

function checkEvents(kind: Webhook['scope'], events: readonly WebhookEventType[]): void {
  const allowed = eventsOfScope(kind);
  if (events.some((event) => !allowed.includes(event))) {
    throw new AppError('WEBHOOK_EVENT_NOT_ALLOWED', { metadata: { events: 'v.invalid' } });
  }
}

/** The URL checked (webhook-targets), normalised as it is stored: the WHATWG parser's `href`. */
const checkUrl = async (deps: WebhookDeps, url: string): Promise<string> =>
  (
    await checkWebhookTarget(url, {
      allowHttp: deps.config.WEBHOOKS_ALLOW_HTTP,
      allowedPorts: deps.config.WEBHOOKS_ALLOWED_PORTS,
      resolve: deps.resolve ?? systemResolver,
    })
  ).url.href;

/** A Standard Webhooks secret: whsec_ and the base64 of 24 random bytes. */
export const newSecret = (): string => `whsec_${crypto.randomBytes(24).toString('base64')}`;

/** POST /webhooks: an endpoint of the caller's scope; its secret is shown in this answer only. */
export async function createWebhook(
  deps: WebhookDeps,
  scope: TenantScope,
  body: CreateWebhookBody,
  actor: AuditActor,
): Promise<WebhookWithSecret> {
  const kind = scopeKind(scope);
  checkEvents(kind, body.events);
  const url = await checkUrl(deps, body.url);
  return inTransaction(deps.database, async (tx) => {
    const at = deps.clock.now();
    const endpoint = await insertEndpoint(tx, {
      url,
      description: body.description || null,
      events: body.events,
      secret: newSecret(),
      scope,
      createdBy: actor.userId,
      at,
    });
    await recordAudit(tx, {
      actor,
      action: 'create',
      entityType: ENTITY,
      entityId: endpoint.id,
      after: withoutSecret(endpoint),
      at,
    });
    return withCurrentSecret(endpoint);
  });
}

/** GET /webhooks: the endpoints of the caller's scope, newest first, without their secrets. */
export async function listWebhooks(
  deps: WebhookDeps,
  scope: TenantScope,
  page: PageQuery,
): Promise<{ data: Webhook[]; total: number }> {
  const { rows, total } = await findEndpoints(deps.database.db, scope, page);
  return { data: rows.map(withoutSecret), total };
}

async function getEndpoint(
  deps: WebhookDeps,
  scope: TenantScope,
  id: number,
): Promise<EndpointRecord> {
  const endpoint = await lookupEndpoint(deps.database.db, scope, id);
  if (!endpoint) throw new AppError('RECORD_NOT_FOUND');
  return endpoint;
}

export async function getWebhook(
  deps: WebhookDeps,
  scope: TenantScope,
  id: number,
): Promise<Webhook> {
  return withoutSecret(await getEndpoint(deps, scope, id));
}

/** PATCH /webhooks/{id}: url, events, description, status (enable / disable). */
export async function updateWebhook(
  deps: WebhookDeps,
  scope: TenantScope,
  id: number,
  body: UpdateWebhookBody,
  actor: AuditActor,
): Promise<Webhook> {
  const current = await getEndpoint(deps, scope, id);
  if (body.events) checkEvents(current.scope, body.events);
  // A new address is checked and stored normalised; the current one, sent again, is kept as is.
  const url =
    body.url === undefined || body.url === current.url ? undefined : await checkUrl(deps, body.url);
  return inTransaction(deps.database, async (tx) => {
    const before = await lookupEndpoint(tx, scope, id, { lock: true });
    if (!before) throw new AppError('RECORD_NOT_FOUND');
    const at = deps.clock.now();
    const statusChange =
      body.status === undefined || body.status === before.status
        ? {}
        : { status: body.status, disabledReason: body.status === 'disabled' ? 'manual' : null };
    const after = await updateEndpoint(tx, id, {
      ...(url !== undefined ? { url } : {}),
      ...(body.events !== undefined ? { events: body.events } : {}),
      ...(body.description !== undefined ? { description: body.description || null } : {}),
      ...statusChange,
      at,
    });
    await recordAudit(tx, {
      actor,
      action: Object.keys(body).length === 1 && body.status ? 'status_change' : 'update',
      entityType: ENTITY,
      entityId: id,
      before: withoutSecret(before),
      after: withoutSecret(after),
      at,
    });
    return withoutSecret(after);
  });
}

/**
 * POST /webhooks/{id}/rotate-secret: a new secret, shown in this answer only. The one it replaces
 * keeps signing beside it for WEBHOOK_SECRET_OVERLAP_HOURS (decision 0084: every delivery in that
 * time, retries of earlier events included, carries both signatures), so a receiver can switch to
 * the new secret at its own pace. A secret replaced before and still in its overlap stops now.
 */
export async function rotateWebhookSecret(
  deps: WebhookDeps,
  scope: TenantScope,
  id: number,
  actor: AuditActor,
): Promise<WebhookWithSecret> {
  return inTransaction(deps.database, async (tx) => {
    const before = await lookupEndpoint(tx, scope, id, { lock: true });
    if (!before) throw new AppError('RECORD_NOT_FOUND');
    const at = deps.clock.now();
    const after = await rotateEndpointSecret(tx, id, {
      secret: newSecret(),
      previousUntil: new Date(at.getTime() + WEBHOOK_SECRET_OVERLAP_HOURS * 3_600_000),
      at,
    });
    await recordAudit(tx, {
      actor,
      action: 'rotate_secret',
      entityType: ENTITY,
      entityId: id,
      before: withoutSecret(before),
      after: { ...withoutSecret(after), secret_changed: true },
      at,
    });
    return withCurrentSecret(after);
  });
}

/** DELETE /webhooks/{id}: the endpoint and its delivery log go; the events stay. */
export async function deleteWebhook(
  deps: WebhookDeps,
  scope: TenantScope,
  id: number,
  actor: AuditActor,
): Promise<void> {
  await inTransaction(deps.database, async (tx) => {
    const before = await lookupEndpoint(tx, scope, id, { lock: true });
    if (!before) throw new AppError('RECORD_NOT_FOUND');
    await deleteEndpoint(tx, id);
    await recordAudit(tx, {
      actor,
      action: 'delete',
      entityType: ENTITY,
      entityId: id,
      before: withoutSecret(before),
      at: deps.clock.now(),
    });
  });
}

/** GET /webhooks/{id}/deliveries: newest first, a page at a time (a keyset cursor on the id). */
export async function listWebhookDeliveries(
  deps: WebhookDeps,
  scope: TenantScope,
  id: number,
  query: WebhookDeliveriesQuery,
): Promise<{ data: WebhookDelivery[]; next_cursor: string | null }> {
  await getEndpoint(deps, scope, id);
  const after = query.cursor ? webhookDeliveryCursor.decode(query.cursor) : null;
  const rows = await findDeliveries(deps.database.db, id, {
    beforeId: after ? after[0] : null,
    limit: WEBHOOK_DELIVERIES_PAGE + 1,
  });
  const data = rows.slice(0, WEBHOOK_DELIVERIES_PAGE);
  const last = data.at(-1);
  return {
    data,
    next_cursor:
      rows.length > WEBHOOK_DELIVERIES_PAGE && last
        ? webhookDeliveryCursor.encode([last.id])
        : null,
  };
}

/** POST /webhooks/{id}/deliveries/{did}/retry: one more attempt, now, with the same webhook-id. */
export async function retryWebhookDelivery(
  deps: WebhookDeps,
  scope: TenantScope,
  id: number,
  deliveryId: number,
): Promise<WebhookDelivery> {
  await getEndpoint(deps, scope, id);
  const delivery = await scheduleDeliveryNow(deps.database.db, id, deliveryId, deps.clock.now());
  if (!delivery) throw new AppError('RECORD_NOT_FOUND');
  return delivery;
}

/**
 * POST /webhooks/{id}/test: a test event of the chosen type (one the endpoint's scope may receive,
 * subscribed or not), with that type's example data in the endpoint's own codes, marked
 * `test: true`, to this endpoint only. It goes the way of every event (decision 0084): a delivery
 * the worker numbers, signs (with both secrets during a rotation's overlap), sends and retries.
 * A disabled endpoint is refused (409 WEBHOOK_DISABLED): its deliveries wait, so nothing would come.
 */
export async function sendTestWebhook(
  deps: WebhookDeps,
  scope: TenantScope,
  id: number,
  body: WebhookTestBody,
): Promise<WebhookDelivery> {
  const endpoint = await getEndpoint(deps, scope, id);
  checkEvents(endpoint.scope, [body.type]);
  if (endpoint.status !== 'active') throw new AppError('WEBHOOK_DISABLED');
  const codes = await getScopeCodes(deps.database.db, endpoint);
  const data: Record<string, unknown> = { ...WEBHOOK_EVENTS[body.type].example };
  if (codes.companyCode !== null && 'company_code' in data) data.company_code = codes.companyCode;
  if (codes.merchantCode !== null && 'merchant_code' in data) {
    data.merchant_code = codes.merchantCode;
    if ('merchant_name' in data) data.merchant_name = codes.merchantName;
    if ('terminal_code' in data) data.terminal_code = `${codes.merchantCode}T1`;
  }
  return insertTestDelivery(deps.database.db, endpoint, {
    type: body.type,
    data,
    at: deps.clock.now(),
  });
}
