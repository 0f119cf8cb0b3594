-- The current text of the functions and triggers created here: modules/ledger/sql/apply.sql.
-- Ledger rows are applied to their wallets once per INSERT statement instead of once per row
-- (issue 6; decision 0004 foresaw it). Per row, a company's monthly reset updated the company's
-- row once per renewed employee (its side of each transfer), all in one transaction: every update
-- of a row already updated in the same transaction walks that row's ever longer chain of versions,
-- so 100,000 employees took minutes. Per statement, each wallet is updated once, from its first
-- row's balance_before to its last row's balance_after, after checking that the statement's rows
-- of that wallet chain in id order. What the database guarantees is unchanged (migration 0002):
-- a wallet changes only through ledger rows, and those rows must start from its balance and chain.

DROP TRIGGER token_transactions_apply ON token_transactions;
DROP FUNCTION token_transactions_apply();

CREATE FUNCTION token_transactions_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  broken record;
  moved bigint;
BEGIN
  -- 1. Within the statement, each wallet's rows chain in id order.
  SELECT r.event, r.company_id, r.employee_id, r.balance_before INTO broken
    FROM (SELECT id, event, company_id, employee_id, balance_before,
                 lag(balance_after) OVER (PARTITION BY company_id, employee_id ORDER BY id) AS previous_after
            FROM new_rows) r
   WHERE r.previous_after IS NOT NULL AND r.balance_before <> r.previous_after
   ORDER BY r.id LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger row (%, company %, employee %) does not start from the wallet balance %',
      broken.event, broken.company_id, broken.employee_id, broken.balance_before
      USING ERRCODE = 'check_violation';
  END IF;

  -- 2. Each wallet moves once, and only if its first row starts from its current balance: a
  --    wallet the UPDATE did not move is named by its first row, as the row trigger did.
  WITH m AS (
    SELECT company_id, min(id) AS first_id,
           (array_agg(balance_before ORDER BY id))[1] AS first_before,
           (array_agg(balance_after ORDER BY id DESC))[1] AS last_after
      FROM new_rows WHERE employee_id IS NULL GROUP BY company_id
  ), moved AS (
    UPDATE companies c SET token_balance = m.last_after FROM m
     WHERE c.id = m.company_id AND c.token_balance = m.first_before
    RETURNING c.id
  )
  SELECT r.event, r.company_id, r.employee_id, r.balance_before INTO broken
    FROM m JOIN new_rows r ON r.id = m.first_id
   WHERE m.company_id NOT IN (SELECT id FROM moved)
   ORDER BY r.id LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger row (%, company %, employee %) does not start from the wallet balance %',
      broken.event, broken.company_id, broken.employee_id, broken.balance_before
      USING ERRCODE = 'check_violation';
  END IF;
  WITH m AS (
    SELECT company_id, employee_id, min(id) AS first_id,
           (array_agg(balance_before ORDER BY id))[1] AS first_before,
           (array_agg(balance_after ORDER BY id DESC))[1] AS last_after
      FROM new_rows WHERE employee_id IS NOT NULL GROUP BY company_id, employee_id
  ), moved AS (
    UPDATE employees e SET available_tokens = m.last_after FROM m
     WHERE e.id = m.employee_id AND e.company_id = m.company_id
       AND e.available_tokens = m.first_before
    RETURNING e.id
  )
  SELECT r.event, r.company_id, r.employee_id, r.balance_before INTO broken
    FROM m JOIN new_rows r ON r.id = m.first_id
   WHERE m.employee_id NOT IN (SELECT id FROM moved)
   ORDER BY r.id LIMIT 1;
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
   ORDER BY r.id LIMIT 1;
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
     ORDER BY r.id LIMIT 1;
    RAISE EXCEPTION 'order_refunded row does not match order %', broken.order_id
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER token_transactions_apply AFTER INSERT ON token_transactions
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION token_transactions_apply();
