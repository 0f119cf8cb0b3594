-- POST /orders with its terminal key checked in the order's own statement (decision 0043): the
-- orders module's statement, made of the terminals' key check (check_terminal_keys) and the
-- ledger's orders (place_terminal_orders). A repeatable definition (db/migrate.ts): the migrator
-- applies it whenever it changes; definitions.test.ts checks the database holds it.

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
