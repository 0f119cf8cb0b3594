-- A terminal's order and a terminal's refund, each in one statement (migration 0012, decision
-- 0011), sharing one idempotency mechanism: the stored answer of an Idempotency-Key
-- (terminal_key_answer), then the locked rows, the checks, the key's claim, the writes and the
-- answer stored under the key. Neither raises for a refusal: `outcome` is 'placed' or 'refunded',
-- 'stored' (a retry answered from the key), 'reused' (the key came with another request) or the
-- refusal's catalogue code; a refusal writes nothing, so the key may be retried.
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

-- The order as a terminal's answers show it (the shape of getOrderView in orders.repository.ts).
-- PL/pgSQL, not SQL, only so that its plan is kept for the session: a SQL function's query is
-- parsed and planned again at every call from PL/pgSQL (decision 0043).
CREATE OR REPLACE FUNCTION public.terminal_order_json(p_order_id bigint)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
AS $function$
BEGIN
  RETURN (
    SELECT jsonb_build_object(
             'id', o.id,
             'order_no', o.order_no,
             'status', o.status,
             'subtotal', o.subtotal,
             'refunded_amount', o.refunded_amount,
             'company_id', o.company_id,
             'company_code', c.code,
             'employee_id', e.employee_id,
             'merchant_id', o.merchant_id,
             'terminal_id', o.terminal_id,
             'order_type', o.order_type,
             'items', o.items,
             'ordered_at', to_char(o.ordered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      FROM orders o
      JOIN companies c ON c.id = o.company_id
      JOIN employees e ON e.id = o.employee_id
     WHERE o.id = p_order_id);
END $function$;

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
      -- The answer: the order, plus the balance after.
      body := jsonb_build_object('data', terminal_order_json(placed.id)
        || jsonb_build_object('available_tokens', employee.available_tokens - p_subtotal));
      UPDATE terminal_idempotency_keys k
         SET response_status = 201, response_body = body, order_id = placed.id
       WHERE k.terminal_id = p_terminal_id AND k.idempotency_key = p_key;
      -- The webhook outbox (decision 0038): the event commits with the order, or neither does.
      -- Its data is built only when an endpoint takes the event.
      IF webhook_wanted('order.created', company.id, p_merchant_id) THEN
        PERFORM webhook_enqueue('order.created', company.id, p_merchant_id,
                                webhook_order_data(placed.id), p_at);
      END IF;
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

-- Group commit (decision 0034): the orders that reached one API instance while its previous batch
-- was at the database, placed in one transaction, each by place_terminal_order exactly as alone,
-- so each keeps its own answer, its own key and its own refusal (a refusal writes nothing and
-- raises nothing, so it never undoes another order of the batch). `ord` is the order's position
-- in p_orders (from 1). The orders run in the ledger's one lock order, employees by id (payees
-- not found first: they lock nothing), so a batch never deadlocks with another batch or with a
-- distribution; the requests for one wallet keep their order of arrival.
CREATE OR REPLACE FUNCTION public.place_terminal_orders(p_orders jsonb, OUT ord integer, OUT outcome text, OUT status integer, OUT body jsonb)
 RETURNS SETOF record
 LANGUAGE plpgsql
AS $function$
DECLARE
  o record;
BEGIN
  FOR o IN
    SELECT e.n, x.*
      FROM jsonb_array_elements(p_orders) WITH ORDINALITY AS e(v, n)
     CROSS JOIN LATERAL jsonb_to_record(e.v) AS x(terminal_id bigint, merchant_id bigint,
                                                  key text, request_hash text,
                                                  company_code text, staff_number text,
                                                  order_type text, items jsonb, subtotal bigint,
                                                  at timestamptz)
      LEFT JOIN companies c ON upper(c.code) = upper(x.company_code)
      LEFT JOIN employees w ON w.company_id = c.id AND w.employee_id = x.staff_number
     ORDER BY w.id NULLS FIRST, e.n
  LOOP
    SELECT * INTO outcome, status, body
      FROM place_terminal_order(o.terminal_id, o.merchant_id, o.key, o.request_hash,
                                o.company_code, o.staff_number, o.order_type, o.items,
                                o.subtotal, o.at);
    ord := o.n;
    RETURN NEXT;
  END LOOP;
END $function$;

-- The terminal-key checks of a batch of requests in one statement (decision 0014, batched by
-- decision 0034): each request (`n`, from 1, its key's digest `hash` and its client address's
-- wrong-key counter `wrong_key`) gets the terminal behind the digest with its and its merchant's
-- status (a deleted one reads as inactive), the address's wrong keys, and the request counted
-- against the key: a key presented k times moves its counter once by k, counters are upserted in
-- key order (so two batches never deadlock), and each request sees the count up to itself. One
-- `p_at` opens or closes the windows of the whole batch. The one definition of the check: the key
-- check alone (terminals.repository.ts checkTerminalKeyHashes) and the orders keyed in their own
-- statement (place_terminal_orders_keyed) both call it.
CREATE OR REPLACE FUNCTION public.check_terminal_keys(p_requests jsonb, p_at timestamp with time zone, p_window_ms double precision, p_max_wrong_keys integer, OUT n integer, OUT terminal_id bigint, OUT merchant_id bigint, OUT terminal_status text, OUT merchant_status text, OUT key_hits integer, OUT key_retry integer, OUT wrong_hits integer, OUT wrong_retry integer)
 RETURNS SETOF record
 LANGUAGE plpgsql
AS $function$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  WITH input AS (
    SELECT * FROM jsonb_to_recordset(p_requests) AS i(n int, hash text, wrong_key text)
  ),
  wrong AS (
    SELECT i.n, r.hits, greatest(1, ceil(extract(epoch FROM r.expires_at - p_at)))::int AS retry
      FROM input i JOIN rate_limits r ON r.key = i.wrong_key AND r.expires_at > p_at
  ),
  found AS (
    SELECT i.n, t.id, t.merchant_id,
           CASE WHEN t.deleted_at IS NULL THEN t.status ELSE 'inactive' END AS status,
           CASE WHEN m.deleted_at IS NULL THEN m.status ELSE 'inactive' END AS merchant_status
      FROM input i
      JOIN terminals t ON t.api_key_hash = i.hash
      JOIN merchants m ON m.id = t.merchant_id
  ),
  counted AS (
    SELECT f.n, 'terminal:' || f.id AS key,
           row_number() OVER (PARTITION BY f.id ORDER BY f.n) AS rank,
           count(*) OVER (PARTITION BY f.id) AS requests
      FROM found f
     WHERE NOT EXISTS (SELECT 1 FROM wrong w WHERE w.n = f.n AND w.hits >= p_max_wrong_keys)
  ),
  hit AS (
    INSERT INTO rate_limits AS r (key, hits, expires_at)
    SELECT c.key, c.requests, p_at + p_window_ms * interval '1 millisecond'
      FROM counted c WHERE c.rank = 1 ORDER BY c.key
    ON CONFLICT (key) DO UPDATE
       SET hits = CASE WHEN r.expires_at <= p_at THEN excluded.hits ELSE r.hits + excluded.hits END,
           expires_at = CASE WHEN r.expires_at <= p_at THEN excluded.expires_at
                             ELSE r.expires_at END
    RETURNING r.key, r.hits, greatest(1, ceil(extract(epoch FROM r.expires_at - p_at)))::int AS retry
  )
  SELECT i.n, f.id, f.merchant_id, f.status, f.merchant_status,
         (h.hits - c.requests + c.rank)::int, h.retry, w.hits, w.retry
    FROM input i
    LEFT JOIN found f ON f.n = i.n
    LEFT JOIN counted c ON c.n = i.n
    LEFT JOIN hit h ON h.key = c.key
    LEFT JOIN wrong w ON w.n = i.n
   ORDER BY i.n;
END $function$;

-- One round trip per batch (decision 0043): the terminal-key checks of a batch of orders and the
-- orders themselves in one statement and one transaction. Each request (`n`, from 1) carries its
-- key's digest, its client address's wrong-key counter and its order; the key check is
-- check_terminal_keys, and only the requests it lets through reach place_terminal_orders, with
-- the terminal and merchant the database found (a request with a null order is only
-- key-checked: its body was refused before). Every request gets its row: its key check (the API
-- turns a failed one into the same 401, 403 or 429 as alone) and its order's outcome (null when
-- its key check refused it). Counter rows are locked before any wallet, in key order, by every
-- batch, so batches never deadlock; the counts commit (durably) with the orders, or roll back
-- with them.
CREATE OR REPLACE FUNCTION public.place_terminal_orders_keyed(p_requests jsonb, p_at timestamp with time zone, p_window_ms double precision, p_max_wrong_keys integer, p_max_per_key integer, OUT n integer, OUT terminal_id bigint, OUT merchant_id bigint, OUT terminal_status text, OUT merchant_status text, OUT key_hits integer, OUT key_retry integer, OUT wrong_hits integer, OUT wrong_retry integer, OUT outcome text, OUT status integer, OUT body jsonb)
 RETURNS SETOF record
 LANGUAGE plpgsql
