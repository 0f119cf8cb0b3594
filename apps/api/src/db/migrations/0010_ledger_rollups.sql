-- The current text of the functions and triggers created here: modules/ledger/sql/rollups.sql.
-- Ledger rollups for the dashboards and summary reports (issue 6; decision 0007). Every company's
-- month summed from token_transactions read the month's whole slice (760,000 rows at programme
-- scale: 180-700 ms). The same sums are kept here, in the ledger row's own transaction, so that a
-- read touches a few thousand rows at most. Readers use three views:
--   ledger_month_totals           per token month and company:              the month's totals
--   ledger_company_quarter_hours  per token month, company and quarter-hour: one company's chart
--   ledger_quarter_hours          per token month and quarter-hour:          every company's chart
-- Columns are named after the events and hold Σ amount. A transfer (employee_issued,
-- monthly_tokens_reset) counts once, by its employee's side (its company side is the same amount,
-- invariant 3). The series leave the expiries out, as the charts do. Sums are numeric, so no total
-- can overflow and refuse a ledger row.
--
-- Quarter-hours: the charts group by day in APP_TIMEZONE, which is configuration, not data. Every
-- time zone's days begin on a quarter-hour of UTC (offsets such as +05:30 and +05:45 included), so
-- 15-minute buckets give any zone's days exactly, and a change of zone needs no rebuild. A month
-- is at most ~3,000 quarter-hours, for every company together or for one.
--
-- Pending, then folded. A total updated in place by each ledger statement is a row that every
-- terminal order of a company (and, for the all-company series, of any company) locks until it
-- commits, so orders queue on it. Spread over 8 slots by connection (pg_backend_pid() % 8, tried
-- first), pgbench's order script at 32 clients still waited on those rows in about half of the
-- samples (Lock:transactionid) and lost a quarter of its orders/s; more slots multiply what every
-- read sums. So a ledger statement only appends its sums to ledger_rollup_pending (a plain
-- INSERT, which waits on nobody), and every 32nd statement folds what is pending into the rollup
-- tables, unless another fold holds the lock (pg_try_advisory_xact_lock: it skips, never waits).
-- Only folds update rollup rows, one fold at a time, so nobody queues on those either. The views
-- add what is pending to what is folded; pending rows are a handful (the last ~32 statements',
-- plus whatever commits while a fold's transaction is still open), so a read stays a few
-- thousand rows.
--
-- Only the trigger, fold_ledger_rollups() and rebuild_ledger_rollups() write these tables;
-- test/invariants.ts checks after every ledger test (and the benchmark) that each view equals the
-- ledger's own sums.

-- Migration 0006's (period, company_id, event) INCLUDE (amount, employee_id, occurred_at) index
-- served only the reads that now use the rollups (an employee's month reads the (employee_id,
-- period) index, a merchant's its own). It was the ledger's largest index (950 MB of 11.7 million
-- rows) and every ledger row paid for it.
DROP INDEX token_tx_period_company_idx;

CREATE TABLE ledger_month_rollup (
  period                text NOT NULL,
  company_id            bigint NOT NULL,
  company_issued        numeric NOT NULL DEFAULT 0,
  monthly_tokens_added  numeric NOT NULL DEFAULT 0,
  employee_issued       numeric NOT NULL DEFAULT 0,
  monthly_tokens_reset  numeric NOT NULL DEFAULT 0,
  order_purchased       numeric NOT NULL DEFAULT 0,
  order_refunded        numeric NOT NULL DEFAULT 0,
  company_expired       numeric NOT NULL DEFAULT 0,
  employee_expired      numeric NOT NULL DEFAULT 0,
  PRIMARY KEY (period, company_id)
);

CREATE TABLE ledger_company_quarter_hour_rollup (
  period                text NOT NULL,
  company_id            bigint NOT NULL,
  bucket                timestamptz NOT NULL,
  company_issued        numeric NOT NULL DEFAULT 0,
  monthly_tokens_added  numeric NOT NULL DEFAULT 0,
  employee_issued       numeric NOT NULL DEFAULT 0,
  monthly_tokens_reset  numeric NOT NULL DEFAULT 0,
  order_purchased       numeric NOT NULL DEFAULT 0,
  order_refunded        numeric NOT NULL DEFAULT 0,
  PRIMARY KEY (period, company_id, bucket)
);

CREATE TABLE ledger_quarter_hour_rollup (
  period                text NOT NULL,
  bucket                timestamptz NOT NULL,
  company_issued        numeric NOT NULL DEFAULT 0,
  monthly_tokens_added  numeric NOT NULL DEFAULT 0,
  employee_issued       numeric NOT NULL DEFAULT 0,
  monthly_tokens_reset  numeric NOT NULL DEFAULT 0,
  order_purchased       numeric NOT NULL DEFAULT 0,
  order_refunded        numeric NOT NULL DEFAULT 0,
  PRIMARY KEY (period, bucket)
);

-- Each ledger statement's sums by token month, company and quarter-hour, until folded. No index:
-- it is small, read whole, and an insert should cost nothing more than the row.
CREATE TABLE ledger_rollup_pending (
  period                text NOT NULL,
  company_id            bigint NOT NULL,
  bucket                timestamptz NOT NULL,
  company_issued        numeric NOT NULL,
  monthly_tokens_added  numeric NOT NULL,
  employee_issued       numeric NOT NULL,
  monthly_tokens_reset  numeric NOT NULL,
  order_purchased       numeric NOT NULL,
  order_refunded        numeric NOT NULL,
  company_expired       numeric NOT NULL,
  employee_expired      numeric NOT NULL
);

-- What readers see: the folded rows and the pending ones, so a key may have several rows, which
-- readers add up (one aggregation in the reader's query is much cheaper than grouping by key here
-- and again there). The series leave out pending rows of expiries only, which have no flow.
CREATE VIEW ledger_month_totals AS
SELECT period, company_id, company_issued, monthly_tokens_added, employee_issued,
       monthly_tokens_reset, order_purchased, order_refunded, company_expired, employee_expired
  FROM ledger_month_rollup
UNION ALL
SELECT period, company_id, company_issued, monthly_tokens_added, employee_issued,
       monthly_tokens_reset, order_purchased, order_refunded, company_expired, employee_expired
  FROM ledger_rollup_pending;

CREATE VIEW ledger_company_quarter_hours AS
SELECT period, company_id, bucket, company_issued, monthly_tokens_added, employee_issued,
       monthly_tokens_reset, order_purchased, order_refunded
  FROM ledger_company_quarter_hour_rollup
UNION ALL
SELECT period, company_id, bucket, company_issued, monthly_tokens_added, employee_issued,
       monthly_tokens_reset, order_purchased, order_refunded
  FROM ledger_rollup_pending
 WHERE company_issued + monthly_tokens_added + employee_issued + monthly_tokens_reset
       + order_purchased + order_refunded > 0;

CREATE VIEW ledger_quarter_hours AS
SELECT period, bucket, company_issued, monthly_tokens_added, employee_issued,
       monthly_tokens_reset, order_purchased, order_refunded
  FROM ledger_quarter_hour_rollup
UNION ALL
SELECT period, bucket, company_issued, monthly_tokens_added, employee_issued,
       monthly_tokens_reset, order_purchased, order_refunded
  FROM ledger_rollup_pending
 WHERE company_issued + monthly_tokens_added + employee_issued + monthly_tokens_reset
       + order_purchased + order_refunded > 0;

-- Moves every pending row (committed ones; a transaction still open keeps its own) into the
-- rollup tables. Callers hold advisory lock 727010, so folds never run side by side. PL/pgSQL
-- keeps the statement's plan for the session (as plain SQL it was planned on every call: 2.3 ms
-- a fold instead of 0.7).
CREATE FUNCTION fold_ledger_rollups() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH moved AS (
    DELETE FROM ledger_rollup_pending RETURNING *
  ), month AS (
    INSERT INTO ledger_month_rollup AS m
    SELECT period, company_id, sum(company_issued), sum(monthly_tokens_added),
           sum(employee_issued), sum(monthly_tokens_reset), sum(order_purchased),
           sum(order_refunded), sum(company_expired), sum(employee_expired)
      FROM moved GROUP BY period, company_id
    ON CONFLICT (period, company_id) DO UPDATE SET
      company_issued = m.company_issued + EXCLUDED.company_issued,
      monthly_tokens_added = m.monthly_tokens_added + EXCLUDED.monthly_tokens_added,
      employee_issued = m.employee_issued + EXCLUDED.employee_issued,
      monthly_tokens_reset = m.monthly_tokens_reset + EXCLUDED.monthly_tokens_reset,
      order_purchased = m.order_purchased + EXCLUDED.order_purchased,
      order_refunded = m.order_refunded + EXCLUDED.order_refunded,
      company_expired = m.company_expired + EXCLUDED.company_expired,
      employee_expired = m.employee_expired + EXCLUDED.employee_expired
  ), flows AS (
    SELECT * FROM moved
     WHERE company_issued + monthly_tokens_added + employee_issued + monthly_tokens_reset
           + order_purchased + order_refunded > 0
  ), company_series AS (
    INSERT INTO ledger_company_quarter_hour_rollup AS q
    SELECT period, company_id, bucket, sum(company_issued), sum(monthly_tokens_added),
           sum(employee_issued), sum(monthly_tokens_reset), sum(order_purchased),
           sum(order_refunded)
      FROM flows GROUP BY period, company_id, bucket
    ON CONFLICT (period, company_id, bucket) DO UPDATE SET
      company_issued = q.company_issued + EXCLUDED.company_issued,
      monthly_tokens_added = q.monthly_tokens_added + EXCLUDED.monthly_tokens_added,
      employee_issued = q.employee_issued + EXCLUDED.employee_issued,
      monthly_tokens_reset = q.monthly_tokens_reset + EXCLUDED.monthly_tokens_reset,
      order_purchased = q.order_purchased + EXCLUDED.order_purchased,
      order_refunded = q.order_refunded + EXCLUDED.order_refunded
  )
  INSERT INTO ledger_quarter_hour_rollup AS q
  SELECT period, bucket, sum(company_issued), sum(monthly_tokens_added), sum(employee_issued),
         sum(monthly_tokens_reset), sum(order_purchased), sum(order_refunded)
    FROM flows GROUP BY period, bucket
  ON CONFLICT (period, bucket) DO UPDATE SET
    company_issued = q.company_issued + EXCLUDED.company_issued,
    monthly_tokens_added = q.monthly_tokens_added + EXCLUDED.monthly_tokens_added,
    employee_issued = q.employee_issued + EXCLUDED.employee_issued,
    monthly_tokens_reset = q.monthly_tokens_reset + EXCLUDED.monthly_tokens_reset,
    order_purchased = q.order_purchased + EXCLUDED.order_purchased,
    order_refunded = q.order_refunded + EXCLUDED.order_refunded;
