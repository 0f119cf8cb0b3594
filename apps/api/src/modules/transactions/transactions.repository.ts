import { sql, type SQL } from 'drizzle-orm';
import {
  refundStateOf,
  type Direction,
  type TokenEvent,
  type TokenTransaction,
} from '@app/contract';
import type { Executor } from '../../db/client';
import { queryRows } from '../../db/client';
import { iso, isoOrNull, toInt, toIntOrNull } from '../../lib/numbers';

/** Where the list starts: after the row last shown, by the ledger's write order (`seq`). */
export interface TransactionCursor {
  seq: number;
}

export interface TransactionFilter {
  /** Tenant and scope conditions, already decided by the service. */
  companyId?: number | undefined;
  employeeId?: number | undefined;
  merchantId?: number | undefined;
  wallet?: 'company' | 'employee' | undefined;
  /**
   * A merchant's view (DESIGN 2): only the purchase and refund rows of its terminals' orders, and
   * nothing of any wallet (no balances).
   */
  merchantView?: boolean | undefined;
  events?: TokenEvent[] | undefined;
  direction?: Direction | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  cursor?: TransactionCursor | undefined;
  limit: number;
}

interface Row {
  id: unknown;
  seq: unknown;
  occurred_at: Date | string;
  event: TokenEvent;
  company_id: unknown;
  company_code: string;
  company_name: string;
  employee_id: unknown;
  employee_number: string | null;
  employee_name: string | null;
  direction: Direction;
  amount: unknown;
  balance_before: unknown;
  balance_after: unknown;
  period: string;
  order_id: unknown;
  order_no: string | null;
  order_type: string | null;
  order_status: 'ordered' | 'refunded' | null;
  order_subtotal: unknown;
  order_refunded_amount: unknown;
  ordered_at: Date | string | null;
  refund_reason: TokenTransaction['refund_reason'];
  transfer_id: string | null;
  actor_user_id: unknown;
  terminal_id: unknown;
  merchant_id: unknown;
  merchant_code: string | null;
  merchant_name: string | null;
  counterparty_transaction_id: unknown;
  counterparty_employee_id: unknown;
  counterparty_employee_number: string | null;
  counterparty_employee_name: string | null;
  note: string | null;
}

const refundStateOfRow = (r: Row): TokenTransaction['order_refund_state'] =>
  r.order_subtotal === null || r.order_refunded_amount === null
    ? null
    : refundStateOf({
        subtotal: toInt(r.order_subtotal),
        refunded_amount: toInt(r.order_refunded_amount),
      });

const toTransaction = (r: Row): TokenTransaction => ({
  id: toInt(r.id),
  seq: toInt(r.seq),
  occurred_at: iso(r.occurred_at),
  event: r.event,
  company_id: toInt(r.company_id),
  company_code: r.company_code,
  company_name: r.company_name,
  employee_id: toIntOrNull(r.employee_id),
  employee_number: r.employee_number,
  employee_name: r.employee_name,
  direction: r.direction,
  amount: toInt(r.amount),
  balance_before: toIntOrNull(r.balance_before),
  balance_after: toIntOrNull(r.balance_after),
  period: r.period,
  order_id: toIntOrNull(r.order_id),
  order_no: r.order_no,
  order_type: r.order_type,
  order_status: r.order_status,
  order_subtotal: toIntOrNull(r.order_subtotal),
  order_refunded_amount: toIntOrNull(r.order_refunded_amount),
  order_refund_state: refundStateOfRow(r),
  ordered_at: isoOrNull(r.ordered_at),
  refund_reason: r.refund_reason,
  transfer_id: r.transfer_id,
  actor_user_id: toIntOrNull(r.actor_user_id),
  terminal_id: toIntOrNull(r.terminal_id),
  merchant_id: toIntOrNull(r.merchant_id),
  merchant_code: r.merchant_code,
  merchant_name: r.merchant_name,
  counterparty_transaction_id: toIntOrNull(r.counterparty_transaction_id),
  counterparty_employee_id: toIntOrNull(r.counterparty_employee_id),
  counterparty_employee_number: r.counterparty_employee_number,
  counterparty_employee_name: r.counterparty_employee_name,
  note: r.note,
});

/** The one WHERE of the ledger lists and their exports, on the alias `t`. */
function transactionWhere(f: Omit<TransactionFilter, 'limit' | 'cursor'>): SQL {
  const where: SQL[] = [];
  if (f.companyId !== undefined) where.push(sql`t.company_id = ${f.companyId}`);
  if (f.employeeId !== undefined) where.push(sql`t.employee_id = ${f.employeeId}`);
  if (f.merchantId !== undefined) where.push(sql`t.merchant_id = ${f.merchantId}`);
  if (f.merchantView) {
    where.push(sql`t.event IN ('order_purchased', 'order_refunded') AND t.employee_id IS NOT NULL`);
  }
  if (f.wallet === 'company') where.push(sql`t.employee_id IS NULL`);
  if (f.wallet === 'employee') where.push(sql`t.employee_id IS NOT NULL`);
  if (f.events?.length) {
    where.push(
      sql`t.event IN (${sql.join(
        f.events.map((e) => sql`${e}`),
        sql`, `,
      )})`,
    );
  }
  if (f.direction) where.push(sql`t.direction = ${f.direction}`);
  if (f.from) where.push(sql`t.occurred_at >= ${f.from.toISOString()}::timestamptz`);
  if (f.to) where.push(sql`t.occurred_at < ${f.to.toISOString()}::timestamptz`);
  return where.length ? sql.join(where, sql` AND `) : sql`true`;
}

