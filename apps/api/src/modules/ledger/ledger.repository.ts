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
 * (DATABASE_STATEMENT_TIMEOUT_MS, meant for requests) is raised for the reset's transaction only,
 * and so is its sort memory: at the default 4 MB the reset's sorts of its 300,000 rows (the
 * INSERT's order, the ledger trigger's chain check and per-wallet groups, the transfers' check)
 * each spilled 4–37 MB to disk (decision 0059).
 */
export async function allowLongResetStatements(tx: Tx): Promise<void> {
  await tx.execute(
    sql`SELECT set_config('statement_timeout', '10min', true), set_config('work_mem', '64MB', true)`,
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

/** What a reset needs to know of a company's staff, summed over its locked rows. */
export interface ResetStaff {
  employees: number;
  /** The employees' balances, all of which expire (`employee_expired`). */
  expiringTokens: number;
  /** Active employees: each is renewed into the new month. */
  active: number;
  /** Their monthly amounts added up (each `monthly_tokens`, else the company's default). */
  wanted: number;
}

/**
 * Locks every employee of a company, in id order (the one lock order), and sums what a reset
 * needs; the rows stay in the database (no 100,000-row answer to build, send and read back).
 */
export async function lockCompanyStaff(
  tx: Tx,
  companyId: number,
  defaultMonthlyTokens: number,
): Promise<ResetStaff> {
  const [row] = await queryRows<Record<string, unknown>>(
    tx,
    sql`SELECT count(*) AS employees,
               coalesce(sum(available_tokens), 0) AS expiring,
               count(*) FILTER (WHERE status = 'active') AS active,
               coalesce(sum(coalesce(monthly_tokens, ${defaultMonthlyTokens}::bigint))
                 FILTER (WHERE status = 'active'), 0) AS wanted
          FROM (SELECT status, available_tokens, monthly_tokens FROM employees
                 WHERE company_id = ${companyId} ORDER BY id FOR NO KEY UPDATE) AS locked`,
  );
  return {
    employees: toInt(row!.employees),
    expiringTokens: toInt(row!.expiring),
    active: toInt(row!.active),
    // Not toInt: a sum past 2^53 is only ever compared with a balance, which it then exceeds.
    wanted: Number(row!.wanted),
  };
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
  /** The company's own rows: its expiry and its allocation, as the ledger service built them. */
  companyRows: NewLedgerRow[];
  /** The company's balance when the renewals start, after its own rows. */
  renewalsFrom: number;
  /**
   * Whether the active employees receive their monthly amounts (`monthly_tokens`, else
   * `defaultMonthlyTokens`): one transfer (`monthly_tokens_reset`) each, into `period`, by id.
   */
  isAllocated: boolean;
  defaultMonthlyTokens: number;
  period: string;
  /**
   * The first 15 characters of `timeOrderedUuid(at)` (its instant and version): each transfer id
   * is that and the random rest of a gen_random_uuid(), as timeOrderedUuid makes them.
   */
  transferIdPrefix: string;
}

/**
 * Writes a reset's rows with one INSERT, in the order of DESIGN 3.5: every employee's whole
 * balance expiring in the month it was held (by id), the company's rows, then each renewal as a
 * company debit and an employee credit (by id). The rows are built from the employees' locked rows
 * inside the statement (`lockCompanyStaff` took the locks), so none of some 300,000 rows of a
 * 100,000-employee company passes through the API. One statement, so the ledger trigger writes each
 * employee once, its expiry and renewal together (migration 0011). Every balance has expired when
 * the renewals start, so each credit starts from 0 and the debits run the company's balance down
 * from `renewalsFrom`; the database checks every row as it checks any other (chains, balances,
 * transfers).
 */
export async function insertResetRows(tx: Tx, reset: ResetRows): Promise<void> {
  const own = reset.companyRows;
  await tx.execute(
    sql`WITH staff AS MATERIALIZED (
          SELECT id, status, available_tokens, token_month,
                 coalesce(monthly_tokens, ${reset.defaultMonthlyTokens}::bigint) AS amount
            FROM employees WHERE company_id = ${reset.companyId}
        ), renewal AS (
          SELECT id AS employee_id, amount, n,
                 (${reset.transferIdPrefix}::text || substr(gen_random_uuid()::text, 16))::uuid
                   AS transfer_id,
                 ${reset.renewalsFrom}::bigint - sum(amount) OVER (ORDER BY n) + amount AS company_before
            FROM (SELECT id, amount, row_number() OVER (ORDER BY id) AS n FROM staff
                   WHERE ${reset.isAllocated}::boolean AND status = 'active' AND amount > 0) AS r)
        INSERT INTO token_transactions (occurred_at, event, company_id, employee_id, direction,
          amount, balance_before, balance_after, period, transfer_id)
        SELECT ${reset.at.toISOString()}::timestamptz, event, ${reset.companyId}::bigint,
               employee_id, direction, amount, balance_before, balance_after, period, transfer_id
          FROM (SELECT 1 AS step, id AS n, 0 AS side, 'employee_expired' AS event, id AS employee_id,
                       'sent' AS direction, available_tokens AS amount,
                       available_tokens AS balance_before, 0::bigint AS balance_after,
                       token_month AS period, NULL::uuid AS transfer_id
                  FROM staff WHERE available_tokens > 0
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

/**
 * Takes the active employees a reset gives no amount (all of them when the company could not
 * cover every amount) into the new month; a renewal row takes the others (migration 0011).
 */
export async function renewWithoutAmount(
  tx: Tx,
  reset: Pick<ResetRows, 'companyId' | 'at' | 'isAllocated' | 'defaultMonthlyTokens' | 'period'>,
): Promise<void> {
  await tx.execute(
    sql`UPDATE employees SET token_month = ${reset.period},
                             updated_at = ${reset.at.toISOString()}::timestamptz
         WHERE company_id = ${reset.companyId} AND status = 'active'
           AND (NOT ${reset.isAllocated}::boolean
                OR coalesce(monthly_tokens, ${reset.defaultMonthlyTokens}::bigint) = 0)`,
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

/** What `distribute_tokens` (sql/distribution.sql) answered. */
export interface DistributionOutcome {
  /** 'distributed' or the catalogue code of a refusal (then nothing was written). */
  outcome: string;
  tokenBalance: number;
  total: number;
  items: { employee_id: number; amount: number; available_tokens: number; transfer_id: string }[];
}

/**
 * One call of `distribute_tokens` (decision 0061): a company's whole distribution, its event and,
 * given `audit`, its audit row. `transfers` are by employee id, each id once.
 */
export async function distributeTokensRow(
  tx: Tx,
  values: {
    companyId: number;
    transfers: { employeeId: number; amount: number; transferId: string }[];
    note: string | null;
    actorUserId: number | null;
    at: Date;
    audit: { ip: string | null; approval_id?: number } | null;
  },
): Promise<DistributionOutcome> {
  const column = (pick: (t: (typeof values.transfers)[number]) => string | number) =>
    sql.param(values.transfers.map(pick));
  const [row] = await queryRows<Record<string, unknown>>(
    tx,
    sql`SELECT outcome, token_balance, total, items
          FROM distribute_tokens(${values.companyId}::bigint,
                                 ${column((t) => t.employeeId)}::bigint[],
                                 ${column((t) => t.amount)}::bigint[],
                                 ${column((t) => t.transferId)}::uuid[],
                                 ${values.note}::text, ${values.actorUserId}::bigint,
                                 ${values.at.toISOString()}::timestamptz,
                                 ${values.audit === null ? null : JSON.stringify(values.audit)}::jsonb)`,
  );
  if (!row) throw new Error('distribute_tokens answered no row');
  const items = (row.items ?? []) as Record<string, unknown>[];
  return {
    outcome: String(row.outcome),
    tokenBalance: toInt(row.token_balance ?? 0),
    total: toInt(row.total ?? 0),
    items: items.map((i) => ({
      employee_id: toInt(i.employee_id),
      amount: toInt(i.amount),
      available_tokens: toInt(i.available_tokens),
      transfer_id: String(i.transfer_id),
    })),
  };
}

export interface TerminalOrderOutcome {
  /** 'placed' or 'refunded', 'stored', 'reused' or the catalogue code of a refusal (terminal-orders.sql). */
  outcome: string;
  status: number | null;
  body: unknown;
}

/** What `place_terminal_order` and `place_terminal_orders` take of one order. */
export interface TerminalOrderRow {
  terminalId: number;
  merchantId: number;
  idempotencyKey: string;
  requestHash: string;
  companyCode: string;
  staffNumber: string;
  orderType: string;
  items: OrderItemRow[];
  subtotal: number;
  /** Split tender asked for (DESIGN 7): accepted in part where the company's rules allow it. */
  partial?: boolean;
  /** Named by a pay code (DESIGN 8): a company with `pay_code_required` refuses any other order. */
  byPayCode?: boolean;
  /** A pay code's step for the statement to spend with the order (decision 0082). */
  payCodeStep?: { deviceId: number; step: number } | undefined;
  /** The programme's time zone, whose local day and hours the spending rules read (UTC if absent). */
  timeZone?: string;
  at: Date;
}

/** The JSON object `place_terminal_orders` reads for one order (keyed orders add to it). */
export function terminalOrderJson(o: Omit<TerminalOrderRow, 'terminalId' | 'merchantId'>) {
  return {
    key: o.idempotencyKey,
    request_hash: o.requestHash,
    company_code: o.companyCode,
    staff_number: o.staffNumber,
    order_type: o.orderType,
    items: o.items,
    subtotal: o.subtotal,
    partial: o.partial ?? false,
    by_pay_code: o.byPayCode ?? false,
    ...(o.payCodeStep && { pay_device_id: o.payCodeStep.deviceId, pay_step: o.payCodeStep.step }),
    tz: o.timeZone ?? 'UTC',
    at: o.at.toISOString(),
  };
}

/** The whole of POST /orders: a batch of one of `place_terminal_orders`. */
export async function placeTerminalOrderRow(
  executor: Executor,
  values: TerminalOrderRow,
): Promise<TerminalOrderOutcome> {
  const [outcome] = await placeTerminalOrderRows(executor, [values]);
  return outcome!;
}

/**
 * One call of `place_terminal_orders` (terminal-orders.sql): a batch of orders in one transaction
 * (group commit, decision 0034), each decided as `place_terminal_order` would decide it alone and
 * all written with one statement per table (decision 0061). Answers each order's outcome, in the
 * order given. Throws serialization_failure when another request claimed one of the batch's keys
 * meanwhile: nothing of the batch was written, and each order may be placed again.
 */
export async function placeTerminalOrderRows(
  executor: Executor,
  orders: TerminalOrderRow[],
): Promise<TerminalOrderOutcome[]> {
  const rows = await queryRows<TerminalOrderOutcome & { ord: number }>(
    executor,
    sql`SELECT ord, outcome, status, body FROM place_terminal_orders(${JSON.stringify(
      orders.map((o) => ({
        terminal_id: o.terminalId,
        merchant_id: o.merchantId,
        ...terminalOrderJson(o),
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
