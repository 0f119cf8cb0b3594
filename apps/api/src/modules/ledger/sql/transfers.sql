-- Each transfer (employee_issued, monthly_tokens_reset) is written whole by one statement: one
-- company debit and one employee credit of the same amount, event, company and period (0011).
--
-- This file is the current definition (issue 13: one home for the ledger). The migrator applies it
-- after the numbered migrations whenever it changes (db/migrate.ts, repeatable definitions); the
-- numbered migrations that first created these objects are history. definitions.test.ts checks
-- that the database holds exactly what this file says.

CREATE OR REPLACE FUNCTION public.token_transfers_balanced()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
END $function$;

CREATE OR REPLACE TRIGGER token_transfers_balanced AFTER INSERT ON public.token_transactions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION token_transfers_balanced();
