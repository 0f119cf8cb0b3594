import { and, eq, sql } from 'drizzle-orm';
import type { Order } from '@app/contract';
import type { Executor, Tx } from '../../db/client';
import { companies, employees, orders, terminalIdempotencyKeys } from '../../db/schema';
import { iso } from '../../lib/numbers';

export async function getOrderView(executor: Executor, orderId: number): Promise<Order> {
  const [row] = await executor
    .select({
      order: orders,
      companyCode: companies.code,
      staffNumber: employees.employeeId,
    })
    .from(orders)
    .innerJoin(companies, eq(companies.id, orders.companyId))
    .innerJoin(employees, eq(employees.id, orders.employeeId))
    .where(eq(orders.id, orderId));
  if (!row) throw new Error(`order ${orderId} not found`);
  const o = row.order;
  return {
    id: o.id,
    order_no: o.orderNo,
    status: o.status as Order['status'],
    subtotal: o.subtotal,
    refunded_amount: o.refundedAmount,
    company_id: o.companyId,
    company_code: row.companyCode,
    employee_id: row.staffNumber,
    merchant_id: o.merchantId,
    terminal_id: o.terminalId,
    order_type: o.orderType,
    items: o.items,
    ordered_at: iso(o.orderedAt),
  };
}

export interface StoredAnswer {
  requestHash: string;
  responseStatus: number | null;
  responseBody: unknown;
}

/**
 * Claims an idempotency key for this transaction. Returns null when claimed; otherwise the answer
 * stored by whoever claimed it first. A concurrent claimant waits on the unique key until the first
 * commits (then sees its answer) or rolls back (then claims it itself).
 */
export async function claimIdempotencyKey(
  tx: Tx,
  values: { terminalId: number; key: string; requestHash: string; createdAt: Date },
): Promise<StoredAnswer | null> {
  const claimed = await tx
    .insert(terminalIdempotencyKeys)
    .values({
      terminalId: values.terminalId,
      idempotencyKey: values.key,
      requestHash: values.requestHash,
      createdAt: values.createdAt,
    })
    .onConflictDoNothing()
    .returning({ key: terminalIdempotencyKeys.idempotencyKey });
  if (claimed.length > 0) return null;
  const [existing] = await tx
    .select({
      requestHash: terminalIdempotencyKeys.requestHash,
      responseStatus: terminalIdempotencyKeys.responseStatus,
      responseBody: terminalIdempotencyKeys.responseBody,
    })
    .from(terminalIdempotencyKeys)
    .where(
      and(
        eq(terminalIdempotencyKeys.terminalId, values.terminalId),
        eq(terminalIdempotencyKeys.idempotencyKey, values.key),
      ),
    );
  if (!existing) throw new Error('idempotency key neither claimed nor found');
  return existing;
}

export async function storeIdempotentAnswer(
  tx: Tx,
  values: {
    terminalId: number;
    key: string;
    status: number;
    body: unknown;
    orderId: number;
  },
): Promise<void> {
  await tx
    .update(terminalIdempotencyKeys)
    .set({
      responseStatus: values.status,
      responseBody: sql`${JSON.stringify(values.body)}::jsonb`,
      orderId: values.orderId,
    })
    .where(
      and(
        eq(terminalIdempotencyKeys.terminalId, values.terminalId),
        eq(terminalIdempotencyKeys.idempotencyKey, values.key),
      ),
    );
}
