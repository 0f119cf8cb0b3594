import { sql } from 'drizzle-orm';
import type { WebhookEventType } from '@app/contract';
import { queryRows, type Executor } from '../../db/client';

export interface OutboxEvent {
  type: WebhookEventType;
  /** The company the event is about: its `company_code` is added to `data`. */
  companyId: number | null;
  merchantId?: number | null;
  /**
   * Whether the company's own endpoints receive it (true unless told): a top-up's approval
   * request is the admin's business, not the company admin's (decision 0084), so its events go to
   * the admin's endpoints only, with the company's code all the same.
   */
  toCompany?: boolean;
  data: Record<string, unknown>;
  at: Date;
}

const companyCodeOf = (companyId: number | null) =>
  companyId === null
    ? sql`'{}'::jsonb`
    : sql`jsonb_build_object('company_code', (SELECT c.code FROM companies c WHERE c.id = ${companyId}))`;

/**
 * The webhook outbox (decision 0038): writes one event, and a pending delivery for each active
 * endpoint whose scope and events match it, through `webhook_enqueue` (sql/outbox.sql); nothing
 * when no endpoint takes the event (decision 0055). Call it
 * inside the transaction of the change the event describes, so the event exists if and only if
 * the change committed. The ledger's SQL functions call `webhook_enqueue` themselves (orders,
 * refunds). The company's code is added to `data` here. Never put a wallet balance in `data`.
 */
export async function recordEvent(executor: Executor, event: OutboxEvent): Promise<void> {
  const audience = event.toCompany === false ? null : event.companyId;
  await executor.execute(
    sql`SELECT webhook_enqueue(${event.type}, ${audience}, ${event.merchantId ?? null},
                               ${companyCodeOf(event.companyId)} || ${JSON.stringify(event.data)}::jsonb,
                               ${event.at.toISOString()}::timestamptz)`,
  );
}

/**
 * Whether any active endpoint takes events of `type` about this company (or merchant): a change
 * of many rows (an import) asks first, so that it builds no event data nobody would read
 * (decision 0055), then writes its events with `webhook_enqueue_each` in its own statements.
 */
export async function isEventWanted(
  executor: Executor,
  type: WebhookEventType,
  companyId: number | null,
  merchantId: number | null = null,
): Promise<boolean> {
  const [row] = await queryRows<{ wanted: unknown }>(
    executor,
    sql`SELECT webhook_wanted(${type}, ${companyId}, ${merchantId}) AS wanted`,
  );
  return row?.wanted === true || row?.wanted === 't';
}