AS $function$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  WITH checked AS (
    SELECT k.*, i."order"
      FROM check_terminal_keys(p_requests, p_at, p_window_ms, p_max_wrong_keys) AS k
      JOIN jsonb_to_recordset(p_requests) AS i(n int, "order" jsonb) ON i.n = k.n
  ),
  passing AS (
    SELECT c.*, row_number() OVER (ORDER BY c.n)::int AS ord
      FROM checked c
     WHERE c.terminal_status = 'active' AND c.merchant_status = 'active'
       AND c.key_hits <= p_max_per_key AND c."order" IS NOT NULL
  ),
  placed AS (
    SELECT p.ord, p.outcome, p.status, p.body
      FROM place_terminal_orders((
             SELECT coalesce(jsonb_agg(s."order" || jsonb_build_object('terminal_id', s.terminal_id,
                                                                      'merchant_id', s.merchant_id)
                                       ORDER BY s.ord), '[]'::jsonb)
               FROM passing s)) AS p
  )
  SELECT c.n, c.terminal_id, c.merchant_id, c.terminal_status, c.merchant_status, c.key_hits,
         c.key_retry, c.wrong_hits, c.wrong_retry, d.outcome, d.status, d.body
    FROM checked c
    LEFT JOIN passing s ON s.n = c.n
    LEFT JOIN placed d ON d.ord = s.ord
   ORDER BY c.n;
