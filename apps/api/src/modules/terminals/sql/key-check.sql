-- The terminal-key check (decision 0014): the terminals module's one definition of it, which the
-- key check alone (terminals.repository.ts) and the orders keyed in their own statement
-- (modules/orders/sql/keyed-orders.sql) call. A repeatable definition (db/migrate.ts): the
-- migrator applies it whenever it changes; definitions.test.ts checks the database holds it.

-- The terminal-key checks of a batch of requests in one statement (decision 0014, batched by
-- decision 0034): each request (`n`, from 1, its key's digest `hash` and its client address's
-- wrong-key counter `wrong_key`) gets the terminal behind the digest with its and its merchant's
-- status (a deleted one reads as inactive), the address's wrong keys, and the request counted
-- against the key: a key presented k times moves its counter once by k, counters are upserted in
-- key order (so two batches never deadlock), and each request sees the count up to itself. One
-- `p_at` opens or closes the windows of the whole batch. A key found is counted and passes however
-- many wrong keys its address presented (decision 0070; p_max_wrong_keys is the API's to apply to
-- unknown keys). The one definition of the check: the key
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
