import { and, asc, eq, inArray, lte, lt, notInArray, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client';
import { queryRows } from '../../db/client';
import {
  companies,
  employees,
  monthlyResets,
  orders,
  type OrderItemRow,
  type tokenTransactions,
} from '../../db/schema';
import { toInt } from '../../lib/numbers';

// Wallets are locked FOR NO KEY UPDATE, not FOR UPDATE: foreign-key checks take KEY SHARE locks on
// the rows they reference (an order references its company), and FOR UPDATE would make those wait
// on, and deadlock with, a distribution holding the company. Lock order everywhere: an order row,
// then the company wallet, then employee wallets by ascending id.

export type CompanyRow = typeof companies.$inferSelect;
export type EmployeeRow = typeof employees.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;
export type NewLedgerRow = typeof tokenTransactions.$inferInsert;

/** Serialises resets of one company across connections and instances, until commit. */
const RESET_LOCK_CLASS = 727_003;
export async function takeResetLock(tx: Tx, companyId: number): Promise<void> {
  await tx.execute(
    sql`SELECT pg_advisory_xact_lock(${RESET_LOCK_CLASS}, ${companyId % 2_147_483_647}::int)`,
  );
}

export async function lockCompany(tx: Tx, companyId: number): Promise<CompanyRow | undefined> {
  const [row] = await tx
    .select()
    .from(companies)
    .where(eq(companies.id, companyId))
    .for('no key update');
  return row;
}

export async function findCompanyByCode(
  executor: Executor,
  code: string,
): Promise<CompanyRow | undefined> {
  const [row] = await executor
    .select()
    .from(companies)
    .where(sql`upper(${companies.code}) = upper(${code})`);
  return row;
}

/** Locks the given employees of a company, in id order. */
export async function lockEmployees(
  tx: Tx,
  companyId: number,
  employeeIds: number[],
): Promise<EmployeeRow[]> {
  if (employeeIds.length === 0) return [];
  return tx
    .select()
    .from(employees)
    .where(and(eq(employees.companyId, companyId), inArray(employees.id, employeeIds)))
    .orderBy(asc(employees.id))
    .for('no key update');
}

/** Locks every employee of a company, in id order. */
export async function lockCompanyEmployees(tx: Tx, companyId: number): Promise<EmployeeRow[]> {
  return tx
    .select()
    .from(employees)
    .where(eq(employees.companyId, companyId))
    .orderBy(asc(employees.id))
    .for('no key update');
}

export async function lockEmployeeByStaffNumber(
  tx: Tx,
  companyId: number,
  staffNumber: string,
): Promise<EmployeeRow | undefined> {
  const [row] = await tx
    .select()
    .from(employees)
    .where(and(eq(employees.companyId, companyId), eq(employees.employeeId, staffNumber)))
    .for('no key update');
  return row;
}

export async function lockEmployee(tx: Tx, employeeId: number): Promise<EmployeeRow | undefined> {
  const [row] = await tx
    .select()
    .from(employees)
    .where(eq(employees.id, employeeId))
    .for('no key update');
  return row;
}

const LEDGER_INSERT_CHUNK = 5_000;

/**
 * Appends ledger rows in the order given; the database applies them to their wallets (migrations
 * 0002 and 0009), refusing any that do not start from the wallet's balance. Returns their ids in
 * order. Each chunk is one INSERT over unnest()ed column arrays: sixteen parameters whatever the
 * number of rows, which keeps a reset of a large company cheap to build, send and plan.
 */
export async function insertLedgerRows(tx: Tx, rows: NewLedgerRow[]): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += LEDGER_INSERT_CHUNK) {
    const chunk = rows.slice(i, i + LEDGER_INSERT_CHUNK);
    const column = (pick: (row: NewLedgerRow) => string | number | null | undefined) =>
      sql.param(chunk.map((row) => pick(row) ?? null));
    const inserted = await queryRows<{ id: unknown }>(
      tx,
      sql`INSERT INTO token_transactions (occurred_at, event, company_id, employee_id, direction,
            amount, balance_before, balance_after, period, order_id, refund_reason, transfer_id,
            actor_user_id, terminal_id, merchant_id, note)
          SELECT occurred_at, event, company_id, employee_id, direction, amount, balance_before,
                 balance_after, period, order_id, refund_reason, transfer_id, actor_user_id,
                 terminal_id, merchant_id, note
            FROM unnest(${column((r) => r.occurredAt.toISOString())}::timestamptz[],
                        ${column((r) => r.event)}::text[], ${column((r) => r.companyId)}::bigint[],
                        ${column((r) => r.employeeId)}::bigint[],
                        ${column((r) => r.direction)}::text[], ${column((r) => r.amount)}::bigint[],
                        ${column((r) => r.balanceBefore)}::bigint[],
                        ${column((r) => r.balanceAfter)}::bigint[],
                        ${column((r) => r.period)}::text[], ${column((r) => r.orderId)}::bigint[],
                        ${column((r) => r.refundReason)}::text[],
                        ${column((r) => r.transferId)}::uuid[],
                        ${column((r) => r.actorUserId)}::bigint[],
                        ${column((r) => r.terminalId)}::bigint[],
                        ${column((r) => r.merchantId)}::bigint[], ${column((r) => r.note)}::text[])
                 WITH ORDINALITY AS r(occurred_at, event, company_id, employee_id, direction,
                   amount, balance_before, balance_after, period, order_id, refund_reason,
                   transfer_id, actor_user_id, terminal_id, merchant_id, note, position)
           ORDER BY position
          RETURNING id`,
    );
    ids.push(...inserted.map((r) => toInt(r.id)).sort((a, b) => a - b));
  }
  return ids;
}

