-- A terminal's order in one statement (migration 0012, decision 0011): the stored answer of an
-- Idempotency-Key (terminal_key_answer), then the payee, the locked wallet, the checks, the key's
-- claim, the order, its ledger row and the answer stored under the key. It never raises for a
-- refusal: `outcome` is 'placed', 'stored', 'reused' or the refusal's catalogue code.
--
-- This file is the current definition (issue 13: one home for the ledger). The migrator applies it
-- after the numbered migrations whenever it changes (db/migrate.ts, repeatable definitions); the
-- numbered migrations that first created these objects are history. definitions.test.ts checks
-- that the database holds exactly what this file says.

CREATE OR REPLACE FUNCTION public.terminal_key_answer(p_terminal_id bigint, p_key text, p_request_hash text, OUT outcome text, OUT status integer, OUT body jsonb)
 RETURNS SETOF record
 LANGUAGE sql
 STABLE
AS $function$
  SELECT CASE WHEN k.request_hash = p_request_hash AND k.response_status IS NOT NULL
              THEN 'stored' ELSE 'reused' END,
         k.response_status, k.response_body
    FROM terminal_idempotency_keys k
   WHERE k.terminal_id = p_terminal_id AND k.idempotency_key = p_key
$function$;

CREATE OR REPLACE FUNCTION public.place_terminal_order(p_terminal_id bigint, p_merchant_id bigint, p_key text, p_request_hash text, p_company_code text, p_staff_number text, p_order_type text, p_items jsonb, p_subtotal bigint, p_at timestamp with time zone, OUT outcome text, OUT status integer, OUT body jsonb)
 RETURNS record
 LANGUAGE plpgsql
AS $function$
DECLARE
  company record;
  employee record;
  placed record;
  refusal text;
BEGIN
  -- A retry of a request already answered gets the first answer, whatever happened since.
  SELECT * INTO outcome, status, body FROM terminal_key_answer(p_terminal_id, p_key, p_request_hash);
  IF FOUND THEN
    RETURN;
  END IF;

  -- The payee: the company by its code (any case), then its employee's wallet, locked until commit
  -- (FOR NO KEY UPDATE, as every wallet lock: see ledger.repository.ts).
  SELECT c.id, c.code, c.status INTO company FROM companies c WHERE upper(c.code) = upper(p_company_code);
  IF NOT FOUND THEN
    refusal := 'NO_PAYEE_FOUND';
  ELSIF company.status <> 'active' THEN
    refusal := 'COMPANY_INACTIVE';
  ELSE
    SELECT e.id, e.employee_id, e.status, e.available_tokens, e.token_month INTO employee
      FROM employees e
     WHERE e.company_id = company.id AND e.employee_id = p_staff_number
       FOR NO KEY UPDATE;
    IF NOT FOUND THEN
      refusal := 'NO_PAYEE_FOUND';
    ELSIF employee.status <> 'active' THEN
      refusal := 'USER_INACTIVE';
    ELSIF employee.available_tokens < p_subtotal THEN
      refusal := 'INSUFFICIENT_TOKENS';
    END IF;
  END IF;

  IF refusal IS NULL THEN
    -- Claim the key. A concurrent request with the same key waits here until the first commits
    -- (then finds its answer below) or rolls back (then claims it).
    INSERT INTO terminal_idempotency_keys (terminal_id, idempotency_key, request_hash, created_at)
    VALUES (p_terminal_id, p_key, p_request_hash, p_at)
    ON CONFLICT DO NOTHING;
    IF FOUND THEN
      INSERT INTO orders (company_id, employee_id, merchant_id, terminal_id, order_type, items,
                          subtotal, ordered_at)
      VALUES (company.id, employee.id, p_merchant_id, p_terminal_id, p_order_type, p_items,
              p_subtotal, p_at)
      RETURNING orders.id, orders.order_no, orders.subtotal, orders.refunded_amount, orders.status,
                orders.items, orders.ordered_at INTO placed;
      INSERT INTO token_transactions (occurred_at, event, company_id, employee_id, direction, amount,
                                      balance_before, balance_after, period, order_id, terminal_id,
                                      merchant_id)
      VALUES (p_at, 'order_purchased', company.id, employee.id, 'sent', p_subtotal,
              employee.available_tokens, employee.available_tokens - p_subtotal,
              employee.token_month, placed.id, p_terminal_id, p_merchant_id);
      -- The answer, in the shape of getOrderView (orders.repository.ts) plus the balance after.
      body := jsonb_build_object('data', jsonb_build_object(
        'id', placed.id,
        'order_no', placed.order_no,
        'status', placed.status,
        'subtotal', placed.subtotal,
        'refunded_amount', placed.refunded_amount,
        'company_id', company.id,
        'company_code', company.code,
        'employee_id', employee.employee_id,
        'merchant_id', p_merchant_id,
        'terminal_id', p_terminal_id,
        'order_type', p_order_type,
        'items', placed.items,
        'ordered_at', to_char(placed.ordered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'available_tokens', employee.available_tokens - p_subtotal));
      UPDATE terminal_idempotency_keys k
         SET response_status = 201, response_body = body, order_id = placed.id
       WHERE k.terminal_id = p_terminal_id AND k.idempotency_key = p_key;
      outcome := 'placed'; status := 201;
      RETURN;
    END IF;
  END IF;

  -- Refused, or the key was claimed meanwhile: a request with this key that committed while this
  -- one waited for the wallet or the key wins, and its answer is the answer.
  SELECT * INTO outcome, status, body FROM terminal_key_answer(p_terminal_id, p_key, p_request_hash);
  IF NOT FOUND THEN
    outcome := coalesce(refusal, 'reused');
  END IF;
END $function$;
