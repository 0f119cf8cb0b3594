-- Spent today, kept (DESIGN 7, issue 42, decision 0080): what each employee's orders paid, less
-- what was refunded of them, by quarter-hour of the order (the orders' `ordered_at` binned from
-- 2000-01-01 00:00 UTC, as the ledger's rollups bin theirs). A local day of any time zone is a
-- whole number of quarter-hours, so the day's spending is the sum of its few rows, whatever the
-- programme's zone is or becomes. The order's statement (place_terminal_orders) adds each accepted
-- order to its row, under the wallet lock it already holds; the ledger's apply trigger takes each
-- refund off its order's row. It replaces the sum over the employee's orders of the day, whose
-- cost grew with them (decision 0077), and the index that sum read.
CREATE TABLE spending_quarter_hours (
  employee_id  bigint NOT NULL,
  bucket       timestamptz NOT NULL,
  spent        bigint NOT NULL,
  PRIMARY KEY (employee_id, bucket)
);

INSERT INTO spending_quarter_hours (employee_id, bucket, spent)
SELECT employee_id, date_bin('15 minutes', ordered_at, timestamptz '2000-01-01 00:00:00+00'),
       sum(subtotal - refunded_amount)
  FROM orders
 GROUP BY 1, 2;

-- Read by nothing else: the sum it served is the table's now.
DROP INDEX orders_employee_day_idx;
-- Replaced by spending_spent_during (modules/spending-judge/sql/rules.sql), which reads the table;
-- a new database never had it (the definitions come after the numbered migrations).
DROP FUNCTION IF EXISTS spending_spent_on(bigint, date, text);
-- The judge becomes a SQL function (a set of one row) that the order's statement inlines.
DROP FUNCTION IF EXISTS spending_judge(smallint[], jsonb, boolean, text[], bigint, bigint,
                                       timestamp without time zone, boolean, text, bigint, bigint,
                                       text);
