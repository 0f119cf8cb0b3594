-- Spending rules at the till (DESIGN 7, issue 42, decision 0077): the judgement of one order by a
-- company's rule set in force, its employee's exception, the holiday calendar and the merchant's
-- category. The ledger's place_terminal_orders calls spending_judge for every order of a company
-- with a version in force, under the wallet lock, in the order's own statement; the preview
-- replays the last 30 days through the same function. A repeatable definition (db/migrate.ts):
-- the migrator applies it whenever it changes; definitions.test.ts checks the database holds it.

-- The next local time at which an order is allowed, as the API's ISO string (UTC), after p_local:
-- the first allowed day (weekday, not a closed holiday) from p_local's day on, at its first window
-- that starts after p_local (any time on a later day with no windows). Null when none within 60 days.
CREATE OR REPLACE FUNCTION public.spending_next_allowed(p_weekdays smallint[], p_hours jsonb, p_closed boolean, p_local timestamp without time zone, p_tz text)
 RETURNS text
 LANGUAGE plpgsql
 STABLE
AS $function$
DECLARE
  d integer;
  a_day date;
  start timestamp;
BEGIN
  FOR d IN 0..60 LOOP
    a_day := p_local::date + d;
    CONTINUE WHEN p_weekdays IS NOT NULL
              AND NOT (extract(isodow FROM a_day)::smallint = ANY (p_weekdays));
    CONTINUE WHEN p_closed AND EXISTS (SELECT 1 FROM holidays h WHERE h.day = a_day);
    IF p_hours IS NULL THEN
      CONTINUE WHEN d = 0;
      start := a_day::timestamp;
    ELSE
      SELECT min(a_day + (w ->> 'from')::time) INTO start
        FROM jsonb_array_elements(p_hours) AS w
       WHERE a_day + (w ->> 'from')::time > p_local;
      CONTINUE WHEN start IS NULL;
    END IF;
    RETURN to_char((start AT TIME ZONE p_tz) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
  END LOOP;
  RETURN NULL;
END $function$;

-- One order judged by the rules (the exception already merged in by the caller): its refusal code
-- and details, or a null code and what the day's limit leaves (`remaining`, null = no daily limit).
-- The daily limit itself is decided by the caller, which knows the balance and whether the order
-- may be paid in part. The order of the checks is the answer's: merchant, day, hours, order limit.
-- A SQL function of expressions (decision 0080), so that the order's statement inlines it into its
-- own query, one judgement per order without a call; the time windows are one JSON path test of
-- the local time as 'HH:MM:SS' against each window's 'HH:mm' bounds (same-length digits: the
-- strings order as the times do), and the next allowed time is only worked out for a refusal.
CREATE OR REPLACE FUNCTION public.spending_judge(p_weekdays smallint[], p_hours jsonb, p_closed boolean, p_categories text[], p_order_limit bigint, p_daily_limit bigint, p_local timestamp without time zone, p_holiday boolean, p_category text, p_subtotal bigint, p_spent bigint, p_tz text)
 RETURNS TABLE(code text, details jsonb, remaining bigint)
 LANGUAGE sql
 STABLE
AS $function$
  SELECT j.code,
         CASE j.code
           WHEN 'MERCHANT_NOT_ALLOWED' THEN jsonb_build_object('category', p_category)
           WHEN 'NOT_ALLOWED_TODAY' THEN jsonb_build_object(
             'reason', j.reason,
             'next_allowed_at', spending_next_allowed(p_weekdays, p_hours, p_closed, p_local, p_tz))
           WHEN 'OUTSIDE_ALLOWED_HOURS' THEN jsonb_build_object(
             'next_allowed_at', spending_next_allowed(p_weekdays, p_hours, p_closed, p_local, p_tz))
           WHEN 'ORDER_LIMIT_EXCEEDED' THEN jsonb_build_object('order_limit', p_order_limit)
         END,
         CASE WHEN p_daily_limit IS NOT NULL THEN greatest(p_daily_limit - coalesce(p_spent, 0), 0) END
    FROM (SELECT CASE
                   WHEN p_categories IS NOT NULL AND NOT (p_category = ANY (p_categories))
                     THEN 'MERCHANT_NOT_ALLOWED'
                   WHEN p_weekdays IS NOT NULL
                        AND NOT (extract(isodow FROM p_local)::smallint = ANY (p_weekdays))
                     THEN 'NOT_ALLOWED_TODAY'
                   WHEN p_closed AND p_holiday THEN 'NOT_ALLOWED_TODAY'
                   WHEN p_hours IS NOT NULL AND NOT jsonb_path_exists(
                          p_hours, '$[*] ? (@."from" <= $t && @."to" > $t)',
                          jsonb_build_object('t', to_char(p_local, 'HH24:MI:SS')))
                     THEN 'OUTSIDE_ALLOWED_HOURS'
                   WHEN p_order_limit IS NOT NULL AND p_subtotal > p_order_limit
                     THEN 'ORDER_LIMIT_EXCEEDED'
                 END AS code,
                 CASE
                   WHEN p_weekdays IS NOT NULL
                        AND NOT (extract(isodow FROM p_local)::smallint = ANY (p_weekdays))
                     THEN 'weekday'
                   ELSE 'holiday'
                 END AS reason) j
