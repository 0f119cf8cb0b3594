-- The ledger's guards (DESIGN 3.2, decision 0004): ledger rows can be neither updated, deleted nor
-- truncated; a wallet balance (companies.token_balance, employees.available_tokens) and an order's
-- refunded amount change only from inside the ledger's own triggers (trigger depth 2), never by a
-- direct write.
--
-- This file is the current definition (issue 13: one home for the ledger). The migrator applies it
-- after the numbered migrations whenever it changes (db/migrate.ts, repeatable definitions); the
-- numbered migrations that first created these objects are history. definitions.test.ts checks
-- that the database holds exactly what this file says.

CREATE OR REPLACE FUNCTION public.token_transactions_immutable()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION 'token_transactions rows cannot be %d', lower(TG_OP)
    USING ERRCODE = 'restrict_violation';
END $function$;

CREATE OR REPLACE TRIGGER token_transactions_no_update BEFORE DELETE OR UPDATE ON public.token_transactions FOR EACH ROW EXECUTE FUNCTION token_transactions_immutable();
CREATE OR REPLACE TRIGGER token_transactions_no_truncate BEFORE TRUNCATE ON public.token_transactions FOR EACH STATEMENT EXECUTE FUNCTION token_transactions_immutable();

CREATE OR REPLACE FUNCTION public.ledger_owned_column_guard()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION '%.% changes only through token_transactions', TG_TABLE_NAME, TG_ARGV[0]
      USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END $function$;

CREATE OR REPLACE TRIGGER companies_balance_guard BEFORE UPDATE ON public.companies FOR EACH ROW WHEN ((new.token_balance IS DISTINCT FROM old.token_balance)) EXECUTE FUNCTION ledger_owned_column_guard('token_balance');
CREATE OR REPLACE TRIGGER companies_balance_insert_guard BEFORE INSERT ON public.companies FOR EACH ROW WHEN ((new.token_balance <> 0)) EXECUTE FUNCTION ledger_owned_column_guard('token_balance');
CREATE OR REPLACE TRIGGER employees_balance_guard BEFORE UPDATE ON public.employees FOR EACH ROW WHEN ((new.available_tokens IS DISTINCT FROM old.available_tokens)) EXECUTE FUNCTION ledger_owned_column_guard('available_tokens');
CREATE OR REPLACE TRIGGER employees_balance_insert_guard BEFORE INSERT ON public.employees FOR EACH ROW WHEN ((new.available_tokens <> 0)) EXECUTE FUNCTION ledger_owned_column_guard('available_tokens');
CREATE OR REPLACE TRIGGER orders_refunded_guard BEFORE UPDATE ON public.orders FOR EACH ROW WHEN (((new.refunded_amount IS DISTINCT FROM old.refunded_amount) OR (new.subtotal IS DISTINCT FROM old.subtotal) OR (new.employee_id IS DISTINCT FROM old.employee_id))) EXECUTE FUNCTION ledger_owned_column_guard('refunded_amount');
CREATE OR REPLACE TRIGGER orders_refunded_insert_guard BEFORE INSERT ON public.orders FOR EACH ROW WHEN ((new.refunded_amount <> 0)) EXECUTE FUNCTION ledger_owned_column_guard('refunded_amount');
