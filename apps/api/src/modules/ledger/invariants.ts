// The ledger invariants of DESIGN 3.3, checked over the whole database: after every ledger test,
// after a restore (npm run restore, src/ops/backup.ts) and at the end of the bench soak. Read-only.
import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client';
import { toInt } from '../../lib/numbers';

export interface LedgerSummary {
  rows: number;
  companies: number;
  employees: number;
  orders: number;
  /** Σ(all wallet balances), which conservation equates with the ledger's net inflow. */
  total: number;
}

type Problem = Record<string, unknown>;

async function none(executor: Executor, invariant: string, query: ReturnType<typeof sql>) {
  const rows = await queryRows<Problem>(executor, query);
  if (rows.length > 0) {
    throw new Error(
      `Ledger invariant broken: ${invariant}\n${JSON.stringify(rows.slice(0, 5), null, 2)}` +
        (rows.length > 5 ? `\n… and ${rows.length - 5} more` : ''),
    );
  }
}

const EVENTS = [
  'company_issued',
  'monthly_tokens_added',
  'employee_issued',
  'monthly_tokens_reset',
  'order_purchased',
  'order_refunded',
  'company_expired',
  'employee_expired',
];
const FLOWS = EVENTS.slice(0, 6);
const list = (items: string[], each: (item: string) => string) => items.map(each).join(', ');
const sums = (columns: string[]) => `ARRAY[${list(columns, (c) => `sum(${c})`)}]`;

/**
 * Every key of the rollup views (migration 0010: folded + pending) whose sums differ from the
 * ledger's, recomputed from the rows by the migration's rule: a transfer by its employee's side,
 * expiries not in the series.
 */
const ROLLUPS_DIFFER = sql.raw(`
  WITH raw AS MATERIALIZED (
    SELECT period, company_id,
           date_bin('15 minutes', occurred_at, timestamptz '2000-01-01 00:00:00+00') AS bucket,
           ${list(EVENTS, (e) => `coalesce(sum(amount) FILTER (WHERE event = '${e}'), 0) AS ${e}`)}
      FROM token_transactions
     WHERE employee_id IS NOT NULL OR event NOT IN ('employee_issued', 'monthly_tokens_reset')
     GROUP BY 1, 2, 3
  ), flows AS (
    SELECT * FROM raw WHERE ${FLOWS.join(' + ')} > 0
  )
  SELECT 'ledger_month_totals' AS rollup, period, company_id,
         NULL::timestamptz AS bucket, r.sums AS ledger, m.sums AS rollup_sums
    FROM (SELECT period, company_id, ${sums(EVENTS)} AS sums FROM raw GROUP BY 1, 2) r
    FULL JOIN (SELECT period, company_id, ${sums(EVENTS)} AS sums
                 FROM ledger_month_totals GROUP BY 1, 2) m USING (period, company_id)
   WHERE r.sums IS DISTINCT FROM m.sums
  UNION ALL
  SELECT 'ledger_company_quarter_hours', period, company_id, bucket, r.sums, q.sums
    FROM (SELECT period, company_id, bucket, ${sums(FLOWS)} AS sums FROM flows GROUP BY 1, 2, 3) r
    FULL JOIN (SELECT period, company_id, bucket, ${sums(FLOWS)} AS sums
                 FROM ledger_company_quarter_hours GROUP BY 1, 2, 3) q
      USING (period, company_id, bucket)
   WHERE r.sums IS DISTINCT FROM q.sums
  UNION ALL
  SELECT 'ledger_quarter_hours', period, NULL::bigint, bucket, r.sums, q.sums
    FROM (SELECT period, bucket, ${sums(FLOWS)} AS sums FROM flows GROUP BY 1, 2) r
    FULL JOIN (SELECT period, bucket, ${sums(FLOWS)} AS sums
                 FROM ledger_quarter_hours GROUP BY 1, 2) q USING (period, bucket)
   WHERE r.sums IS DISTINCT FROM q.sums`);