END $$;

-- Counts ledger statements, to fold on every 32nd (not transactional: a rolled-back statement
-- counts too, which only shifts the next fold).
CREATE SEQUENCE ledger_rollup_statements;

-- Once per INSERT statement, like the ledger's own trigger (0009): a reset's 5,000-row chunk is
-- one pending row per company and quarter-hour.
CREATE FUNCTION token_transactions_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_rollup_pending
  SELECT r.period, r.company_id,
         date_bin('15 minutes', r.occurred_at, timestamptz '2000-01-01 00:00:00+00'),
         coalesce(sum(r.amount) FILTER (WHERE r.event = 'company_issued'), 0),
         coalesce(sum(r.amount) FILTER (WHERE r.event = 'monthly_tokens_added'), 0),
         coalesce(sum(r.amount) FILTER (WHERE r.event = 'employee_issued'), 0),
         coalesce(sum(r.amount) FILTER (WHERE r.event = 'monthly_tokens_reset'), 0),
         coalesce(sum(r.amount) FILTER (WHERE r.event = 'order_purchased'), 0),
         coalesce(sum(r.amount) FILTER (WHERE r.event = 'order_refunded'), 0),
         coalesce(sum(r.amount) FILTER (WHERE r.event = 'company_expired'), 0),
         coalesce(sum(r.amount) FILTER (WHERE r.event = 'employee_expired'), 0)
    FROM new_rows r
   WHERE r.employee_id IS NOT NULL OR r.event NOT IN ('employee_issued', 'monthly_tokens_reset')
   GROUP BY 1, 2, 3;
  -- A fold under REPEATABLE READ or SERIALIZABLE would fail on rows a newer fold moved; the
  -- ledger writes under READ COMMITTED, so that is only a guard.
  IF nextval('ledger_rollup_statements') % 32 = 0
     AND current_setting('transaction_isolation') = 'read committed'
     AND pg_try_advisory_xact_lock(727010) THEN
    PERFORM fold_ledger_rollups();
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER token_transactions_rollup AFTER INSERT ON token_transactions
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION token_transactions_rollup();

