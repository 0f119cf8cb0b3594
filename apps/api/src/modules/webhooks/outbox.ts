import { sql } from 'drizzle-orm';
import type { WebhookEventType } from '@app/contract';
import type { Executor } from '../../db/client';

/**
 * The webhook outbox (decision 0038): writes one event, and a pending delivery for each active
 * endpoint whose scope and events match it, through `webhook_enqueue` (sql/outbox.sql); nothing
 * when no endpoint takes the event (decision 0055). Call it
 * inside the transaction of the change the event describes, so the event exists if and only if
 * the change committed. The ledger's SQL functions call `webhook_enqueue` themselves (orders,
 * refunds). The company's code is added to `data` here. Never put a wallet balance in `data`.
 */
export async function recordEvent(
  executor: Executor,
  event: {
    type: WebhookEventType;
    companyId: number | null;
    merchantId?: number | null;
    data: Record<string, unknown>;
    at: Date;
  },
): Promise<void> {
  const companyCode =
    event.companyId === null
      ? sql`'{}'::jsonb`
      : sql`jsonb_build_object('company_code', (SELECT c.code FROM companies c WHERE c.id = ${event.companyId}))`;
  await executor.execute(
    sql`SELECT webhook_enqueue(${event.type}, ${event.companyId}, ${event.merchantId ?? null},
                               ${companyCode} || ${JSON.stringify(event.data)}::jsonb,
                               ${event.at.toISOString()}::timestamptz)`,
  );
}