/**
 * Throws, naming the invariant and the first offending rows, unless all hold:
 * 1. every row moves its wallet by its amount, each wallet's rows chain from 0 in write order,
 *    and the last balance_after is the wallet's balance;
 * 2. no balance, before or after, is negative;
 * 3. conservation: issued + allocated − expired − purchased + refunded = Σ balances, and every
 *    transfer is one company debit and one employee credit of the same amount;
 * 4. an order's refunds add up to its refunded amount, never past its subtotal, its status is
 *    `refunded` exactly when they reach it, and it was paid by exactly one purchase row of its
 *    subtotal by the same employee; what an employee spent in each quarter-hour, as kept for the
 *    daily limit (decision 0080), is what its orders of that quarter-hour paid less their refunds;
 * 5. an idempotency key stands for at most one order, and every order for exactly one key;
 * 6. one reset per company and period, one allocation and one company expiry per company and
 *    period, one renewal per employee and period, and each company is in the month of its last reset;
 * 7. (not in DESIGN 3.3: what the reports rely on) each rollup of migration 0010 equals the sums
 *    of the ledger rows it stands for, and the employees' rows of a company's token month net to
 *    what its employees in that month hold (decision 0007).
 */
export async function assertLedgerInvariants(executor: Executor): Promise<LedgerSummary> {
  // 1. Chains, per wallet, in the ledger's write order (seq, migration 0013).
  await none(
    executor,
    '1: balance_after = balance_before ± amount',
    sql`SELECT id, event, direction, amount, balance_before, balance_after FROM token_transactions
         WHERE balance_after <> balance_before + CASE direction WHEN 'received' THEN amount ELSE -amount END`,
  );
  await none(
    executor,
    "1: each row's balance_before is the previous row's balance_after (first: 0)",
    sql`SELECT id, company_id, employee_id, balance_before, previous_after FROM (
          SELECT id, company_id, employee_id, balance_before,
                 coalesce(lag(balance_after) OVER (
                   PARTITION BY company_id, employee_id ORDER BY seq), 0) AS previous_after
            FROM token_transactions) chained
         WHERE balance_before <> previous_after`,
  );
  await none(
    executor,
    "1: a company's last balance_after is its token_balance",
    // DISTINCT ON, not LATERAL … LIMIT 1: with thousands of wallets without rows the planner may
    // walk the whole table backwards once per wallet.
    sql`SELECT c.id, c.token_balance, last.balance_after FROM companies c
          LEFT JOIN (SELECT DISTINCT ON (company_id) company_id, balance_after
                       FROM token_transactions WHERE employee_id IS NULL
                      ORDER BY company_id, seq DESC) last ON last.company_id = c.id
         WHERE c.token_balance <> coalesce(last.balance_after, 0)`,
  );
  await none(
    executor,
    "1: an employee's last balance_after is its available_tokens",
    sql`SELECT e.id, e.available_tokens, last.balance_after FROM employees e
          LEFT JOIN (SELECT DISTINCT ON (employee_id) employee_id, balance_after
                       FROM token_transactions WHERE employee_id IS NOT NULL
                      ORDER BY employee_id, seq DESC) last ON last.employee_id = e.id
         WHERE e.available_tokens <> coalesce(last.balance_after, 0)`,
  );
  await none(
    executor,
    "1: an employee's rows belong to its company",
    sql`SELECT t.id FROM token_transactions t JOIN employees e ON e.id = t.employee_id
         WHERE e.company_id <> t.company_id`,
  );

  // 2. Nothing negative.
  await none(
    executor,
    '2: no negative balance',
    sql`SELECT 'company' AS wallet, id, token_balance AS balance FROM companies WHERE token_balance < 0
        UNION ALL SELECT 'employee', id, available_tokens FROM employees WHERE available_tokens < 0
        UNION ALL SELECT 'row', id, least(balance_before, balance_after) FROM token_transactions
                   WHERE balance_before < 0 OR balance_after < 0 OR amount <= 0`,
  );

  // 3. Conservation.
  await none(
    executor,
    '3: inflow − outflow = Σ balances',
    sql`SELECT inflow, outflow, balances FROM (
          SELECT
            (SELECT coalesce(sum(amount), 0) FROM token_transactions
              WHERE event IN ('company_issued','monthly_tokens_added')) AS inflow,
            (SELECT coalesce(sum(amount), 0) FROM token_transactions
              WHERE event IN ('company_expired','employee_expired','order_purchased')) AS outflow,
            (SELECT coalesce(sum(amount), 0) FROM token_transactions
              WHERE event = 'order_refunded') AS refunds,
            (SELECT coalesce(sum(token_balance), 0) FROM companies)
              + (SELECT coalesce(sum(available_tokens), 0) FROM employees) AS balances) s
         WHERE inflow - outflow + refunds <> balances`,
  );
  await none(
    executor,
    '3: every transfer is one company debit and one employee credit of equal amount',
    sql`SELECT transfer_id, count(*) AS n FROM token_transactions WHERE transfer_id IS NOT NULL
         GROUP BY transfer_id
        HAVING count(*) <> 2
            OR count(*) FILTER (WHERE direction = 'sent' AND employee_id IS NULL) <> 1
            OR count(*) FILTER (WHERE direction = 'received' AND employee_id IS NOT NULL) <> 1
            OR min(amount) <> max(amount) OR min(event) <> max(event)`,
  );
  await none(
    executor,
    '3: transfers are exactly the employee_issued and monthly_tokens_reset rows',
    sql`SELECT id, event FROM token_transactions
         WHERE (transfer_id IS NULL) = (event IN ('employee_issued','monthly_tokens_reset'))`,
  );

  // 4. Orders.
  await none(
    executor,
    '4: refunds add up to refunded_amount ≤ subtotal; status refunded exactly when equal',
    sql`SELECT o.id, o.subtotal, o.refunded_amount, o.status, coalesce(r.total, 0) AS refunds
          FROM orders o
          LEFT JOIN (SELECT order_id, sum(amount) AS total FROM token_transactions
                      WHERE event = 'order_refunded' GROUP BY order_id) r ON r.order_id = o.id
         WHERE o.refunded_amount <> coalesce(r.total, 0)
            OR o.refunded_amount > o.subtotal OR o.refunded_amount < 0
            OR o.status <> CASE WHEN o.refunded_amount = o.subtotal THEN 'refunded' ELSE 'ordered' END`,
  );
  await none(
    executor,
    '4: every order was paid by exactly one purchase of its subtotal by its employee',
    sql`SELECT o.id, count(t.id) AS purchases FROM orders o
          LEFT JOIN token_transactions t ON t.order_id = o.id AND t.event = 'order_purchased'
         GROUP BY o.id
        HAVING count(t.id) <> 1
            OR bool_or(t.amount <> o.subtotal OR t.employee_id <> o.employee_id)`,
  );
  await none(
    executor,
    "4: each employee's quarter-hour of spending (spending_quarter_hours) is what its orders of that quarter-hour paid less their refunds",
    sql`SELECT coalesce(k.employee_id, o.employee_id) AS employee_id,
               coalesce(k.bucket, o.bucket) AS bucket, k.spent AS kept, o.spent AS orders
          FROM spending_quarter_hours k
          FULL JOIN (SELECT employee_id,
                            date_bin('15 minutes', ordered_at, timestamptz '2000-01-01 00:00:00+00') AS bucket,
                            sum(subtotal - refunded_amount) AS spent
                       FROM orders GROUP BY 1, 2) o
            ON o.employee_id = k.employee_id AND o.bucket = k.bucket
         WHERE k.spent IS DISTINCT FROM o.spent`,
  );
  await none(
    executor,
    '4: order rows point at an existing order of the same employee',
    sql`SELECT t.id FROM token_transactions t LEFT JOIN orders o ON o.id = t.order_id
         WHERE t.order_id IS NOT NULL AND (o.id IS NULL OR o.employee_id <> t.employee_id)`,
  );

  // 5. Idempotency.
  await none(
    executor,
    '5: an idempotency key stands for at most one order, every order for exactly one key',
    sql`SELECT o.id, count(k.*) AS keys FROM orders o
          LEFT JOIN terminal_idempotency_keys k
            ON k.order_id = o.id AND k.response_status = 201
         GROUP BY o.id HAVING count(k.*) <> 1`,
  );
  await none(
    executor,
    '5: every stored key has its answer',
    sql`SELECT terminal_id, idempotency_key FROM terminal_idempotency_keys
         WHERE response_status IS NULL OR response_body IS NULL OR order_id IS NULL`,
  );

  // 6. Resets.
  await none(
    executor,
    '6: one reset per company and period',
    sql`SELECT company_id, period, count(*) FROM monthly_resets
         GROUP BY company_id, period HAVING count(*) > 1`,
  );
  await none(
    executor,
    '6: one allocation and one company expiry per company and period',
    sql`SELECT company_id, period, event, count(*) FROM token_transactions
         WHERE event IN ('monthly_tokens_added','company_expired') GROUP BY company_id, period, event
        HAVING count(*) > 1`,
  );
  await none(
    executor,
    '6: one renewal per employee and period',
    sql`SELECT employee_id, period, count(*) FROM token_transactions
         WHERE event = 'monthly_tokens_reset' AND employee_id IS NOT NULL
         GROUP BY employee_id, period HAVING count(*) > 1`,
  );
  await none(
    executor,
    '6: a company is in the month its last reset opened',
    sql`SELECT c.id, c.token_month, r.period FROM companies c
          JOIN LATERAL (SELECT period FROM monthly_resets m WHERE m.company_id = c.id
                         ORDER BY period DESC LIMIT 1) r ON true
         WHERE r.period <> c.token_month`,
  );

  // 7. Rollups.
  await none(
    executor,
    '7: each rollup view (ledger_month_totals, ledger_company_quarter_hours, ledger_quarter_hours) equals the sums of its ledger rows',
    ROLLUPS_DIFFER,
  );
  await none(
    executor,
    "7: a company's employee rows of a token month net to what its employees in that month hold",
    sql`SELECT coalesce(h.company_id, n.company_id) AS company_id,
               coalesce(h.period, n.period) AS period, h.held, n.net
          FROM (SELECT company_id, token_month AS period, sum(available_tokens) AS held
                  FROM employees GROUP BY 1, 2 HAVING sum(available_tokens) <> 0) h
          FULL JOIN (SELECT company_id, period,
                            sum(employee_issued + monthly_tokens_reset + order_refunded
                                - order_purchased - employee_expired) AS net
                       FROM ledger_month_totals GROUP BY 1, 2
                     HAVING sum(employee_issued + monthly_tokens_reset + order_refunded
                                - order_purchased - employee_expired) <> 0) n
            ON n.company_id = h.company_id AND n.period = h.period
         WHERE h.held IS DISTINCT FROM n.net`,
  );

  const [summary] = await queryRows<Record<string, unknown>>(
    executor,
    sql`SELECT (SELECT count(*) FROM token_transactions) AS rows,
               (SELECT count(*) FROM companies) AS companies,
               (SELECT count(*) FROM employees) AS employees,
               (SELECT count(*) FROM orders) AS orders,
               (SELECT coalesce(sum(token_balance), 0) FROM companies)
                 + (SELECT coalesce(sum(available_tokens), 0) FROM employees) AS total`,
  );
  return {
    rows: toInt(summary!.rows),
    companies: toInt(summary!.companies),
    employees: toInt(summary!.employees),
    orders: toInt(summary!.orders),
    // Σ balances may pass 2^53 when a test issues huge amounts; the checks above are exact SQL.
    total: Number(summary!.total),
  };
}