export async function setCompanyPeriod(
  tx: Tx,
  companyId: number,
  values: {
    tokenMonth: string;
    nextResetAt: Date;
    initToken: number;
    initTokenNextMonth: number | null;
    updatedAt: Date;
  },
): Promise<void> {
  await tx.update(companies).set(values).where(eq(companies.id, companyId));
}

// A statement takes at most 65,535 bind parameters: a company's whole staff goes in slices.
const EMPLOYEE_ID_CHUNK = 10_000;

export async function setEmployeesTokenMonth(
  tx: Tx,
  employeeIds: number[],
  tokenMonth: string,
  updatedAt: Date,
): Promise<void> {
  for (let i = 0; i < employeeIds.length; i += EMPLOYEE_ID_CHUNK) {
    await tx
      .update(employees)
      .set({ tokenMonth, updatedAt })
      .where(inArray(employees.id, employeeIds.slice(i, i + EMPLOYEE_ID_CHUNK)));
  }
}

export async function insertMonthlyReset(
  tx: Tx,
  row: typeof monthlyResets.$inferInsert,
): Promise<void> {
  await tx.insert(monthlyResets).values(row);
}

export async function hasMonthlyReset(
  executor: Executor,
  companyId: number,
  period: string,
): Promise<boolean> {
  const rows = await executor
    .select({ companyId: monthlyResets.companyId })
    .from(monthlyResets)
    .where(and(eq(monthlyResets.companyId, companyId), eq(monthlyResets.period, period)));
  return rows.length > 0;
}

/** Companies whose next reset is due, oldest due first, leaving out those already tried. */
export async function findCompaniesDueForReset(
  executor: Executor,
  now: Date,
  limit: number,
  excluding: number[] = [],
): Promise<number[]> {
  const rows = await executor
    .select({ id: companies.id })
    .from(companies)
    .where(
      and(
        lte(companies.nextResetAt, now),
        excluding.length ? notInArray(companies.id, excluding) : undefined,
      ),
    )
    .orderBy(asc(companies.nextResetAt), asc(companies.id))
    .limit(limit);
  return rows.map((r) => r.id);
}

export async function insertOrder(
  tx: Tx,
  values: {
    companyId: number;
    employeeId: number;
    merchantId: number;
    terminalId: number;
    orderType: string;
    items: OrderItemRow[];
    subtotal: number;
    orderedAt: Date;
  },
): Promise<OrderRow> {
  const [row] = await tx.insert(orders).values(values).returning();
  return row!;
}

export async function lockOrder(
  tx: Tx,
  orderId: number,
  merchantId: number | null,
): Promise<OrderRow | undefined> {
  const [row] = await tx
    .select()
    .from(orders)
    .where(
      merchantId === null
        ? eq(orders.id, orderId)
        : and(eq(orders.id, orderId), eq(orders.merchantId, merchantId)),
    )
    .for('no key update');
  return row;
}

export async function getOrderRow(executor: Executor, orderId: number): Promise<OrderRow> {
  const [row] = await executor.select().from(orders).where(eq(orders.id, orderId));
  if (!row) throw new Error(`order ${orderId} vanished`);
  return row;
}

/** Orders still open (not fully refunded) placed before `before`, oldest first. */
export async function findOpenOrdersBefore(
  executor: Executor,
  before: Date,
  limit: number,
): Promise<OrderRow[]> {
  return executor
    .select()
    .from(orders)
    .where(and(lt(orders.orderedAt, before), lt(orders.refundedAmount, orders.subtotal)))
    .orderBy(asc(orders.orderedAt), asc(orders.id))
    .limit(limit);
}

/** What an employee received and spent in a token month (for the employee view). */
export async function employeeMonthTotals(
  executor: Executor,
  employeeId: number,
  period: string,
): Promise<{ issued: number; consumed: number }> {
  const [row] = await queryRows<{ issued: unknown; consumed: unknown }>(
    executor,
    sql`SELECT
      coalesce(sum(amount) FILTER (WHERE event IN ('employee_issued','monthly_tokens_reset')), 0) AS issued,
      coalesce(sum(amount) FILTER (WHERE event = 'order_purchased'), 0)
        - coalesce(sum(amount) FILTER (WHERE event = 'order_refunded'), 0) AS consumed
      FROM token_transactions WHERE employee_id = ${employeeId} AND period = ${period}`,
  );
  return { issued: toInt(row?.issued ?? 0), consumed: toInt(row?.consumed ?? 0) };
}
