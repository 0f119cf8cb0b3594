-- The webhook outbox (DESIGN 6 "Integrations", decision 0038): the ledger's functions and
-- services write an event in the transaction of the change it describes, so it exists if and
-- only if the change committed. Tables in migration 0018; the delivery worker is this module's.
-- A repeatable definition (db/migrate.ts): the migrator applies it whenever it changes.

-- The one rule for which endpoints take an event: active, the event's type among the endpoint's
-- events, and the endpoint's scope (all, its merchant's, its company's) holding it. A plain SQL
-- function of one SELECT, so PostgreSQL inlines it into the queries below (their plans stay
-- cached with the PL/pgSQL functions that run them, decision 0043).
CREATE OR REPLACE FUNCTION public.webhook_endpoints_for(p_type text, p_company_id bigint, p_merchant_id bigint)
 RETURNS SETOF bigint
 LANGUAGE sql
 STABLE
AS $function$
  SELECT w.id FROM webhook_endpoints w
   WHERE w.status = 'active'
     AND p_type = ANY (w.events)
     AND (w.scope = 'all'
          OR (w.scope = 'merchant' AND w.merchant_id = p_merchant_id)
          OR (w.scope = 'company' AND w.company_id = p_company_id))
$function$;

-- Whether any endpoint takes this event (the order and refund functions ask before they build an
-- event's data). PL/pgSQL so that its plan is kept for the session (decision 0043).
CREATE OR REPLACE FUNCTION public.webhook_wanted(p_type text, p_company_id bigint, p_merchant_id bigint)
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE
AS $function$
BEGIN
  RETURN EXISTS (SELECT 1 FROM webhook_endpoints_for(p_type, p_company_id, p_merchant_id));
END $function$;

-- The outbox: one event, and one delivery per endpoint that takes it (webhook_endpoints_for, asked
-- once).
-- Called by the ledger's functions and services inside the change's own transaction. An event no
-- endpoint takes is not written (decision 0055): nothing would ever read it (events are read only
-- through their deliveries), and writing it was a third of an order's statements. Answers the
-- event's id, or null when none was written.
CREATE OR REPLACE FUNCTION public.webhook_enqueue(p_type text, p_company_id bigint, p_merchant_id bigint, p_data jsonb, p_at timestamp with time zone)
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
DECLARE
  event_id bigint;
  endpoint_ids bigint[];
BEGIN
  SELECT array_agg(e) INTO endpoint_ids FROM webhook_endpoints_for(p_type, p_company_id, p_merchant_id) e;
  IF endpoint_ids IS NULL THEN
    RETURN NULL;
  END IF;
  INSERT INTO webhook_events (type, company_id, merchant_id, data, created_at)
  VALUES (p_type, p_company_id, p_merchant_id, p_data, p_at)
  RETURNING id INTO event_id;
  INSERT INTO webhook_deliveries (endpoint_id, event_id, next_attempt_at, created_at)
  SELECT e, event_id, p_at, p_at FROM unnest(endpoint_ids) e;
  RETURN event_id;
END $function$;

-- An order as its events show it (DESIGN 6): never a wallet balance. PL/pgSQL so that its plan
-- is kept for the session (decision 0043).
CREATE OR REPLACE FUNCTION public.webhook_order_data(p_order_id bigint)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
AS $function$
BEGIN
  RETURN (
    SELECT jsonb_build_object(
             'order_id', o.id,
             'order_no', o.order_no,
             'merchant_code', m.code,
             'terminal_code', t.code,
             'company_code', c.code,
             'employee_id', e.employee_id,
             'subtotal', o.subtotal,
             'refunded_amount', o.refunded_amount,
             'status', o.status,
             'ordered_at', to_char(o.ordered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      FROM orders o
      JOIN companies c ON c.id = o.company_id
      JOIN employees e ON e.id = o.employee_id
      LEFT JOIN merchants m ON m.id = o.merchant_id
      LEFT JOIN terminals t ON t.id = o.terminal_id
     WHERE o.id = p_order_id);
END $function$;

-- The outbox for a change of many rows (an employee import, decision 0084): one event per element
-- of the JSON array p_data, in its order, each with one delivery per endpoint that takes the type
-- (asked once), in two statements whatever the number of events. Answers how many events it wrote
-- (0 when no endpoint takes them: none is written, decision 0055).
CREATE OR REPLACE FUNCTION public.webhook_enqueue_each(p_type text, p_company_id bigint, p_merchant_id bigint, p_data jsonb, p_at timestamp with time zone)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
DECLARE
  endpoint_ids bigint[];
  written integer;
BEGIN
  IF p_data IS NULL OR jsonb_array_length(p_data) = 0 THEN
    RETURN 0;
  END IF;
  SELECT array_agg(e ORDER BY e) INTO endpoint_ids
    FROM webhook_endpoints_for(p_type, p_company_id, p_merchant_id) e;
  IF endpoint_ids IS NULL THEN
    RETURN 0;
  END IF;
  WITH events AS (
    INSERT INTO webhook_events (type, company_id, merchant_id, data, created_at)
    SELECT p_type, p_company_id, p_merchant_id, x.value, p_at
      FROM jsonb_array_elements(p_data) WITH ORDINALITY AS x(value, i)
     ORDER BY x.i
    RETURNING id)
  INSERT INTO webhook_deliveries (endpoint_id, event_id, next_attempt_at, created_at)
  SELECT w.id, events.id, p_at, p_at
    FROM events CROSS JOIN unnest(endpoint_ids) AS w(id)
   ORDER BY events.id, w.id;
  GET DIAGNOSTICS written = ROW_COUNT;
  RETURN written / cardinality(endpoint_ids);
END $function$;
