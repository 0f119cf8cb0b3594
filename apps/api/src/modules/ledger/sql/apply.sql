-- Applies each INSERT statement's ledger rows to their wallets, once per statement (migration
-- 0009's design): within the statement each wallet's rows must chain in the ledger's write order
-- (seq, migration 0013); each wallet moves once, only if its first row starts from its current
-- balance; a renewal (monthly_tokens_reset received) takes its employee into the renewal's token
-- month in the same UPDATE (0011); purchases must match their unrefunded order and refunds add up
-- on their orders, and come off their order's quarter-hour of spending (decision 0080). It also keeps what the ledger's foreign keys kept, once per statement instead of
-- six triggers per row (decision 0042): a wallet that moves exists (and an employee's is its
-- company's), an order row matches its order, and the terminals, merchants and users the rows
-- name exist, locked (FOR KEY SHARE) until commit as a foreign key's check locks them; deleting a
-- row the ledger names is refused by ledger_reference_guard (guards.sql).
--
-- This file is the current definition (issue 13: one home for the ledger). The migrator applies it
-- after the numbered migrations whenever it changes (db/migrate.ts, repeatable definitions); the
-- numbered migrations that first created these objects are history. definitions.test.ts checks
-- that the database holds exactly what this file says.

CREATE OR REPLACE FUNCTION public.token_transactions_apply()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  broken record;
  moved bigint;
  terminal_ids bigint[];
  merchant_ids bigint[];
  user_ids bigint[];
  missing bigint;
BEGIN
  -- 1. Within the statement, each wallet's rows chain in the ledger's write order (seq).
  SELECT r.event, r.company_id, r.employee_id, r.balance_before INTO broken
    FROM (SELECT seq, event, company_id, employee_id, balance_before,
                 lag(balance_after) OVER (PARTITION BY company_id, employee_id ORDER BY seq) AS previous_after
            FROM new_rows) r
   WHERE r.previous_after IS NOT NULL AND r.balance_before <> r.previous_after
   ORDER BY r.seq LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger row (%, company %, employee %) does not start from the wallet balance %',
      broken.event, broken.company_id, broken.employee_id, broken.balance_before
      USING ERRCODE = 'check_violation';
  END IF;

  -- 2. Each wallet moves once, and only if its first row starts from its current balance: a
  --    wallet the UPDATE did not move is named by its first row, as the row trigger did.
  WITH m AS (
    SELECT company_id, min(seq) AS first_seq,
           (array_agg(balance_before ORDER BY seq))[1] AS first_before,
           (array_agg(balance_after ORDER BY seq DESC))[1] AS last_after
      FROM new_rows WHERE employee_id IS NULL GROUP BY company_id
  ), moved AS (
    UPDATE companies c SET token_balance = m.last_after FROM m
     WHERE c.id = m.company_id AND c.token_balance = m.first_before
    RETURNING c.id
  )
  SELECT r.event, r.company_id, r.employee_id, r.balance_before INTO broken
    FROM m JOIN new_rows r ON r.seq = m.first_seq
   WHERE m.company_id NOT IN (SELECT id FROM moved)
   ORDER BY r.seq LIMIT 1;
  IF FOUND AND NOT EXISTS (SELECT 1 FROM companies c WHERE c.id = broken.company_id) THEN
    RAISE EXCEPTION 'ledger row (%, company %) names a company that does not exist',
      broken.event, broken.company_id
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger row (%, company %, employee %) does not start from the wallet balance %',
      broken.event, broken.company_id, broken.employee_id, broken.balance_before
      USING ERRCODE = 'check_violation';
  END IF;
  WITH m AS (
    SELECT company_id, employee_id, min(seq) AS first_seq,
           (array_agg(balance_before ORDER BY seq))[1] AS first_before,
           (array_agg(balance_after ORDER BY seq DESC))[1] AS last_after,
           max(period) FILTER (WHERE event = 'monthly_tokens_reset') AS renewed_into,
           max(occurred_at) FILTER (WHERE event = 'monthly_tokens_reset') AS renewed_at,
           count(*) FILTER (WHERE event = 'monthly_tokens_reset') AS renewals
      FROM new_rows WHERE employee_id IS NOT NULL GROUP BY company_id, employee_id
  ), moved AS (
    UPDATE employees e
       SET available_tokens = m.last_after,
           token_month = coalesce(m.renewed_into, e.token_month),
           updated_at = coalesce(m.renewed_at, e.updated_at)
      FROM m
     WHERE e.id = m.employee_id AND e.company_id = m.company_id
       AND e.available_tokens = m.first_before
       AND (m.renewals = 0 OR (m.renewals = 1 AND e.token_month < m.renewed_into))
    RETURNING e.id
  )
  SELECT r.event, r.company_id, r.employee_id, r.balance_before, m.renewals, m.renewed_into
    INTO broken
    FROM m JOIN new_rows r ON r.seq = m.first_seq
   WHERE m.employee_id NOT IN (SELECT id FROM moved)
   ORDER BY r.seq LIMIT 1;
  IF FOUND AND NOT EXISTS (SELECT 1 FROM employees e
                            WHERE e.id = broken.employee_id AND e.company_id = broken.company_id) THEN
    RAISE EXCEPTION 'ledger row (%, company %, employee %) names an employee the company does not have',
      broken.event, broken.company_id, broken.employee_id
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  -- One renewal per employee and token month (what token_tx_one_renewal_key kept, decision
  -- 0042): a renewal takes its employee forward, into a later month than the one it is in.
  IF FOUND AND broken.renewals > 0
     AND (broken.renewals > 1
          OR EXISTS (SELECT 1 FROM employees e
                      WHERE e.id = broken.employee_id AND e.token_month >= broken.renewed_into)) THEN
    RAISE EXCEPTION 'employee % is already renewed into %', broken.employee_id, broken.renewed_into
      USING ERRCODE = 'unique_violation';
  END IF;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger row (%, company %, employee %) does not start from the wallet balance %',
      broken.event, broken.company_id, broken.employee_id, broken.balance_before
      USING ERRCODE = 'check_violation';
  END IF;

  -- 3. A purchase must match its order, still unrefunded; refunds add up on their orders.
  SELECT r.order_id INTO broken FROM new_rows r
   WHERE r.event = 'order_purchased'
     AND NOT EXISTS (SELECT 1 FROM orders o
                      WHERE o.id = r.order_id AND o.employee_id = r.employee_id
                        AND o.company_id = r.company_id AND o.subtotal = r.amount
                        AND o.refunded_amount = 0)
   ORDER BY r.seq LIMIT 1;
  IF FOUND AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = broken.order_id) THEN
    RAISE EXCEPTION 'ledger rows name order %, which does not exist', broken.order_id
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  IF FOUND THEN
    RAISE EXCEPTION 'order_purchased row does not match order %', broken.order_id
      USING ERRCODE = 'check_violation';
  END IF;
  UPDATE orders o SET refunded_amount = o.refunded_amount + r.total, last_refunded_at = r.last_at
    FROM (SELECT order_id, employee_id, company_id, sum(amount) AS total, max(occurred_at) AS last_at
            FROM new_rows WHERE event = 'order_refunded'
           GROUP BY order_id, employee_id, company_id) r
   WHERE o.id = r.order_id AND o.employee_id = r.employee_id AND o.company_id = r.company_id;
  GET DIAGNOSTICS moved = ROW_COUNT;
  IF moved <> (SELECT count(*) FROM (SELECT DISTINCT order_id, employee_id, company_id
                                       FROM new_rows WHERE event = 'order_refunded') g) THEN
    SELECT r.order_id INTO broken FROM new_rows r
     WHERE r.event = 'order_refunded'
       AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = r.order_id
                         AND o.employee_id = r.employee_id AND o.company_id = r.company_id)
     ORDER BY r.seq LIMIT 1;
    IF NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = broken.order_id) THEN
      RAISE EXCEPTION 'ledger rows name order %, which does not exist', broken.order_id
        USING ERRCODE = 'foreign_key_violation';
    END IF;
    RAISE EXCEPTION 'order_refunded row does not match order %', broken.order_id
      USING ERRCODE = 'check_violation';
  END IF;
  -- A refund gives back to its order's own day (DESIGN 7, decision 0080): it comes off the
  -- quarter-hour the order was placed in, not the refund's.
  IF moved > 0 THEN
    UPDATE spending_quarter_hours s SET spent = s.spent - d.total
      FROM (SELECT o.employee_id,
                   date_bin('15 minutes', o.ordered_at, timestamptz '2000-01-01 00:00:00+00') AS bucket,
                   sum(r.amount) AS total
              FROM new_rows r JOIN orders o ON o.id = r.order_id
             WHERE r.event = 'order_refunded'
             GROUP BY 1, 2) d
     WHERE s.employee_id = d.employee_id AND s.bucket = d.bucket;
  END IF;

  -- 4. The terminals, merchants and users the rows name exist, and stay until commit: one pass
  --    over the rows (a reset's name none), then each set locked and counted.
  SELECT array_agg(DISTINCT terminal_id) FILTER (WHERE terminal_id IS NOT NULL),
         array_agg(DISTINCT merchant_id) FILTER (WHERE merchant_id IS NOT NULL),
         array_agg(DISTINCT actor_user_id) FILTER (WHERE actor_user_id IS NOT NULL)
    INTO terminal_ids, merchant_ids, user_ids
    FROM new_rows;
  IF terminal_ids IS NOT NULL AND cardinality(terminal_ids) <>
     (SELECT count(*) FROM (SELECT 1 FROM terminals t WHERE t.id = ANY (terminal_ids) FOR KEY SHARE) k) THEN
    SELECT x INTO missing FROM unnest(terminal_ids) x
     WHERE NOT EXISTS (SELECT 1 FROM terminals t WHERE t.id = x) ORDER BY x LIMIT 1;
    RAISE EXCEPTION 'ledger rows name terminal %, which does not exist', missing
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  IF merchant_ids IS NOT NULL AND cardinality(merchant_ids) <>
     (SELECT count(*) FROM (SELECT 1 FROM merchants m WHERE m.id = ANY (merchant_ids) FOR KEY SHARE) k) THEN
    SELECT x INTO missing FROM unnest(merchant_ids) x
     WHERE NOT EXISTS (SELECT 1 FROM merchants m WHERE m.id = x) ORDER BY x LIMIT 1;
    RAISE EXCEPTION 'ledger rows name merchant %, which does not exist', missing
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  IF user_ids IS NOT NULL AND cardinality(user_ids) <>
     (SELECT count(*) FROM (SELECT 1 FROM users u WHERE u.id = ANY (user_ids) FOR KEY SHARE) k) THEN
    SELECT x INTO missing FROM unnest(user_ids) x
     WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = x) ORDER BY x LIMIT 1;
    RAISE EXCEPTION 'ledger rows name user %, which does not exist', missing
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER token_transactions_apply AFTER INSERT ON public.token_transactions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION token_transactions_apply();
