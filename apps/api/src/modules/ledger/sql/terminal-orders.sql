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
             -- The bill; what the wallet paid is the ledger's `subtotal` (DESIGN 7, partial).
             'subtotal', coalesce(o.bill_tokens, o.subtotal),
             'paid_tokens', o.subtotal,
             'to_pay_otherwise', coalesce(o.bill_tokens - o.subtotal, 0),
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
BEGIN
  -- One order is a batch of one: the rules are written once, in place_terminal_orders.
  SELECT p.outcome, p.status, p.body INTO outcome, status, body
    FROM place_terminal_orders(jsonb_build_array(jsonb_build_object(
           'terminal_id', p_terminal_id, 'merchant_id', p_merchant_id, 'key', p_key,
           'request_hash', p_request_hash, 'company_code', p_company_code,
           'staff_number', p_staff_number, 'order_type', p_order_type, 'items', p_items,
           'subtotal', p_subtotal, 'at', p_at))) AS p;
END $function$;

-- Group commit (decision 0034): the orders that reached one API instance while its previous batch
-- was at the database, placed in one transaction, each with its own answer, its own key and its
-- own refusal (a refusal writes nothing and raises nothing, so it never undoes another order of
-- the batch). `ord` is the order's position in p_orders (from 1).
--
-- Set-based (decision 0061): the batch's wallets are locked in the ledger's one lock order
-- (employees by id, so a batch never deadlocks with another batch or with a distribution), each
-- order is then decided in memory as place_terminal_order would decide it alone, in the order
-- the wallets were locked (payees not found first; the requests for one wallet in their order of
-- arrival, each seeing the balance the earlier ones left), and the accepted ones are written with
-- one INSERT per table: the ledger's statement triggers run once per batch instead of once per
-- order. A retry of a key already answered gets that answer, including a key placed earlier in
-- the same batch. The keys are claimed last, with their answers; a key another transaction
-- claimed meanwhile (a concurrent retry) fails the batch with serialization_failure, and the API
-- places each order of the batch again alone (lib/group-commit.ts), where the order that lost the
-- key gets the winner's answer.
CREATE OR REPLACE FUNCTION public.place_terminal_orders(p_orders jsonb, OUT ord integer, OUT outcome text, OUT status integer, OUT body jsonb)
 RETURNS SETOF record
 LANGUAGE plpgsql
AS $function$
DECLARE
  o record;
  wallet_ids bigint[] := '{}';
  wallet_balances bigint[] := '{}';
  w integer;
  keys text[] := '{}';
  key_hashes text[] := '{}';
  k integer;
  refusal text;
  refusal_details jsonb;
  -- A pay code's step spent by this statement (decision 0082): null when the order names none.
  code_spent boolean;
  -- Spending rules (DESIGN 7): each wallet's spending of its local day, counted once per batch.
  wallet_days date[] := '{}';
  wallet_spent bigint[] := '{}';
  remaining bigint;
  payable bigint;
  -- The accepted orders, in the lock order: position in p_orders, payee, balance before, what
  -- the wallet pays (the subtotal, or less when paid in part) and the bill when paid in part.
  acc_paid bigint[] := '{}';
  acc_bills bigint[] := '{}';
  -- The declines kept (a rule's refusal or the balance's): position, payee, code, details.
  dec_ords integer[] := '{}';
  dec_companies bigint[] := '{}';
  dec_employees bigint[] := '{}';
  dec_codes text[] := '{}';
  dec_details jsonb[] := '{}';
  acc_ords integer[] := '{}';
  acc_companies bigint[] := '{}';
  acc_employees bigint[] := '{}';
  acc_months text[] := '{}';
  acc_balances bigint[] := '{}';
  -- Repeats of a key accepted earlier in the batch: their position, the accepted one's index.
  dup_ords integer[] := '{}';
  dup_of integer[] := '{}';
  dup_same boolean[] := '{}';
  -- The answers decided before any write: refusals and retries.
  res_ords integer[] := '{}';
  res_outcomes text[] := '{}';
  res_statuses integer[] := '{}';
  res_bodies jsonb[] := '{}';
  order_ids bigint[];
  answers jsonb[];
