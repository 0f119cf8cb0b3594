-- The current text of the functions and triggers created here: modules/ledger/sql/{apply,transfers}.sql.
-- Issue 6: the employee search and the monthly reset of a large company (decisions 0004, 0008).

-- 1. The employee list's search (part of the staff number, name or email, ignoring case) is
--    `lower(column) LIKE lower(pattern)`, which is what ILIKE computes; a trigram index on those
--    expressions serves it for three characters or more, instead of reading the whole company.
--    Not partial: the planner takes its per-expression statistics only from a full index.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX employees_search_idx ON employees
  USING gin (lower(employee_id) gin_trgm_ops, lower(name) gin_trgm_ops, lower(email) gin_trgm_ops);
-- Statistics on those expressions, so that a rare term is planned as an index scan.
ANALYZE employees;

-- 2. A monthly reset writes all its rows with one INSERT (insertResetRows), which the ledger
--    trigger applies as one UPDATE per employee, taking it into the new month as well (3): each
--    employee is written once per reset instead of three times. Half of each page is left free so
--    that this UPDATE, and an order's, finds room for the new row version on the same page: a HOT
--    update, which adds no index entries (on a full page the row moves, and every index of the
--    table, the trigram index included, gets a new entry). Existing pages keep their fill until
--    rewritten (VACUUM FULL); a row that moves lands on a half-full page, so after one reset a
--    company's rows have the room.
ALTER TABLE employees SET (fillfactor = 50);

-- 3. As in migration 0009, plus: a renewal (monthly_tokens_reset received by an employee) takes
--    the employee into the renewal's token month, in the same UPDATE that moves its balance.
CREATE OR REPLACE FUNCTION token_transactions_apply() RETURNS trigger LANGUAGE plpgsql AS $$
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
           (array_agg(balance_after ORDER BY id DESC))[1] AS last_after,
           max(period) FILTER (WHERE event = 'monthly_tokens_reset') AS renewed_into,
           max(occurred_at) FILTER (WHERE event = 'monthly_tokens_reset') AS renewed_at
      FROM new_rows WHERE employee_id IS NOT NULL GROUP BY company_id, employee_id
  ), moved AS (
    UPDATE employees e
       SET available_tokens = m.last_after,
           token_month = coalesce(m.renewed_into, e.token_month),
           updated_at = coalesce(m.renewed_at, e.updated_at)
      FROM m
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

-- 4. The transfer check of migration 0002 ran once per transfer row at commit (195,000 runs, each
--    an index lookup, in a reset of 100,000 employees). It now runs once per INSERT statement over
--    the statement's rows: each transfer must be written whole by one statement, one company
--    debit and one employee credit of the same amount, event, company and period. Nothing can be
--    added to a transfer afterwards: (transfer_id, direction) is unique and rows are immutable.
DROP TRIGGER token_transfers_balanced ON token_transactions;
DROP FUNCTION token_transfers_balanced();
CREATE FUNCTION token_transfers_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  broken uuid;
BEGIN
  SELECT transfer_id INTO broken FROM new_rows WHERE transfer_id IS NOT NULL
   GROUP BY transfer_id
  HAVING NOT (count(*) = 2
              AND count(*) FILTER (WHERE direction = 'sent' AND employee_id IS NULL) = 1
              AND count(*) FILTER (WHERE direction = 'received' AND employee_id IS NOT NULL) = 1
              AND min(amount) = max(amount) AND min(event) = max(event)
              AND min(company_id) = max(company_id) AND min(period) = max(period))
   LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'transfer % is not one balanced company debit and employee credit', broken
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER token_transfers_balanced AFTER INSERT ON token_transactions
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION token_transfers_balanced();

-- 5. token_tx_transfer_idx (transfer_id) repeats the leading column of the unique
--    token_tx_transfer_side_key (transfer_id, direction), which serves any lookup by transfer id
--    (the transfer check above no longer looks rows up). One index fewer to write per transfer.
DROP INDEX token_tx_transfer_idx;