$function$;

-- Spent on one local day (DESIGN 7): the employee's purchases of that day less the refunds of that
-- day's own orders (what each order paid less what was refunded of it, whenever), as
-- spending_quarter_hours keeps them (migration 0036, decision 0080): the day's quarter-hours, a
-- few rows. A SQL function, so that the order's statement inlines it into its own query; a null
-- employee reads nothing (0), which is how that query skips it when no daily limit is in force.
CREATE OR REPLACE FUNCTION public.spending_spent_during(p_employee_id bigint, p_day date, p_tz text)
 RETURNS TABLE(spent bigint)
 LANGUAGE sql
 STABLE
AS $function$
  SELECT coalesce(sum(s.spent), 0)::bigint
    FROM spending_quarter_hours s
   WHERE s.employee_id = p_employee_id
     AND s.bucket >= (p_day::timestamp AT TIME ZONE p_tz)
     AND s.bucket < ((p_day + 1)::timestamp AT TIME ZONE p_tz)
$function$;

-- The rules in force for an employee on its local day: the company's latest version on or before
-- the day, with the employee's exception (while it lasts) merged over it. No row: no version.
CREATE OR REPLACE FUNCTION public.spending_rules_for(p_employee_id bigint, p_day date, OUT weekdays smallint[], OUT hours jsonb, OUT closed_on_holidays boolean, OUT merchant_categories text[], OUT order_limit bigint, OUT daily_limit bigint, OUT partial_payment boolean)
 RETURNS SETOF record
 LANGUAGE sql
 STABLE
AS $function$
  SELECT CASE WHEN x.employee_id IS NOT NULL AND x.weekdays IS NOT NULL THEN x.weekdays ELSE v.weekdays END,
         v.hours,
         CASE WHEN x.employee_id IS NOT NULL AND x.closed_on_holidays IS NOT NULL
              THEN x.closed_on_holidays ELSE v.closed_on_holidays END,
         v.merchant_categories, v.order_limit,
         CASE WHEN x.employee_id IS NOT NULL AND x.daily_limit IS NOT NULL THEN x.daily_limit ELSE v.daily_limit END,
         v.partial_payment
    FROM employees e
    JOIN LATERAL (SELECT * FROM spending_rule_versions r
                   WHERE r.company_id = e.company_id AND r.effective_from <= p_day
                   ORDER BY r.effective_from DESC LIMIT 1) v ON true
    LEFT JOIN spending_exceptions x
      ON x.employee_id = e.id AND (x.until IS NULL OR p_day <= x.until)
   WHERE e.id = p_employee_id
$function$;