BEGIN
  -- The batch's wallets, locked by id.
  PERFORM 1
     FROM employees e
    WHERE e.id IN (SELECT p.id
                     FROM jsonb_to_recordset(p_orders) AS x(company_code text, staff_number text)
                     JOIN companies c ON upper(c.code) = upper(x.company_code)
                     JOIN employees p ON p.company_id = c.id AND p.employee_id = x.staff_number)
    ORDER BY e.id
      FOR NO KEY UPDATE;

  -- Each order decided as alone, in the lock order, from what the locks now hold.
  FOR o IN
    SELECT e.n::integer AS n, x.terminal_id, x.key, x.request_hash, x.subtotal,
           coalesce(x.partial, false) AS partial, l.tz, l.local_at, x.at,
           x.pay_device_id, x.pay_step,
           c.id AS company_id, c.status AS company_status,
           c.pay_code_required AND NOT coalesce(x.by_pay_code, false) AS pay_code_missing,
           p.id AS employee_id, p.status AS employee_status, p.available_tokens, p.token_month,
           sk.outcome AS stored_outcome, sk.status AS stored_status, sk.body AS stored_body,
           -- The rules in force on the order's local day (none: no version, no rule), and the
           -- order judged by them but for the daily limit, which depends on the batch's earlier
           -- orders (spending_judge, inlined: decision 0080).
           r.daily_limit AS r_daily_limit, r.partial_payment AS r_partial,
           r.closed_on_holidays IS NOT NULL AS ruled,
           j.code AS rule_code, j.details AS rule_details,
           -- What the payee spent on the order's local day, read here, after the locks (decision
           -- 0080): only where a daily limit is in force (a null payee reads nothing).
           sd.spent AS spent_today
      FROM jsonb_array_elements(p_orders) WITH ORDINALITY AS e(v, n)
     CROSS JOIN LATERAL jsonb_to_record(e.v) AS x(terminal_id bigint, merchant_id bigint, key text,
                                                  request_hash text, company_code text,
                                                  staff_number text, subtotal bigint,
                                                  partial boolean, by_pay_code boolean,
                                                  pay_device_id bigint, pay_step bigint,
                                                  tz text, at timestamptz)
     CROSS JOIN LATERAL (SELECT coalesce(x.tz, 'UTC') AS tz,
                                x.at AT TIME ZONE coalesce(x.tz, 'UTC') AS local_at) l
      LEFT JOIN companies c ON upper(c.code) = upper(x.company_code)
      LEFT JOIN employees p ON p.company_id = c.id AND p.employee_id = x.staff_number
      LEFT JOIN LATERAL terminal_key_answer(x.terminal_id, x.key, x.request_hash) sk ON true
      LEFT JOIN LATERAL spending_rules_for(p.id, l.local_at::date) r ON true
      LEFT JOIN merchants m ON r.closed_on_holidays IS NOT NULL AND m.id = x.merchant_id
     CROSS JOIN LATERAL (SELECT r.closed_on_holidays
                                AND EXISTS (SELECT 1 FROM holidays h WHERE h.day = l.local_at::date)
                                  AS holiday) hd
     CROSS JOIN LATERAL spending_judge(r.weekdays, r.hours, r.closed_on_holidays,
                                       r.merchant_categories, r.order_limit, NULL, l.local_at,
                                       hd.holiday, m.category, x.subtotal, NULL, l.tz) j
     CROSS JOIN LATERAL spending_spent_during(CASE WHEN r.daily_limit IS NOT NULL THEN p.id END,
                                              l.local_at::date, l.tz) sd
     ORDER BY p.id NULLS FIRST, e.n
  LOOP
    -- A retry of a request already answered gets the first answer (terminal_key_answer).
    IF o.stored_outcome IS NOT NULL THEN
      res_ords := res_ords || o.n;
      res_outcomes := res_outcomes || o.stored_outcome;
      res_statuses := res_statuses || o.stored_status;
      res_bodies := res_bodies || o.stored_body;
      CONTINUE;
    END IF;
    -- The key of an order accepted earlier in this batch: that order's answer.
    k := array_position(keys, o.terminal_id || ':' || o.key);
    IF k IS NOT NULL THEN
      dup_ords := dup_ords || o.n;
      dup_of := dup_of || k;
      dup_same := dup_same || (key_hashes[k] = o.request_hash);
      CONTINUE;
    END IF;

    refusal := NULL;
    refusal_details := NULL;
    payable := o.subtotal;
    -- A pay code (DESIGN 8, decision 0082) is spent here, under the payee's wallet lock and in the
    -- order's transaction: its step, if the device is the payee's, still there, and has paid with
    -- no later step (the same step only for this key: a retry). Spent by a declined order too, as
    -- when it was spent before the order. Any other code refuses the order, writing nothing.
    code_spent := NULL;
    IF o.pay_device_id IS NOT NULL THEN
      UPDATE pay_devices d
         SET last_used_step = o.pay_step, last_used_key = o.key, last_used_at = o.at
       WHERE d.id = o.pay_device_id AND d.employee_id = o.employee_id
         AND (d.last_used_step < o.pay_step
              OR (d.last_used_step = o.pay_step AND d.last_used_key = o.key))
         AND EXISTS (SELECT 1 FROM employees pe WHERE pe.id = d.employee_id AND pe.deleted_at IS NULL);
      code_spent := FOUND;
    END IF;
    IF NOT code_spent THEN
      refusal := 'PAY_CODE_INVALID';
    ELSIF o.company_id IS NULL THEN
      refusal := 'NO_PAYEE_FOUND';
    ELSIF o.company_status <> 'active' THEN
      refusal := 'COMPANY_INACTIVE';
    ELSIF o.pay_code_missing THEN
      -- DESIGN 8: this company's employees pay by pay code only.
      refusal := 'PAY_CODE_REQUIRED';
    ELSIF o.employee_id IS NULL THEN
      refusal := 'NO_PAYEE_FOUND';
    ELSIF o.employee_status <> 'active' THEN
      refusal := 'USER_INACTIVE';
    ELSE
      w := array_position(wallet_ids, o.employee_id);
      IF w IS NULL THEN
        wallet_ids := wallet_ids || o.employee_id;
        wallet_balances := wallet_balances || o.available_tokens;
        w := array_length(wallet_ids, 1);
      END IF;
      IF NOT o.ruled THEN
        IF wallet_balances[w] < o.subtotal THEN
          refusal := 'INSUFFICIENT_TOKENS';
        END IF;
      ELSE
        -- Spending rules (DESIGN 7, decisions 0077, 0080), decided here under the wallet's lock:
        -- the day's spending is read by the loop's query once the locks are held, taken for the
        -- wallet's first order of the batch, then carried in memory, so orders of one wallet, in
        -- one batch or in concurrent ones, never together pass its daily limit.
        IF o.r_daily_limit IS NOT NULL
           AND wallet_days[w] IS DISTINCT FROM o.local_at::date THEN
          wallet_days[w] := o.local_at::date;
          wallet_spent[w] := o.spent_today;
        END IF;
        refusal := o.rule_code;
        refusal_details := o.rule_details;
        -- What the day's limit leaves (spending_judge's `remaining`), from the carried spending.
        remaining := CASE WHEN o.r_daily_limit IS NOT NULL
                          THEN greatest(o.r_daily_limit - wallet_spent[w], 0) END;
        IF refusal IS NULL THEN
          payable := least(o.subtotal, greatest(wallet_balances[w], 0),
                           coalesce(remaining, o.subtotal));
          IF payable < o.subtotal AND NOT (o.partial AND o.r_partial AND payable > 0) THEN
            IF remaining IS NOT NULL AND remaining < o.subtotal
               AND remaining <= wallet_balances[w] THEN
              refusal := 'DAILY_LIMIT_EXCEEDED';
              refusal_details := jsonb_build_object('daily_limit', o.r_daily_limit,
                                                    'spent_today', wallet_spent[w],
                                                    'remaining_today', remaining);
            ELSE
              refusal := 'INSUFFICIENT_TOKENS';
            END IF;
          END IF;
        END IF;
      END IF;
    END IF;

    IF refusal IS NOT NULL THEN
      res_ords := res_ords || o.n;
      res_outcomes := res_outcomes || refusal;
      res_statuses := res_statuses || NULL::integer;
      res_bodies := res_bodies || refusal_details;
      -- Kept (DESIGN 7): a refusal by a rule or by the balance of a payee that was found.
      IF o.employee_id IS NOT NULL AND refusal IN ('INSUFFICIENT_TOKENS', 'DAILY_LIMIT_EXCEEDED',
           'ORDER_LIMIT_EXCEEDED', 'OUTSIDE_ALLOWED_HOURS', 'NOT_ALLOWED_TODAY',
           'MERCHANT_NOT_ALLOWED') THEN
        dec_ords := dec_ords || o.n;
        dec_companies := dec_companies || o.company_id;
        dec_employees := dec_employees || o.employee_id;
        dec_codes := dec_codes || refusal;
        dec_details := dec_details || refusal_details;
      END IF;
    ELSE
      acc_ords := acc_ords || o.n;
      acc_companies := acc_companies || o.company_id;
      acc_employees := acc_employees || o.employee_id;
      acc_months := acc_months || o.token_month;
      acc_balances := acc_balances || wallet_balances[w];
      acc_paid := acc_paid || payable;
      acc_bills := acc_bills || CASE WHEN payable < o.subtotal THEN o.subtotal END;
      wallet_balances[w] := wallet_balances[w] - payable;
      IF o.ruled AND o.r_daily_limit IS NOT NULL THEN
        wallet_spent[w] := wallet_spent[w] + payable;
      END IF;
      keys := keys || (o.terminal_id || ':' || o.key);
      key_hashes := key_hashes || o.request_hash;
    END IF;
  END LOOP;

  IF cardinality(acc_ords) > 0 THEN
    SELECT array_agg(nextval(pg_get_serial_sequence('public.orders', 'id')))
      INTO order_ids FROM generate_series(1, cardinality(acc_ords));

    -- `subtotal` is what the wallet pays; `bill_tokens` the whole bill when it pays only part.
    INSERT INTO orders (id, company_id, employee_id, merchant_id, terminal_id, order_type, items,
                        subtotal, bill_tokens, ordered_at)
    OVERRIDING SYSTEM VALUE
    SELECT order_ids[a.i], a.company_id, a.employee_id, x.merchant_id, x.terminal_id,
           x.order_type, x.items, a.paid, a.bill, x.at
      FROM unnest(acc_ords, acc_companies, acc_employees, acc_paid, acc_bills) WITH ORDINALITY
             AS a(n, company_id, employee_id, paid, bill, i)
     CROSS JOIN LATERAL jsonb_to_record(p_orders -> (a.n - 1))
             AS x(terminal_id bigint, merchant_id bigint, order_type text, items jsonb,
                  at timestamptz)
     ORDER BY a.i;

    -- Spent today (decision 0080): each accepted order adds what its wallet paid to its payee's
    -- quarter-hour, one row per payee and quarter-hour of the batch, under the wallet locks held.
    -- Every order, under rules or not: a version made effective today counts the morning's.
    INSERT INTO spending_quarter_hours AS s (employee_id, bucket, spent)
    SELECT a.employee_id, date_bin('15 minutes', x.at, timestamptz '2000-01-01 00:00:00+00'),
           sum(a.paid)
      FROM unnest(acc_ords, acc_employees, acc_paid) AS a(n, employee_id, paid)
     CROSS JOIN LATERAL jsonb_to_record(p_orders -> (a.n - 1)) AS x(at timestamptz)
     GROUP BY 1, 2
    ON CONFLICT (employee_id, bucket) DO UPDATE SET spent = s.spent + EXCLUDED.spent;

    -- One INSERT for the batch's order_purchased rows, in the lock order: each wallet's rows
    -- chain from its locked balance, and the ledger's statement triggers run once.
    INSERT INTO token_transactions (occurred_at, event, company_id, employee_id, direction, amount,
                                    balance_before, balance_after, period, order_id, terminal_id,
                                    merchant_id)
    SELECT x.at, 'order_purchased', a.company_id, a.employee_id, 'sent', a.paid,
           a.balance, a.balance - a.paid, a.period, order_ids[a.i], x.terminal_id,
           x.merchant_id
      FROM unnest(acc_ords, acc_companies, acc_employees, acc_months, acc_balances, acc_paid)
             WITH ORDINALITY AS a(n, company_id, employee_id, period, balance, paid, i)
     CROSS JOIN LATERAL jsonb_to_record(p_orders -> (a.n - 1))
             AS x(terminal_id bigint, merchant_id bigint, at timestamptz)
     ORDER BY a.i;

    -- The keys, claimed with their answers (the order, plus the balance after), in key order.
    WITH claimed AS (
      INSERT INTO terminal_idempotency_keys (terminal_id, idempotency_key, request_hash, created_at,
                                             response_status, response_body, order_id)
      SELECT x.terminal_id, x.key, x.request_hash, x.at, 201,
             jsonb_build_object('data', terminal_order_json(order_ids[a.i])
               || jsonb_build_object('available_tokens', a.balance - a.paid)),
             order_ids[a.i]
        FROM unnest(acc_ords, acc_balances, acc_paid) WITH ORDINALITY AS a(n, balance, paid, i)
       CROSS JOIN LATERAL jsonb_to_record(p_orders -> (a.n - 1))
               AS x(terminal_id bigint, key text, request_hash text, at timestamptz)
       ORDER BY x.terminal_id, x.key
      ON CONFLICT DO NOTHING
      RETURNING terminal_idempotency_keys.order_id, terminal_idempotency_keys.response_body
    )
    SELECT array_agg(c.response_body ORDER BY a.i) INTO answers
      FROM unnest(order_ids) WITH ORDINALITY AS a(id, i)
      JOIN claimed c ON c.order_id = a.id;
    IF coalesce(cardinality(answers), 0) <> cardinality(acc_ords) THEN
      RAISE EXCEPTION 'an order''s Idempotency-Key was claimed by another request meanwhile'
        USING ERRCODE = 'serialization_failure';
    END IF;

    -- The webhook outbox (decision 0038): each event commits with its order, or neither does.
    PERFORM webhook_enqueue('order.created', a.company_id, x.merchant_id,
                            webhook_order_data(order_ids[a.i]), x.at)
       FROM unnest(acc_ords, acc_companies) WITH ORDINALITY AS a(n, company_id, i)
      CROSS JOIN LATERAL jsonb_to_record(p_orders -> (a.n - 1))
              AS x(merchant_id bigint, at timestamptz)
      WHERE webhook_wanted('order.created', a.company_id, x.merchant_id)
      ORDER BY a.i;
  END IF;

  -- The declines, kept with the batch (a batch that fails as a whole is placed again order by
  -- order, which keeps them then).
  IF cardinality(dec_ords) > 0 THEN
    INSERT INTO order_declines (declined_at, company_id, employee_id, merchant_id, terminal_id,
                                subtotal, code, details)
    SELECT x.at, d.company_id, d.employee_id, x.merchant_id, x.terminal_id, x.subtotal, d.code,
           d.details
      FROM unnest(dec_ords, dec_companies, dec_employees, dec_codes, dec_details)
             AS d(n, company_id, employee_id, code, details)
     CROSS JOIN LATERAL jsonb_to_record(p_orders -> (d.n - 1))
             AS x(terminal_id bigint, merchant_id bigint, subtotal bigint, at timestamptz);
  END IF;

  -- Every order's answer: the refusals and retries, the placed orders, and the repeats of a key
  -- placed in this batch (a retry of it, or another request reusing it).
  RETURN QUERY
    SELECT r.n, r.outcome, r.status, r.body
      FROM unnest(res_ords, res_outcomes, res_statuses, res_bodies) AS r(n, outcome, status, body)
    UNION ALL
    SELECT a.n, 'placed'::text, 201, answers[a.i]
      FROM unnest(acc_ords) WITH ORDINALITY AS a(n, i)
    UNION ALL
    SELECT d.n, CASE WHEN d.same THEN 'stored' ELSE 'reused' END, 201, answers[d.first]
      FROM unnest(dup_ords, dup_of, dup_same) AS d(n, first, same);
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
