-- The dashboards' rollups (migration 0010, decision 0007): each INSERT statement appends its sums
-- to a pending table; every 32nd statement folds them into per-month and per-quarter-hour totals;
-- rebuild_ledger_rollups() recomputes them from the rows (the bench's bulk load calls it).
--
-- This file is the current definition (issue 13: one home for the ledger). The migrator applies it
-- after the numbered migrations whenever it changes (db/migrate.ts, repeatable definitions); the
-- numbered migrations that first created these objects are history. definitions.test.ts checks
-- that the database holds exactly what this file says.

CREATE OR REPLACE FUNCTION public.fold_ledger_rollups()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
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
END $function$;

CREATE OR REPLACE FUNCTION public.token_transactions_rollup()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
END $function$;

CREATE OR REPLACE TRIGGER token_transactions_rollup AFTER INSERT ON public.token_transactions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION token_transactions_rollup();

CREATE OR REPLACE FUNCTION public.rebuild_ledger_rollups()
 RETURNS void
 LANGUAGE plpgsql
 SET work_mem TO '256MB'
AS $function$
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
END $function$;
