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

import type { CompanyRow, EmployeeRow } from '../../db/schema';

export type { CompanyRow, EmployeeRow };
export type OrderRow = typeof orders.$inferSelect;
export type NewLedgerRow = typeof tokenTransactions.$inferInsert;

/** Serialises resets of one company across connections and instances, until commit. */
const RESET_LOCK_CLASS = 727_003;
export async function takeResetLock(tx: Tx, companyId: number): Promise<void> {
  await tx.execute(
    sql`SELECT pg_advisory_xact_lock(${RESET_LOCK_CLASS}, ${companyId % 2_147_483_647}::int)`,
  );
}

/**
 * A reset writes a whole company in one statement (`resetCompany`): some 300,000 ledger rows for
 * 100,000 employees, seconds of work on a busy server. The statement limit of the connection
 * (DATABASE_STATEMENT_TIMEOUT_MS, meant for requests) is raised for the reset's transaction only.
 */
export async function allowLongResetStatements(tx: Tx): Promise<void> {
  await tx.execute(sql`SELECT set_config('statement_timeout', '10min', true)`);
}

export async function lockCompany(tx: Tx, companyId: number): Promise<CompanyRow | undefined> {
  const [row] = await tx
    .select()
    .from(companies)
    .where(eq(companies.id, companyId))
    .for('no key update');
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

/** What a reset reads of each employee. */
export type ResetEmployee = Pick<
  EmployeeRow,
  'id' | 'status' | 'availableTokens' | 'monthlyTokens' | 'tokenMonth'
>;

/** Locks every employee of a company, in id order, reading what a reset needs. */
export async function lockCompanyEmployees(tx: Tx, companyId: number): Promise<ResetEmployee[]> {
  return tx
    .select({
      id: employees.id,
      status: employees.status,
      availableTokens: employees.availableTokens,
      monthlyTokens: employees.monthlyTokens,
      tokenMonth: employees.tokenMonth,
    })
    .from(employees)
    .where(eq(employees.companyId, companyId))
    .orderBy(asc(employees.id))
    .for('no key update');
}

const LEDGER_INSERT_CHUNK = 5_000;

/**
 * Appends ledger rows in the order given; the database applies them to their wallets (migrations
 * 0002, 0009 and 0011), refusing any that do not start from the wallet's balance. Returns their
 * ids in order. Each chunk is one INSERT over unnest()ed column arrays: sixteen parameters
 * whatever the number of rows, which keeps a large distribution cheap to build, send and plan.
 * The two rows of a transfer go in one chunk: the database checks transfers per statement.
 */
export async function insertLedgerRows(tx: Tx, rows: NewLedgerRow[]): Promise<number[]> {
  const ids: number[] = [];
  let i = 0;
  while (i < rows.length) {
    let end = Math.min(rows.length, i + LEDGER_INSERT_CHUNK);
    const transferId = rows[end]?.transferId;
    if (transferId && rows[end - 1]!.transferId === transferId) end += 1;
    const chunk = rows.slice(i, end);
    i = end;
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

/** A monthly reset's ledger rows, as `resetCompany` decided them (DESIGN 3.5). */
export interface ResetRows {
  companyId: number;
  at: Date;
  /** Each employee's whole balance, expiring in the month it was held (`employee_expired`). */
  expiries: { employeeId: number; amount: number; period: string }[];
  /** The company's own rows: its expiry and its allocation, as the ledger service built them. */
  companyRows: NewLedgerRow[];
  /** The company's balance when the renewals start, after its own rows. */
  renewalsFrom: number;
  /** Transfers (`monthly_tokens_reset`) into `period`, in this order. */
  renewals: { employeeId: number; amount: number; transferId: string }[];
  period: string;
}

/**
 * Writes a reset's rows with one INSERT, in the order of DESIGN 3.5: the employees' expiries, the
 * company's rows, then each renewal as a company debit and an employee credit. One statement, so
 * the ledger trigger writes each employee once, its expiry and renewal together (migration 0011);
 * and expanded here from per-employee arrays, which keeps some 300,000 rows of a 100,000-employee
 * company out of the API's memory. Every balance has expired when the renewals start, so each
 * credit starts from 0 and the debits run the company's balance down from `renewalsFrom`; the
 * database checks every row as it checks any other (chains, balances, transfers).
 */
export async function insertResetRows(tx: Tx, reset: ResetRows): Promise<void> {
  const { expiries, companyRows: own, renewals } = reset;
  await tx.execute(
    sql`WITH renewal AS (
          SELECT employee_id, amount, transfer_id, n,
                 ${reset.renewalsFrom}::bigint - sum(amount) OVER (ORDER BY n) + amount AS company_before
            FROM unnest(${sql.param(renewals.map((r) => r.employeeId))}::bigint[],
                        ${sql.param(renewals.map((r) => r.amount))}::bigint[],
                        ${sql.param(renewals.map((r) => r.transferId))}::uuid[])
                 WITH ORDINALITY AS r(employee_id, amount, transfer_id, n))
        INSERT INTO token_transactions (occurred_at, event, company_id, employee_id, direction,
          amount, balance_before, balance_after, period, transfer_id)
        SELECT ${reset.at.toISOString()}::timestamptz, event, ${reset.companyId}::bigint,
               employee_id, direction, amount, balance_before, balance_after, period, transfer_id
          FROM (SELECT 1 AS step, n, 0 AS side, 'employee_expired' AS event, employee_id,
                       'sent' AS direction, amount, amount AS balance_before,
                       0::bigint AS balance_after, period, NULL::uuid AS transfer_id
                  FROM unnest(${sql.param(expiries.map((e) => e.employeeId))}::bigint[],
                              ${sql.param(expiries.map((e) => e.amount))}::bigint[],
                              ${sql.param(expiries.map((e) => e.period))}::text[])
                       WITH ORDINALITY AS e(employee_id, amount, period, n)
                UNION ALL
                SELECT 2, n, 0, event, NULL, direction, amount, balance_before, balance_after,
                       period, NULL
                  FROM unnest(${sql.param(own.map((r) => r.event))}::text[],
                              ${sql.param(own.map((r) => r.direction))}::text[],
                              ${sql.param(own.map((r) => r.amount))}::bigint[],
                              ${sql.param(own.map((r) => r.balanceBefore))}::bigint[],
                              ${sql.param(own.map((r) => r.balanceAfter))}::bigint[],
                              ${sql.param(own.map((r) => r.period))}::text[])
                       WITH ORDINALITY AS c(event, direction, amount, balance_before,
                         balance_after, period, n)
                UNION ALL
                SELECT 3, n, 0, 'monthly_tokens_reset', NULL, 'sent', amount, company_before,
                       company_before - amount, ${reset.period}, transfer_id
                  FROM renewal
                UNION ALL
                SELECT 3, n, 1, 'monthly_tokens_reset', employee_id, 'received', amount, 0, amount,
                       ${reset.period}, transfer_id
                  FROM renewal) AS posting
         ORDER BY step, n, side`,
  );
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

export interface TerminalOrderOutcome {
  /** 'placed' or 'refunded', 'stored', 'reused' or the catalogue code of a refusal (terminal-orders.sql). */
  outcome: string;
  status: number | null;
  body: unknown;
}

/** One call of `place_terminal_order` (migration 0012): the whole of POST /orders. */
export async function placeTerminalOrderRow(
  executor: Executor,
  values: {
    terminalId: number;
    merchantId: number;
    idempotencyKey: string;
    requestHash: string;
    companyCode: string;
    staffNumber: string;
    orderType: string;
    items: OrderItemRow[];
    subtotal: number;
    at: Date;
  },
): Promise<TerminalOrderOutcome> {
  const [row] = await queryRows<TerminalOrderOutcome>(
    executor,
    sql`SELECT outcome, status, body FROM place_terminal_order(
          ${values.terminalId}::bigint, ${values.merchantId}::bigint, ${values.idempotencyKey},
          ${values.requestHash}, ${values.companyCode}, ${values.staffNumber}, ${values.orderType},
          ${JSON.stringify(values.items)}::jsonb, ${values.subtotal}::bigint,
          ${values.at.toISOString()}::timestamptz)`,
  );
  if (!row) throw new Error('place_terminal_order answered no row');
  return row;
}

/**
 * One call of `place_terminal_orders` (terminal-orders.sql): a batch of orders in one transaction
 * (group commit, decision 0034), each placed by `place_terminal_order` as alone. Answers each
 * order's outcome, in the order given.
 */
export async function placeTerminalOrderRows(
  executor: Executor,
  orders: Parameters<typeof placeTerminalOrderRow>[1][],
): Promise<TerminalOrderOutcome[]> {
  const rows = await queryRows<TerminalOrderOutcome & { ord: number }>(
    executor,
    sql`SELECT ord, outcome, status, body FROM place_terminal_orders(${JSON.stringify(
      orders.map((o) => ({
        terminal_id: o.terminalId,
        merchant_id: o.merchantId,
        key: o.idempotencyKey,
        request_hash: o.requestHash,
        company_code: o.companyCode,
        staff_number: o.staffNumber,
        order_type: o.orderType,
        items: o.items,
        subtotal: o.subtotal,
        at: o.at.toISOString(),
      })),
    )}::jsonb)`,
  );
  const outcomes: TerminalOrderOutcome[] = [];
  for (const { ord, ...outcome } of rows) outcomes[Number(ord) - 1] = outcome;
  if (rows.length !== orders.length || outcomes.some((o) => o === undefined)) {
    throw new Error(`place_terminal_orders answered ${rows.length} rows for ${orders.length}`);
  }
  return outcomes;
}

/** One call of `refund_terminal_order` (terminal-orders.sql): the whole of a refund. */
export async function refundTerminalOrderRow(
  executor: Executor,
  values: {
    terminalId: number;
    /** Null for the auto-archive job, which may refund any order. */
    merchantId: number | null;
    /** Null for the auto-archive job, which needs no idempotency key. */
    idempotencyKey: string | null;
    requestHash: string | null;
    orderId: number;
    reason: string;
    amount: number | null;
    actorUserId: number | null;
    at: Date;
  },
): Promise<TerminalOrderOutcome> {
  const [row] = await queryRows<TerminalOrderOutcome>(
    executor,
    sql`SELECT outcome, status, body FROM refund_terminal_order(
          ${values.terminalId}::bigint, ${values.merchantId}::bigint, ${values.idempotencyKey},
          ${values.requestHash}, ${values.orderId}::bigint, ${values.reason},
          ${values.amount}::bigint, ${values.actorUserId}::bigint,
          ${values.at.toISOString()}::timestamptz)`,
  );
  if (!row) throw new Error('refund_terminal_order answered no row');
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
