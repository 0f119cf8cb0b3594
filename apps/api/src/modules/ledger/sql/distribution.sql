-- A company's distribution to its employees (DESIGN 3.2: employee_issued), all or nothing, in one
-- statement (decision 0061): the company's wallet and then its employees' wallets locked in id
-- order (the ledger's one lock order, as the orders' batches take them), every rule checked, the
-- transfers written with one INSERT (two rows each, the company's debit then the employee's
-- credit, chained from the locked balances; the ledger's triggers check and apply them as any
-- other rows), the `tokens.distributed` event, and, when `p_audit` is given, the audit row of the
-- request. It used to be five statements in the API, and the company's wallet stayed locked while
-- each of them came back to the API and the next one left: under load the distribution was the
-- slowest request of the soak, and every other distribution of the company queued behind it.
--
-- Raises nothing for a refusal: `outcome` is 'distributed' or the refusal's catalogue code, and a
-- refusal writes nothing. The caller passes the items by employee id, each id once, with a
-- transfer id each (timeOrderedUuid, postings.ts). `p_audit` is null or {"ip": text|null,
-- "approval_id": number} (the approval it applies, when there is one).
--
-- This file is the current definition (issue 13: one home for the ledger). The migrator applies it
-- after the numbered migrations whenever it changes (db/migrate.ts, repeatable definitions).
-- definitions.test.ts checks that the database holds exactly what this file says.

CREATE OR REPLACE FUNCTION public.distribute_tokens(p_company_id bigint, p_employee_ids bigint[], p_amounts bigint[], p_transfer_ids uuid[], p_note text, p_actor_user_id bigint, p_at timestamp with time zone, p_audit jsonb, OUT outcome text, OUT token_balance bigint, OUT total bigint, OUT period text, OUT items jsonb)
 RETURNS record
 LANGUAGE plpgsql
AS $function$
DECLARE
  company record;
  wanted integer := coalesce(array_length(p_employee_ids, 1), 0);
  locked integer;
  refusal text;
  too_large boolean;
  sum_wanted numeric;
BEGIN
  SELECT c.id, c.code, c.status, c.token_balance, c.token_month INTO company
    FROM companies c WHERE c.id = p_company_id
     FOR NO KEY UPDATE;
  IF NOT FOUND THEN
    outcome := 'RECORD_NOT_FOUND'; RETURN;
  END IF;
  IF company.status <> 'active' THEN
    outcome := 'COMPANY_INACTIVE'; RETURN;
  END IF;

  -- The employees' wallets, locked in id order; the first employee (by id) that may not receive
  -- decides the refusal, as the checks ran one employee after another before.
  SELECT count(*),
         (array_agg(CASE WHEN l.status <> 'active' THEN 'USER_INACTIVE' ELSE 'TOKEN_MONTH_NOT_MATCH' END
                    ORDER BY l.id)
            FILTER (WHERE l.status <> 'active' OR l.token_month <> company.token_month))[1],
         bool_or(l.available_tokens::numeric + i.amount > 9007199254740991),
         sum(i.amount::numeric)
    INTO locked, refusal, too_large, sum_wanted
    FROM (SELECT e.id, e.status, e.available_tokens, e.token_month
            FROM employees e
           WHERE e.company_id = company.id AND e.id = ANY (p_employee_ids)
           ORDER BY e.id
             FOR NO KEY UPDATE) l
    JOIN unnest(p_employee_ids, p_amounts) AS i(employee_id, amount) ON i.employee_id = l.id;
  IF locked <> wanted THEN
    outcome := 'RECORD_NOT_FOUND'; RETURN;
  END IF;
  IF refusal IS NOT NULL THEN
    outcome := refusal; RETURN;
  END IF;
  IF coalesce(sum_wanted, 0) > company.token_balance THEN
    outcome := 'TOTAL_EXCEEDS_AVAILABLE'; RETURN;
  END IF;
  IF too_large THEN
    outcome := 'AMOUNT_TOO_LARGE'; RETURN;
  END IF;

  total := coalesce(sum_wanted, 0);
  token_balance := company.token_balance - total;
  period := company.token_month;

  -- What each employee received, with the balance after, before the INSERT moves the wallets.
  SELECT coalesce(jsonb_agg(jsonb_build_object('employee_id', e.id, 'amount', i.amount,
                                               'available_tokens', e.available_tokens + i.amount,
                                               'transfer_id', i.transfer_id)
                            ORDER BY i.position), '[]'::jsonb)
    INTO items
    FROM unnest(p_employee_ids, p_amounts, p_transfer_ids) WITH ORDINALITY
           AS i(employee_id, amount, transfer_id, position)
    JOIN employees e ON e.id = i.employee_id;

  -- Each transfer as the company's debit then the employee's credit, in the order given; the
  -- company's balance runs down from its locked value.
  INSERT INTO token_transactions (occurred_at, event, company_id, employee_id, direction, amount,
                                  balance_before, balance_after, period, transfer_id,
                                  actor_user_id, note)
  SELECT p_at, 'employee_issued', company.id, CASE WHEN s.side = 1 THEN NULL ELSE t.employee_id END,
         CASE WHEN s.side = 1 THEN 'sent' ELSE 'received' END, t.amount,
         CASE WHEN s.side = 1 THEN t.company_after + t.amount ELSE t.employee_before END,
         CASE WHEN s.side = 1 THEN t.company_after ELSE t.employee_before + t.amount END,
         company.token_month, t.transfer_id, p_actor_user_id, p_note
    FROM (SELECT i.employee_id, i.amount, i.transfer_id, i.position,
                 e.available_tokens AS employee_before,
                 company.token_balance
                   - sum(i.amount) OVER (ORDER BY i.position ROWS UNBOUNDED PRECEDING) AS company_after
            FROM unnest(p_employee_ids, p_amounts, p_transfer_ids) WITH ORDINALITY
                   AS i(employee_id, amount, transfer_id, position)
            JOIN employees e ON e.id = i.employee_id) t
   CROSS JOIN (VALUES (1), (2)) AS s(side)
   ORDER BY t.position, s.side;

  PERFORM webhook_enqueue('tokens.distributed', company.id, NULL,
                          jsonb_build_object('company_code', company.code, 'total', total,
                                             'employees', wanted, 'period', company.token_month,
                                             'distributed_at',
                                             to_char(p_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
                          p_at);

  IF p_audit IS NOT NULL THEN
    INSERT INTO audit_log (occurred_at, actor_user_id, action, entity_type, entity_id, before,
                           after, ip)
    VALUES (p_at, p_actor_user_id, 'distribute', 'company', company.id::text,
            jsonb_build_object('token_balance', company.token_balance),
            jsonb_build_object('token_balance', token_balance, 'total', total, 'people', wanted,
                               'note', p_note,
                               'items', (SELECT coalesce(jsonb_agg(jsonb_build_object(
                                                   'employee_id', i.employee_id, 'amount', i.amount)
                                                   ORDER BY i.position), '[]'::jsonb)
                                           FROM unnest(p_employee_ids, p_amounts) WITH ORDINALITY
                                                  AS i(employee_id, amount, position)))
              || CASE WHEN p_audit ? 'approval_id'
                      THEN jsonb_build_object('approval_id', p_audit->'approval_id')
                      ELSE '{}'::jsonb END,
            p_audit->>'ip');
  END IF;

  outcome := 'distributed';
END $function$;