/**
 * One page of ledger rows, newest first in the ledger's write order (ORDER BY seq DESC), which the
 * partial indexes of migration 0013 serve for each scope: read bottom-up, each wallet's rows chain
 * `balance_before` → `balance_after`. The cursor is a keyset position, so page 1000 costs what
 * page 1 costs. Returns up to `limit + 1` rows: the extra one tells the caller there is a next page.
 */
export async function findTransactions(
  executor: Executor,
  f: TransactionFilter,
): Promise<TokenTransaction[]> {
  const rows = await queryRows<Row>(executor, transactionPageQuery(f));
  return rows.map(toTransaction);
}

/** The statement of `findTransactions`, apart so that a test can read its plan. */
export function transactionPageQuery(f: TransactionFilter): SQL {
  const where = f.cursor
    ? sql`${transactionWhere(f)} AND t.seq < ${f.cursor.seq}`
    : transactionWhere(f);
  // A merchant never learns a wallet's balance: the columns are not even read.
  const balances = f.merchantView
    ? sql`NULL AS balance_before, NULL AS balance_after`
    : sql`t.balance_before, t.balance_after`;
  return sql`SELECT t.id, t.seq, t.occurred_at, t.event, t.company_id,
               c.code AS company_code, c.name AS company_name, t.employee_id,
               e.employee_id AS employee_number, e.name AS employee_name,
               t.direction, t.amount, ${balances}, t.period,
               t.order_id, o.order_no, o.order_type, o.status AS order_status,
               o.subtotal AS order_subtotal, o.refunded_amount AS order_refunded_amount,
               o.ordered_at,
               t.refund_reason, t.transfer_id::text AS transfer_id, t.actor_user_id,
               t.terminal_id, t.merchant_id, m.code AS merchant_code, m.name AS merchant_name,
               p.id AS counterparty_transaction_id, p.employee_id AS counterparty_employee_id,
               pe.employee_id AS counterparty_employee_number,
               pe.name AS counterparty_employee_name,
               t.note
          -- The page's rows first, then their names: joined over the whole ledger, the plan's
          -- row estimates were the ledger's, and PostgreSQL sized the hash tables of its four
          -- Memoize nodes for them at every execution (~25 ms of a 27 ms first page, decision
          -- 0048); the joins below add no row and drop none.
          --
          -- The page's positions first, then its rows (decision 0063): asked for whole rows, the
          -- planner priced reading the ledger backwards by seq and filtering as cheaper than the
          -- wallet's own index, as if a company's wallet rows were spread evenly over time. They
          -- are not: they come at the month's allocation and distributions, and weeks of orders
          -- follow them. A big company's wallet page then read 720,000 rows to find 51 (70 to
          -- 130 ms). Asked for seq alone, the scope's partial index answers by itself (an index
          -- only scan: no row outside the page is read), and the page's rows come by seq.
          FROM (SELECT t.* FROM (SELECT t.seq FROM token_transactions t
                                  WHERE ${where}
                                  ORDER BY t.seq DESC
                                  LIMIT ${f.limit + 1}) page
                  JOIN token_transactions t ON t.seq = page.seq) t
          JOIN companies c ON c.id = t.company_id
          LEFT JOIN employees e ON e.id = t.employee_id
          LEFT JOIN orders o ON o.id = t.order_id
          LEFT JOIN merchants m ON m.id = t.merchant_id
          -- The other row of a transfer (token_tx_transfer_idx); unique per side (0002).
          LEFT JOIN token_transactions p
            ON t.transfer_id IS NOT NULL AND p.transfer_id = t.transfer_id AND p.id <> t.id
          LEFT JOIN employees pe ON pe.id = p.employee_id
         ORDER BY t.seq DESC`;
}

/** How many rows a filter holds, counting no further than `max` (the export cap). */
export async function countTransactionsUpTo(
  executor: Executor,
  f: Omit<TransactionFilter, 'limit' | 'cursor'>,
  max: number,
): Promise<number> {
  const [row] = await queryRows<{ n: unknown }>(
    executor,
    sql`SELECT count(*) AS n FROM (
          SELECT 1 FROM token_transactions t WHERE ${transactionWhere(f)} LIMIT ${max}
        ) capped`,
  );
  return toInt(row?.n ?? 0);
}

/** Our id of the employee behind a staff number in a company, for employees' own lists. */
export async function lookupEmployeeIdByStaffNumber(
  executor: Executor,
  companyId: number,
  staffNumber: string,
): Promise<number | undefined> {
  const [row] = await queryRows<{ id: unknown }>(
    executor,
    sql`SELECT id FROM employees WHERE company_id = ${companyId} AND employee_id = ${staffNumber}`,
  );
  return row ? toInt(row.id) : undefined;
}