-- What the employee may still spend on its local day at p_at (the wallet's "You can still spend
-- 13 today"): null when no daily limit is in force.
CREATE OR REPLACE FUNCTION public.spending_remaining_today(p_employee_id bigint, p_tz text, p_at timestamp with time zone)
 RETURNS bigint
 LANGUAGE sql
 STABLE
AS $function$
  SELECT greatest(r.daily_limit - d.spent, 0)::bigint
    FROM spending_rules_for(p_employee_id, (p_at AT TIME ZONE p_tz)::date) r
   CROSS JOIN LATERAL spending_spent_during(p_employee_id, (p_at AT TIME ZONE p_tz)::date, p_tz) d
   WHERE r.daily_limit IS NOT NULL
$function$;

-- Preview (DESIGN 7): the company's orders placed in [p_from, p_to) replayed against a candidate
-- rule set (p_rules, the API's rules object), each judged by spending_judge as the till would
-- have: the employees' exceptions of today, the holidays, the merchants' categories, and each
-- day's spending counting only the orders the candidate would have accepted (what each paid, less
-- its refunds). Orders are replayed whole: a candidate's partial payment is not assumed. Writes
-- nothing.
CREATE OR REPLACE FUNCTION public.spending_preview(p_company_id bigint, p_rules jsonb, p_tz text, p_from timestamp with time zone, p_to timestamp with time zone)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
AS $function$
DECLARE
  o record;
  j record;
  cand_weekdays smallint[] := CASE WHEN jsonb_typeof(p_rules -> 'weekdays') = 'array'
    THEN ARRAY(SELECT jsonb_array_elements_text(p_rules -> 'weekdays')::smallint) END;
  cand_hours jsonb := CASE WHEN jsonb_typeof(p_rules -> 'hours') = 'array' THEN p_rules -> 'hours' END;
  cand_closed boolean := coalesce((p_rules ->> 'closed_on_holidays')::boolean, false);
  cand_categories text[] := CASE WHEN jsonb_typeof(p_rules -> 'merchant_categories') = 'array'
    THEN ARRAY(SELECT jsonb_array_elements_text(p_rules -> 'merchant_categories')) END;
  cand_order_limit bigint := (p_rules ->> 'order_limit')::bigint;
  cand_daily_limit bigint := (p_rules ->> 'daily_limit')::bigint;
  cur_employee bigint;
  cur_day date;
  spent bigint := 0;
  code text;
  total integer := 0;
  declined jsonb := '{}'::jsonb;
  affected bigint[] := '{}';
  examples jsonb := '[]'::jsonb;
BEGIN
  FOR o IN
    SELECT ord.id, ord.employee_id, ord.subtotal, ord.refunded_amount, ord.ordered_at,
           (ord.ordered_at AT TIME ZONE p_tz) AS local_at, m.category,
           x.employee_id IS NOT NULL AND (x.until IS NULL OR (ord.ordered_at AT TIME ZONE p_tz)::date <= x.until) AS has_exception,
           x.weekdays AS x_weekdays, x.closed_on_holidays AS x_closed, x.daily_limit AS x_daily,
           EXISTS (SELECT 1 FROM holidays h WHERE h.day = (ord.ordered_at AT TIME ZONE p_tz)::date) AS holiday
      FROM orders ord
      JOIN merchants m ON m.id = ord.merchant_id
      LEFT JOIN spending_exceptions x ON x.employee_id = ord.employee_id
     WHERE ord.company_id = p_company_id AND ord.ordered_at >= p_from AND ord.ordered_at < p_to
     ORDER BY ord.employee_id, ord.ordered_at, ord.id
  LOOP
    total := total + 1;
    IF cur_employee IS DISTINCT FROM o.employee_id OR cur_day IS DISTINCT FROM o.local_at::date THEN
      cur_employee := o.employee_id;
      cur_day := o.local_at::date;
      spent := 0;
    END IF;
    SELECT * INTO j FROM spending_judge(
      CASE WHEN o.has_exception AND o.x_weekdays IS NOT NULL THEN o.x_weekdays ELSE cand_weekdays END,
      cand_hours,
      CASE WHEN o.has_exception AND o.x_closed IS NOT NULL THEN o.x_closed ELSE cand_closed END,
      cand_categories, cand_order_limit,
      CASE WHEN o.has_exception AND o.x_daily IS NOT NULL THEN o.x_daily ELSE cand_daily_limit END,
      o.local_at, o.holiday, o.category, o.subtotal, spent, p_tz);
    code := j.code;
    IF code IS NULL AND j.remaining IS NOT NULL AND j.remaining < o.subtotal THEN
      code := 'DAILY_LIMIT_EXCEEDED';
    END IF;
    IF code IS NULL THEN
      spent := spent + o.subtotal - o.refunded_amount;
    ELSE
      declined := jsonb_set(declined, ARRAY[code], jsonb_build_object(
        'orders', coalesce((declined -> code ->> 'orders')::integer, 0) + 1,
        'tokens', coalesce((declined -> code ->> 'tokens')::bigint, 0) + o.subtotal));
      IF NOT (o.employee_id = ANY (affected)) THEN
        affected := affected || o.employee_id;
      END IF;
      IF jsonb_array_length(examples) < 10 THEN
        examples := examples || jsonb_build_object(
          'order_id', o.id,
          'ordered_at', to_char(o.ordered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'employee_id', o.employee_id, 'subtotal', o.subtotal, 'code', code);
      END IF;
    END IF;
  END LOOP;
  RETURN jsonb_build_object('orders', total, 'declined', declined,
                            'employees_affected', cardinality(affected), 'examples', examples);
END $function$;