END $function$;

-- A refund (order_refunded): what is left of the order for cancelled, rejected and auto_archived;
-- p_amount for item_removed. A terminal refunds only its merchant's orders (p_merchant_id); the
-- auto-archive job passes a null merchant and a null key (it needs no idempotency: an order
-- refunded meanwhile is ORDER_ALREADY_REFUNDED). Locks the order, then the employee's wallet,
-- as every refund does; the apply trigger moves the order's refunded_amount.
CREATE OR REPLACE FUNCTION public.refund_terminal_order(p_terminal_id bigint, p_merchant_id bigint, p_key text, p_request_hash text, p_order_id bigint, p_reason text, p_amount bigint, p_actor_user_id bigint, p_at timestamp with time zone, OUT outcome text, OUT status integer, OUT body jsonb)
 RETURNS record
 LANGUAGE plpgsql
AS $function$
DECLARE
  target record;
  employee record;
  refund_amount bigint;
  transaction_id bigint;
  refusal text;
BEGIN
  IF p_key IS NOT NULL THEN
    SELECT * INTO outcome, status, body FROM terminal_key_answer(p_terminal_id, p_key, p_request_hash);
    IF FOUND THEN
      RETURN;
    END IF;
  END IF;

  SELECT o.id, o.employee_id, o.merchant_id, o.subtotal - o.refunded_amount AS remaining
    INTO target
    FROM orders o
   WHERE o.id = p_order_id AND (p_merchant_id IS NULL OR o.merchant_id = p_merchant_id)
     FOR NO KEY UPDATE;
  IF NOT FOUND THEN
    refusal := 'ORDER_NOT_FOUND';
  ELSIF target.remaining <= 0 THEN
    refusal := 'ORDER_ALREADY_REFUNDED';
  ELSE
    refund_amount := CASE WHEN p_reason = 'item_removed' THEN p_amount ELSE target.remaining END;
    IF refund_amount IS NULL OR refund_amount <= 0 THEN
      refusal := 'AMOUNT_REQUIRED';
    ELSIF refund_amount > target.remaining THEN
      refusal := 'REFUND_EXCEEDS_SUBTOTAL';
    END IF;
  END IF;

  IF refusal IS NULL THEN
    IF p_key IS NOT NULL THEN
      INSERT INTO terminal_idempotency_keys (terminal_id, idempotency_key, request_hash, created_at)
      VALUES (p_terminal_id, p_key, p_request_hash, p_at)
      ON CONFLICT DO NOTHING;
    END IF;
    IF p_key IS NULL OR FOUND THEN
      SELECT e.id, e.company_id, e.available_tokens, e.token_month INTO employee
        FROM employees e WHERE e.id = target.employee_id
         FOR NO KEY UPDATE;
      INSERT INTO token_transactions (occurred_at, event, company_id, employee_id, direction, amount,
                                      balance_before, balance_after, period, order_id,
                                      refund_reason, terminal_id, merchant_id, actor_user_id)
      VALUES (p_at, 'order_refunded', employee.company_id, employee.id, 'received', refund_amount,
              employee.available_tokens, employee.available_tokens + refund_amount,
              employee.token_month, target.id, p_reason, p_terminal_id, target.merchant_id,
              p_actor_user_id)
      RETURNING token_transactions.id INTO transaction_id;
      -- The webhook outbox (decision 0038): the event commits with the refund, or neither does.
      IF webhook_wanted('order.refunded', employee.company_id, target.merchant_id) THEN
        PERFORM webhook_enqueue('order.refunded', employee.company_id, target.merchant_id,
                                webhook_order_data(target.id)
                                  || jsonb_build_object('refund_amount', refund_amount,
                                                        'refund_reason', p_reason),
                                p_at);
      END IF;
      body := jsonb_build_object('data', jsonb_build_object(
        'order', terminal_order_json(target.id),
        'refund', jsonb_build_object(
          'amount', refund_amount,
          'reason', p_reason,
          'transaction_id', transaction_id,
          'available_tokens', employee.available_tokens + refund_amount)));
      IF p_key IS NOT NULL THEN
        UPDATE terminal_idempotency_keys k
           SET response_status = 200, response_body = body, order_id = target.id
         WHERE k.terminal_id = p_terminal_id AND k.idempotency_key = p_key;
      END IF;
      outcome := 'refunded'; status := 200;
      RETURN;
    END IF;
  END IF;

  -- Refused, or the key was claimed meanwhile: a request with this key that committed while this
  -- one waited for the order or the key wins, and its answer is the answer.
  IF p_key IS NOT NULL THEN
    SELECT * INTO outcome, status, body FROM terminal_key_answer(p_terminal_id, p_key, p_request_hash);
    IF FOUND THEN
      RETURN;
    END IF;
  END IF;
  outcome := coalesce(refusal, 'reused');
END $function$;