-- Recomputes the rollups from the whole ledger: run here as the backfill, and by whatever loads
-- ledger rows with triggers off (the benchmark's COPY). Ledger writes wait until it commits
-- (SHARE lock), so nothing is counted twice or missed.
CREATE FUNCTION rebuild_ledger_rollups() RETURNS void LANGUAGE plpgsql
  SET work_mem = '256MB' AS $$
BEGIN
  LOCK TABLE token_transactions IN SHARE MODE;
  TRUNCATE ledger_rollup_pending, ledger_month_rollup, ledger_company_quarter_hour_rollup,
           ledger_quarter_hour_rollup;
  -- One pass over the ledger, by company and quarter-hour; the three tables are sums of it,
  -- written in key order so that a company's month, or the month's series, is a few pages.
  WITH raw AS MATERIALIZED (
    SELECT t.period, t.company_id,
           date_bin('15 minutes', t.occurred_at, timestamptz '2000-01-01 00:00:00+00') AS bucket,
           coalesce(sum(t.amount) FILTER (WHERE t.event = 'company_issued'), 0) AS company_issued,
           coalesce(sum(t.amount) FILTER (WHERE t.event = 'monthly_tokens_added'), 0)
             AS monthly_tokens_added,
           coalesce(sum(t.amount) FILTER (WHERE t.event = 'employee_issued'), 0) AS employee_issued,
           coalesce(sum(t.amount) FILTER (WHERE t.event = 'monthly_tokens_reset'), 0)
             AS monthly_tokens_reset,
           coalesce(sum(t.amount) FILTER (WHERE t.event = 'order_purchased'), 0) AS order_purchased,
           coalesce(sum(t.amount) FILTER (WHERE t.event = 'order_refunded'), 0) AS order_refunded,
           coalesce(sum(t.amount) FILTER (WHERE t.event = 'company_expired'), 0) AS company_expired,
           coalesce(sum(t.amount) FILTER (WHERE t.event = 'employee_expired'), 0)
             AS employee_expired
      FROM token_transactions t
     WHERE t.employee_id IS NOT NULL OR t.event NOT IN ('employee_issued', 'monthly_tokens_reset')
     GROUP BY 1, 2, 3
  ), month AS (
    INSERT INTO ledger_month_rollup
    SELECT period, company_id, sum(company_issued), sum(monthly_tokens_added),
           sum(employee_issued), sum(monthly_tokens_reset), sum(order_purchased),
           sum(order_refunded), sum(company_expired), sum(employee_expired)
      FROM raw GROUP BY period, company_id ORDER BY period, company_id
  ), flows AS (
    SELECT * FROM raw
     WHERE company_issued + monthly_tokens_added + employee_issued + monthly_tokens_reset
           + order_purchased + order_refunded > 0
  ), company_series AS (
    INSERT INTO ledger_company_quarter_hour_rollup
    SELECT period, company_id, bucket, company_issued, monthly_tokens_added, employee_issued,
           monthly_tokens_reset, order_purchased, order_refunded
      FROM flows ORDER BY period, company_id, bucket
  )
  INSERT INTO ledger_quarter_hour_rollup
  SELECT period, bucket, sum(company_issued), sum(monthly_tokens_added), sum(employee_issued),
         sum(monthly_tokens_reset), sum(order_purchased), sum(order_refunded)
    FROM flows GROUP BY period, bucket ORDER BY period, bucket;
  ANALYZE ledger_month_rollup, ledger_company_quarter_hour_rollup, ledger_quarter_hour_rollup;
END $$;

SELECT rebuild_ledger_rollups();
