import type { FastifyInstance } from 'fastify';
import { Webhook as Signer } from 'standardwebhooks';
import type { WebhookDeliveryStatus } from '@app/contract';
import type { ServiceDeps } from '../../lib/deps';
import { isAppError } from '../../lib/app-error';
import { sendWebhook, DELIVERY_TIMEOUT_MS, type SendResult } from './webhook-sender';
import { checkWebhookTarget, systemResolver, type Resolver } from './webhook-targets';
import { inTransaction } from '../../lib/transaction';
import {
  claimDueDeliveries,
  disableGoneEndpoint,
  numberNewDeliveries,
  recordAttempt,
  type ClaimedDelivery,
} from './webhooks.repository';

/**
 * After the first attempt fails, the same webhook-id is tried again after these waits (DESIGN 6:
 * about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h); when the last fails the delivery is `failed`.
 */
export const RETRY_SCHEDULE_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
] as const;

/** A claimed delivery is not due again for this long: longer than any attempt can take. */
const LEASE_MS = 6 * DELIVERY_TIMEOUT_MS;
/** Deliveries one pass claims and sends at once. */
const BATCH = 16;

export interface DeliveryDeps extends ServiceDeps {
  resolve?: Resolver | undefined;
  /** Receives what went wrong outside an attempt (the database, say). */
  onError?: (error: unknown) => void;
}

/**
 * The Standard Webhooks body of an event: `{ id, type, timestamp, data }` (DESIGN 6), with the
 * delivery's `sequence` among its endpoint's and whether it is a `test` event (decision 0084).
 */
export const webhookBody = (delivery: ClaimedDelivery): string =>
  JSON.stringify({
    id: delivery.messageId,
    type: delivery.type,
    timestamp: delivery.createdAt,
    sequence: delivery.sequence,
    test: delivery.test,
    data: delivery.data,
  });

/**
 * The `webhook-signature` header: `v1,<signature>` with the endpoint's secret and, while a rotated
 * secret still signs (24 hours after the rotation, decision 0084), a second `v1,<signature>` with
 * that one, space-separated as Standard Webhooks allows: a receiver verifies with either secret.
 */
export function webhookSignature(delivery: ClaimedDelivery, sentAt: Date, body: string): string {
  const secrets = [delivery.secret];
  if (
    delivery.previousSecret !== null &&
    delivery.previousSecretExpiresAt !== null &&
    sentAt < delivery.previousSecretExpiresAt
  ) {
    secrets.push(delivery.previousSecret);
  }
  return secrets
    .map((secret) => new Signer(secret).sign(delivery.messageId, sentAt, body))
    .join(' ');
}

async function attempt(deps: DeliveryDeps, delivery: ClaimedDelivery): Promise<SendResult> {
  let target;
  try {
    // Checked again at each attempt (a name may now resolve elsewhere); the request then
    // connects to the address checked here.
    target = await checkWebhookTarget(delivery.url, {
      allowHttp: deps.config.WEBHOOKS_ALLOW_HTTP,
      allowedPorts: deps.config.WEBHOOKS_ALLOWED_PORTS,
      resolve: deps.resolve ?? systemResolver,
    });
  } catch (error) {
    if (isAppError(error)) return { statusCode: null, response: 'target address not allowed' };
    throw error;
  }
  const body = webhookBody(delivery);
  const sentAt = deps.clock.now();
  return sendWebhook(target, body, {
    'webhook-id': delivery.messageId,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': webhookSignature(delivery, sentAt, body),
  });
}

async function settle(deps: DeliveryDeps, delivery: ClaimedDelivery, result: SendResult) {
  const at = deps.clock.now();
  const code = result.statusCode;
  const isSuccess = code !== null && code >= 200 && code < 300;
  let status: WebhookDeliveryStatus;
  let nextAttemptAt: Date | null = null;
  if (isSuccess) {
    status = 'succeeded';
  } else if (code === 410) {
    status = 'failed';
    await disableGoneEndpoint(deps.database.db, delivery.endpointId, at);
  } else {
    const wait = RETRY_SCHEDULE_MS[delivery.attempts - 1];
    status = wait === undefined ? 'failed' : 'pending';
    nextAttemptAt = wait === undefined ? null : new Date(at.getTime() + wait);
  }
  await recordAttempt(deps.database.db, {
    id: delivery.id,
    attempts: delivery.attempts,
    status,
    statusCode: code,
    response: result.response,
    at,
    nextAttemptAt,
  });
  deps.metrics?.webhookDeliveries.inc({ outcome: isSuccess ? 'succeeded' : 'failed' });
}

/**
 * One pass of the delivery worker (decision 0038): numbers the deliveries written since the last
 * pass (decision 0084: a delivery is sent only once it has its number), claims the due deliveries
 * of this moment (FOR UPDATE SKIP LOCKED: any number of instances may run this at once, each
 * delivery goes to one), sends them and records each outcome. Returns how many it claimed.
 */
export async function deliverDueWebhooks(deps: DeliveryDeps, limit = BATCH): Promise<number> {
  await inTransaction(deps.database, (tx) => numberNewDeliveries(tx));
  const now = deps.clock.now();
  const claimed = await claimDueDeliveries(deps.database.db, {
    now,
    leaseUntil: new Date(now.getTime() + LEASE_MS),
    limit,
  });
  await Promise.all(
    claimed.map(async (delivery) => {
      try {
        await settle(deps, delivery, await attempt(deps, delivery));
      } catch (error) {
        // Left leased: it is due again when the lease ends.
        deps.onError?.(error);
      }
    }),
  );
  return claimed.length;
}

/**
 * Runs the delivery worker in this instance every WEBHOOKS_POLL_MS (0: never), as the jobs timer
 * runs the jobs: started by start.ts, never by buildApp, so tests drive deliveries by hand. A
 * full batch is followed at once by the next. Returns a stop function that waits for the pass in
 * progress, so the database closes after it (graceful shutdown).
 */
export function startWebhookWorker(
  app: FastifyInstance,
  options: { resolve?: Resolver } = {},
): () => Promise<void> {
  const interval = app.deps.config.WEBHOOKS_POLL_MS;
  if (interval <= 0) return async () => undefined;
  let stopped = false;
  let current: Promise<void> | null = null;
  const deps: DeliveryDeps = {
    ...app.deps,
    resolve: options.resolve,
    onError: (error) => app.log.error({ err: error }, 'webhook delivery failed'),
  };
  const run = async () => {
    try {
      while (!stopped && (await deliverDueWebhooks(deps)) === BATCH) {
        // a full batch: more may be due
      }
    } catch (error) {
      app.log.error({ err: error }, 'webhook delivery pass failed');
    }
  };
  const tick = () => {
    current ??= run().finally(() => {
      current = null;
    });
  };
  const timer = setInterval(tick, interval);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await current;
  };
}
