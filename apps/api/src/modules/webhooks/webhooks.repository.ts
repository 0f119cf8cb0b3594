import { sql, type SQL } from 'drizzle-orm';
import type {
  Webhook,
  WebhookDelivery,
  WebhookDeliveryStatus,
  WebhookEventType,
  WebhookStatus,
  WebhookWithSecret,
} from '@app/contract';
import { queryRows, type Executor } from '../../db/client';
import { iso, isoOrNull, toInt, toIntOrNull } from '../../lib/numbers';
import type { TenantScope } from '../../lib/scope';

/** The endpoints a scope sees: admin all, a merchant's or a company's own (decision 0038). */
function endpointScopeWhere(scope: TenantScope): SQL {
  switch (scope.kind) {
    case 'all':
      return sql`TRUE`;
    case 'merchant':
      return sql`w.scope = 'merchant' AND w.merchant_id = ${scope.merchantId}`;
    case 'company':
      return sql`w.scope = 'company' AND w.company_id = ${scope.companyId}`;
    default:
      return sql`FALSE`;
  }
}

interface EndpointRow {
  id: unknown;
  url: string;
  description: string | null;
  events: string[] | string;
  status: string;
  disabled_reason: string | null;
  scope: string;
  merchant_id: unknown;
  company_id: unknown;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** The endpoint with its current secret only: the answers of create and rotate-secret. */
export const withCurrentSecret = ({
  previousSecret: _previous,
  ...endpoint
}: EndpointRecord): WebhookWithSecret => endpoint;

/** PGlite and pg both parse text[]; a driver that does not hands back '{a,b}'. */
const textArray = (value: string[] | string): string[] =>
  Array.isArray(value)
    ? value
    : value
        .replace(/^\{|\}$/g, '')
        .split(',')
        .filter(Boolean);

export interface EndpointRecord extends Webhook {
  secret: string;
  /** The secret the last rotation replaced, while it still signs (previous_secret_expires_at). */
  previousSecret: string | null;
}

const toEndpoint = (row: EndpointRow): EndpointRecord => ({
  id: toInt(row.id),
  url: row.url,
  description: row.description,
  events: textArray(row.events) as WebhookEventType[],
  status: row.status as WebhookStatus,
  disabled_reason: row.disabled_reason,
  scope: row.scope as Webhook['scope'],
  merchant_id: toIntOrNull(row.merchant_id),
  company_id: toIntOrNull(row.company_id),
  previous_secret_expires_at: isoOrNull(row.previous_secret_expires_at),
  secret: row.secret,
  previousSecret: row.previous_secret,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

/** The endpoint without its secret: what every answer but create and rotate-secret shows. */
export const withoutSecret = ({
  secret: _secret,
  previousSecret: _previous,
  ...endpoint
}: EndpointRecord): Webhook => endpoint;

const pgTextArray = (values: readonly string[]) =>
  sql`ARRAY[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;

export async function insertEndpoint(
  executor: Executor,
  input: {
    url: string;
    description: string | null;
    events: readonly string[];
    secret: string;
    scope: TenantScope;
    createdBy: number | null;
    at: Date;
  },
): Promise<EndpointRecord> {
  const scopeKind = input.scope.kind === 'all' ? 'all' : input.scope.kind;
  const merchantId = input.scope.kind === 'merchant' ? input.scope.merchantId : null;
  const companyId = input.scope.kind === 'company' ? input.scope.companyId : null;
  const [row] = await queryRows<EndpointRow>(
    executor,
    sql`INSERT INTO webhook_endpoints (url, description, events, secret, scope, merchant_id,
                                       company_id, created_by, created_at, updated_at)
        VALUES (${input.url}, ${input.description}, ${pgTextArray(input.events)}, ${input.secret},
                ${scopeKind}, ${merchantId}, ${companyId}, ${input.createdBy},
                ${input.at.toISOString()}::timestamptz, ${input.at.toISOString()}::timestamptz)
        RETURNING *`,
  );
  return toEndpoint(row!);
}

/** The endpoints of a scope, newest first, a page at a time, and how many there are. */
export async function findEndpoints(
  executor: Executor,
  scope: TenantScope,
  page: { page: number; page_size: number },
): Promise<{ rows: EndpointRecord[]; total: number }> {
  const rows = await queryRows<EndpointRow>(
    executor,
    sql`SELECT w.* FROM webhook_endpoints w WHERE ${endpointScopeWhere(scope)}
         ORDER BY w.id DESC
         LIMIT ${page.page_size} OFFSET ${(page.page - 1) * page.page_size}`,
  );
  const [count] = await queryRows<{ n: unknown }>(
    executor,
    sql`SELECT count(*) AS n FROM webhook_endpoints w WHERE ${endpointScopeWhere(scope)}`,
  );
  return { rows: rows.map(toEndpoint), total: toInt(count?.n ?? 0) };
}

export async function lookupEndpoint(
  executor: Executor,
  scope: TenantScope,
  id: number,
  options: { lock?: boolean } = {},
): Promise<EndpointRecord | undefined> {
  const [row] = await queryRows<EndpointRow>(
    executor,
    sql`SELECT w.* FROM webhook_endpoints w
         WHERE w.id = ${id} AND ${endpointScopeWhere(scope)}
         ${options.lock ? sql`FOR UPDATE` : sql``}`,
  );
  return row ? toEndpoint(row) : undefined;
}

export async function updateEndpoint(
  executor: Executor,
  id: number,
  change: {
    url?: string;
    description?: string | null;
    events?: readonly string[];
    status?: WebhookStatus;
    disabledReason?: string | null;
    at: Date;
  },
): Promise<EndpointRecord> {
  const sets: SQL[] = [sql`updated_at = ${change.at.toISOString()}::timestamptz`];
  if (change.url !== undefined) sets.push(sql`url = ${change.url}`);
  if (change.description !== undefined) sets.push(sql`description = ${change.description}`);
  if (change.events !== undefined) sets.push(sql`events = ${pgTextArray(change.events)}`);
  if (change.status !== undefined) sets.push(sql`status = ${change.status}`);
  if (change.disabledReason !== undefined) {
    sets.push(sql`disabled_reason = ${change.disabledReason}`);
  }
  const [row] = await queryRows<EndpointRow>(
    executor,
    sql`UPDATE webhook_endpoints SET ${sql.join(sets, sql`, `)} WHERE id = ${id} RETURNING *`,
  );
  return toEndpoint(row!);
}

/**
 * A new secret signs from now on; the one it replaces keeps signing beside it until
 * `previousUntil` (decision 0084). A secret replaced earlier, still in its overlap, stops now.
 */
export async function rotateEndpointSecret(
  executor: Executor,
  id: number,
  change: { secret: string; previousUntil: Date; at: Date },
): Promise<EndpointRecord> {
  const [row] = await queryRows<EndpointRow>(
    executor,
    sql`UPDATE webhook_endpoints
           SET previous_secret = secret,
               previous_secret_expires_at = ${change.previousUntil.toISOString()}::timestamptz,
               secret = ${change.secret},
               updated_at = ${change.at.toISOString()}::timestamptz
         WHERE id = ${id} RETURNING *`,
  );
  return toEndpoint(row!);
}

/** The codes of an endpoint's company or merchant (null for the admin's), for test events. */
export async function getScopeCodes(
  executor: Executor,
  endpoint: Pick<EndpointRecord, 'company_id' | 'merchant_id'>,
): Promise<{
  companyCode: string | null;
  merchantCode: string | null;
  merchantName: string | null;
}> {
  const [row] = await queryRows<{
    company_code: string | null;
    merchant_code: string | null;
    merchant_name: string | null;
  }>(
    executor,
    sql`SELECT (SELECT c.code FROM companies c WHERE c.id = ${endpoint.company_id}) AS company_code,
               m.code AS merchant_code, m.name AS merchant_name
          FROM (SELECT 1) one
          LEFT JOIN merchants m ON m.id = ${endpoint.merchant_id}`,
  );
  return {
    companyCode: row?.company_code ?? null,
    merchantCode: row?.merchant_code ?? null,
    merchantName: row?.merchant_name ?? null,
  };
}

export async function deleteEndpoint(executor: Executor, id: number): Promise<void> {
  await executor.execute(sql`DELETE FROM webhook_endpoints WHERE id = ${id}`);
}

interface DeliveryRow {
  id: unknown;
  sequence: unknown;
  message_id: string;
  type: string;
  status: string;
  attempts: unknown;
  last_status_code: unknown;
  last_response: string | null;
  last_attempt_at: Date | string | null;
  next_attempt_at: Date | string | null;
  created_at: Date | string;
}

const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: toInt(row.id),
  sequence: toIntOrNull(row.sequence),
  event_id: row.message_id,
  event_type: row.type as WebhookEventType,
  status: row.status as WebhookDeliveryStatus,
  attempts: toInt(row.attempts),
  last_status_code: toIntOrNull(row.last_status_code),
  last_response: row.last_response,
  last_attempt_at: isoOrNull(row.last_attempt_at),
  next_attempt_at: isoOrNull(row.next_attempt_at),
  created_at: iso(row.created_at),
});

const DELIVERY_COLUMNS = sql`d.id, d.sequence, e.message_id, e.type, d.status, d.attempts, d.last_status_code,
  d.last_response, d.last_attempt_at, d.next_attempt_at, d.created_at`;

/** An endpoint's deliveries, newest first, `limit` after the delivery `beforeId` (keyset). */
export async function findDeliveries(
  executor: Executor,
  endpointId: number,
  page: { beforeId: number | null; limit: number },
): Promise<WebhookDelivery[]> {
  const rows = await queryRows<DeliveryRow>(
    executor,
    sql`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d
          JOIN webhook_events e ON e.id = d.event_id
         WHERE d.endpoint_id = ${endpointId}
           ${page.beforeId === null ? sql`` : sql`AND d.id < ${page.beforeId}`}
         ORDER BY d.id DESC
         LIMIT ${page.limit}`,
  );
  return rows.map(toDelivery);
}

/**
 * A test event (POST /webhooks/{id}/test): one event of `type` with example data, marked `test`,
 * and one delivery due now, for this endpoint only. The worker sends it as any other.
 */
export async function insertTestDelivery(
  executor: Executor,
  endpoint: Pick<EndpointRecord, 'id' | 'company_id' | 'merchant_id'>,
  event: { type: WebhookEventType; data: unknown; at: Date },
): Promise<WebhookDelivery> {
  const at = event.at.toISOString();
  const [row] = await queryRows<DeliveryRow>(
    executor,
    sql`WITH e AS (
          INSERT INTO webhook_events (type, company_id, merchant_id, data, created_at, test)
          VALUES (${event.type}, ${endpoint.company_id}, ${endpoint.merchant_id},
                  ${JSON.stringify(event.data)}::jsonb, ${at}::timestamptz, TRUE)
          RETURNING id, message_id, type),
        d AS (
          INSERT INTO webhook_deliveries (endpoint_id, event_id, next_attempt_at, created_at)
          SELECT ${endpoint.id}, e.id, ${at}::timestamptz, ${at}::timestamptz FROM e
          RETURNING *)
        SELECT d.id, d.sequence, e.message_id, e.type, d.status, d.attempts, d.last_status_code,
               d.last_response, d.last_attempt_at, d.next_attempt_at, d.created_at
          FROM d JOIN e ON e.id = d.event_id`,
  );
  return toDelivery(row!);
}

/** A manual retry: the delivery is due now (attempts are kept: one more is made). */
export async function scheduleDeliveryNow(
  executor: Executor,
  endpointId: number,
  deliveryId: number,
  at: Date,
): Promise<WebhookDelivery | undefined> {
  const [row] = await queryRows<DeliveryRow>(
    executor,
    sql`WITH d AS (
          UPDATE webhook_deliveries
             SET status = 'pending', next_attempt_at = ${at.toISOString()}::timestamptz
           WHERE id = ${deliveryId} AND endpoint_id = ${endpointId}
          RETURNING *)
        SELECT ${DELIVERY_COLUMNS} FROM d JOIN webhook_events e ON e.id = d.event_id`,
  );
  return row ? toDelivery(row) : undefined;
}

/** A claimed delivery, with what sending it needs. */
export interface ClaimedDelivery {
  id: number;
  /** The delivery's number among its endpoint's (1, 2, 3, … without gaps). */
  sequence: number;
  attempts: number;
  endpointId: number;
  url: string;
  secret: string;
  /** The secret the last rotation replaced, and until when it signs too. */
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  messageId: string;
  type: string;
  test: boolean;
  data: unknown;
  createdAt: string;
}

/**
 * Gives each delivery not numbered yet its number among its endpoint's deliveries: the endpoint's
 * next numbers, in the order of the deliveries' ids (decision 0084). Runs in a transaction of its
 * own: the endpoints are locked first, in id order (FOR NO KEY UPDATE, which the changes that
 * insert deliveries never wait for, as their foreign key takes KEY SHARE; a worker numbering them
 * now is waited for, a few milliseconds), then a second statement, with a snapshot taken after the
 * lock, numbers what is committed by then. So two workers never number one endpoint at once, and a
 * delivery committed later always gets a higher number: an order's refund, written after the
 * order committed, is numbered after it. Answers how many deliveries were numbered.
 */
export async function numberNewDeliveries(tx: Executor): Promise<number> {
  const locked = await queryRows<{ id: unknown }>(
    tx,
    sql`SELECT w.id FROM webhook_endpoints w
         WHERE EXISTS (SELECT 1 FROM webhook_deliveries d
                        WHERE d.endpoint_id = w.id AND d.sequence IS NULL)
         ORDER BY w.id
           FOR NO KEY UPDATE OF w`,
  );
  if (locked.length === 0) return 0;
  const ids = locked.map((row) => toInt(row.id));
  const [counted] = await queryRows<{ n: unknown }>(
    tx,
    sql`WITH numbered AS (
          SELECT d.id, d.endpoint_id,
                 w.last_sequence + row_number() OVER (PARTITION BY d.endpoint_id ORDER BY d.id) AS seq
            FROM webhook_deliveries d
            JOIN webhook_endpoints w ON w.id = d.endpoint_id
           WHERE d.sequence IS NULL AND d.endpoint_id = ANY(${sql.param(ids)}::bigint[])),
        stamped AS (
          UPDATE webhook_deliveries d SET sequence = n.seq
            FROM numbered n WHERE d.id = n.id
          RETURNING d.endpoint_id, d.sequence),
        tops AS (
          UPDATE webhook_endpoints w SET last_sequence = t.top
            FROM (SELECT endpoint_id, max(sequence) AS top FROM stamped GROUP BY endpoint_id) t
           WHERE w.id = t.endpoint_id
          RETURNING 1)
        SELECT (SELECT count(*) FROM stamped) AS n, (SELECT count(*) FROM tops) AS endpoints`,
  );
  return toInt(counted?.n ?? 0);
}

/**
 * Claims up to `limit` due deliveries of active endpoints (FOR UPDATE SKIP LOCKED, so instances
 * never take the same one) and leases them: each counts its attempt and is not due again until
 * `leaseUntil`, so the row lock ends with this statement and nobody holds a transaction open
 * while a receiver answers. A worker that dies mid-attempt leaves it to be retried after the lease.
 */
export async function claimDueDeliveries(
  executor: Executor,
  input: { now: Date; leaseUntil: Date; limit: number },
): Promise<ClaimedDelivery[]> {
  const rows = await queryRows<{
    id: unknown;
    sequence: unknown;
    attempts: unknown;
    endpoint_id: unknown;
    url: string;
    secret: string;
    previous_secret: string | null;
    previous_secret_expires_at: Date | string | null;
    message_id: string;
    type: string;
    test: unknown;
    data: unknown;
    created_at: Date | string;
  }>(
    executor,
    sql`WITH due AS (
          SELECT d.id FROM webhook_deliveries d
            JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.status = 'active'
           WHERE d.status = 'pending' AND d.next_attempt_at <= ${input.now.toISOString()}::timestamptz
             AND d.sequence IS NOT NULL
           ORDER BY d.next_attempt_at, d.id
           LIMIT ${input.limit}
             FOR UPDATE OF d SKIP LOCKED),
        claimed AS (
          UPDATE webhook_deliveries d
             SET attempts = d.attempts + 1,
                 next_attempt_at = ${input.leaseUntil.toISOString()}::timestamptz
            FROM due WHERE d.id = due.id
          RETURNING d.id, d.sequence, d.attempts, d.endpoint_id, d.event_id)
        SELECT c.id, c.sequence, c.attempts, c.endpoint_id, w.url, w.secret, w.previous_secret,
               w.previous_secret_expires_at, e.message_id, e.type, e.test, e.data, e.created_at
          FROM claimed c
          JOIN webhook_endpoints w ON w.id = c.endpoint_id
          JOIN webhook_events e ON e.id = c.event_id
         ORDER BY c.id`,
  );
  return rows.map((row) => ({
    id: toInt(row.id),
    sequence: toInt(row.sequence),
    attempts: toInt(row.attempts),
    endpointId: toInt(row.endpoint_id),
    url: row.url,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretExpiresAt:
      row.previous_secret_expires_at === null ? null : new Date(row.previous_secret_expires_at),
    messageId: row.message_id,
    type: row.type,
    test: row.test === true || row.test === 't',
    data: typeof row.data === 'string' ? JSON.parse(row.data) : row.data,
    createdAt: iso(row.created_at),
  }));
}

/**
 * Records an attempt's outcome, unless another worker has taken the delivery since (its lease
 * ran out): the attempt count it was claimed with must still be the row's.
 */
export async function recordAttempt(
  executor: Executor,
  input: {
    id: number;
    attempts: number;
    status: WebhookDeliveryStatus;
    statusCode: number | null;
    response: string;
    at: Date;
    nextAttemptAt: Date | null;
  },
): Promise<void> {
  await executor.execute(
    sql`UPDATE webhook_deliveries
           SET status = ${input.status}, last_status_code = ${input.statusCode},
               last_response = ${input.response},
               last_attempt_at = ${input.at.toISOString()}::timestamptz,
               next_attempt_at = ${input.nextAttemptAt ? input.nextAttemptAt.toISOString() : null}::timestamptz
         WHERE id = ${input.id} AND attempts = ${input.attempts}`,
  );
}

/** A 410 from the receiver: the endpoint is disabled until someone enables it again. */
export async function disableGoneEndpoint(
  executor: Executor,
  endpointId: number,
  at: Date,
): Promise<void> {
  await executor.execute(
    sql`UPDATE webhook_endpoints
           SET status = 'disabled', disabled_reason = 'gone',
               updated_at = ${at.toISOString()}::timestamptz
         WHERE id = ${endpointId}`,
  );
}
