-- The current text of the functions and triggers created here: modules/ledger/sql/terminal-orders.sql.
-- POST /orders in one statement (issue 6, decision 0011). The order path used to send ten
-- statements per order (the key's claim, the company, the employee's lock, the order, its ledger
-- row, the order read back, the key's answer, BEGIN, COMMIT); each round trip cost the API and the
-- database more than the work itself. This function does the same work, in the same order, with
-- the same locks, in one call. The ledger triggers (0002, 0009) still apply the row to the wallet
-- and check it against the order, exactly as for any other writer.
--
-- It never raises for a refusal: nothing is written before every check has passed, so a refused
-- request leaves no key behind (it may be retried with the same key) and a caller's transaction
-- stays usable. `outcome` is:
--   'placed'    the order was placed now; `status` and `body` are the answer, also stored on the key;
--   'stored'    the key was answered before, for this same request: `status` and `body` are that
--               first answer (DESIGN 3.3, invariant 5);
--   'reused'    the key was used before for a different request;
--   otherwise the catalogue code of the refusal: NO_PAYEE_FOUND, COMPANY_INACTIVE, USER_INACTIVE,
--   INSUFFICIENT_TOKENS.
-- The caller (ledger.service.ts placeOrder) validates the body and computes the subtotal first.
-- The answer already stored under a terminal's key: 'stored' with the first answer when the request
-- is the same, 'reused' when it is not; no row when the key is new.
CREATE FUNCTION terminal_key_answer(
  p_terminal_id bigint, p_key text, p_request_hash text,
  OUT outcome text, OUT status integer, OUT body jsonb
) RETURNS SETOF record LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN k.request_hash = p_request_hash AND k.response_status IS NOT NULL
              THEN 'stored' ELSE 'reused' END,
         k.response_status, k.response_body
    FROM terminal_idempotency_keys k
   WHERE k.terminal_id = p_terminal_id AND k.idempotency_key = p_key
$$;

CREATE FUNCTION place_terminal_order(
  p_terminal_id bigint, p_merchant_id bigint, p_key text, p_request_hash text,
  p_company_code text, p_staff_number text, p_order_type text, p_items jsonb,
  p_subtotal bigint, p_at timestamptz,
  OUT outcome text, OUT status integer, OUT body jsonb
) LANGUAGE plpgsql AS $$
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
END $$;
