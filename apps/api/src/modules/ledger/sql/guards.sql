-- The ledger's guards (DESIGN 3.2, decision 0004): ledger rows can be neither updated, deleted nor
-- truncated; a wallet balance (companies.token_balance, employees.available_tokens) and an order's
-- refunded amount change only from inside the ledger's own triggers, never by a direct write. The
-- rule is the balance guards' WHEN: they fire only for a write made outside any trigger
-- (pg_trigger_depth() = 0), and their function then refuses it. The ledger's own writes call no
-- PL/pgSQL function per row (a reset moves 100,000 employees in one UPDATE; decision 0059).
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
  RAISE EXCEPTION '%.% changes only through token_transactions', TG_TABLE_NAME, TG_ARGV[0]
    USING ERRCODE = 'restrict_violation';
END $function$;

CREATE OR REPLACE TRIGGER companies_balance_guard BEFORE UPDATE ON public.companies FOR EACH ROW WHEN (((new.token_balance IS DISTINCT FROM old.token_balance) AND (pg_trigger_depth() = 0))) EXECUTE FUNCTION ledger_owned_column_guard('token_balance');
CREATE OR REPLACE TRIGGER companies_balance_insert_guard BEFORE INSERT ON public.companies FOR EACH ROW WHEN (((new.token_balance <> 0) AND (pg_trigger_depth() = 0))) EXECUTE FUNCTION ledger_owned_column_guard('token_balance');
CREATE OR REPLACE TRIGGER employees_balance_guard BEFORE UPDATE ON public.employees FOR EACH ROW WHEN (((new.available_tokens IS DISTINCT FROM old.available_tokens) AND (pg_trigger_depth() = 0))) EXECUTE FUNCTION ledger_owned_column_guard('available_tokens');
CREATE OR REPLACE TRIGGER employees_balance_insert_guard BEFORE INSERT ON public.employees FOR EACH ROW WHEN (((new.available_tokens <> 0) AND (pg_trigger_depth() = 0))) EXECUTE FUNCTION ledger_owned_column_guard('available_tokens');
CREATE OR REPLACE TRIGGER orders_refunded_guard BEFORE UPDATE ON public.orders FOR EACH ROW WHEN ((((new.refunded_amount IS DISTINCT FROM old.refunded_amount) OR (new.subtotal IS DISTINCT FROM old.subtotal) OR (new.employee_id IS DISTINCT FROM old.employee_id)) AND (pg_trigger_depth() = 0))) EXECUTE FUNCTION ledger_owned_column_guard('refunded_amount');
CREATE OR REPLACE TRIGGER orders_refunded_insert_guard BEFORE INSERT ON public.orders FOR EACH ROW WHEN (((new.refunded_amount <> 0) AND (pg_trigger_depth() = 0))) EXECUTE FUNCTION ledger_owned_column_guard('refunded_amount');

-- What the ledger's foreign keys refused besides a row naming nothing (decision 0042: the
-- references of token_transactions are checked once per statement by token_transactions_apply):
-- deleting, re-keying or truncating a company, employee, order, terminal, merchant or user that a
-- ledger row names. The application deletes none of them (employees and users are deactivated or
-- marked deleted). Each lookup below is served by one of the ledger's indexes, except a user's
-- (actor_user_id) and a terminal's (terminal_id), which no list reads: a delete scans for those.
CREATE OR REPLACE FUNCTION public.ledger_reference_guard()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  named boolean;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    IF EXISTS (SELECT 1 FROM token_transactions) THEN
      RAISE EXCEPTION '% cannot be truncated: ledger rows name its rows', TG_TABLE_NAME
        USING ERRCODE = 'foreign_key_violation';
    END IF;
    IF TG_TABLE_NAME = 'companies' AND EXISTS (SELECT 1 FROM employees) THEN
      RAISE EXCEPTION 'companies cannot be truncated: employees name its rows'
        USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.id = OLD.id THEN
    RETURN NEW;
  END IF;
  named := CASE TG_TABLE_NAME
    WHEN 'companies' THEN
      EXISTS (SELECT 1 FROM token_transactions t WHERE t.company_id = OLD.id AND t.employee_id IS NULL)
      OR EXISTS (SELECT 1 FROM token_transactions t WHERE t.company_id = OLD.id AND t.employee_id IS NOT NULL)
    WHEN 'employees' THEN EXISTS (SELECT 1 FROM token_transactions t WHERE t.employee_id = OLD.id)
    WHEN 'orders' THEN EXISTS (SELECT 1 FROM token_transactions t WHERE t.order_id = OLD.id)
    WHEN 'merchants' THEN EXISTS (SELECT 1 FROM token_transactions t WHERE t.merchant_id = OLD.id)
    WHEN 'terminals' THEN EXISTS (SELECT 1 FROM token_transactions t WHERE t.terminal_id = OLD.id)
    WHEN 'users' THEN EXISTS (SELECT 1 FROM token_transactions t WHERE t.actor_user_id = OLD.id)
  END;
  IF named THEN
    RAISE EXCEPTION '% % is named by ledger rows and cannot be %', TG_TABLE_NAME, OLD.id,
      CASE TG_OP WHEN 'DELETE' THEN 'deleted' ELSE 'given another id' END
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  -- A company's employees name it too (employees_company_exists below, decision 0057).
  IF TG_TABLE_NAME = 'companies' AND EXISTS (SELECT 1 FROM employees e WHERE e.company_id = OLD.id) THEN
    RAISE EXCEPTION 'companies % has employees and cannot be %', OLD.id,
      CASE TG_OP WHEN 'DELETE' THEN 'deleted' ELSE 'given another id' END
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END $function$;

CREATE OR REPLACE TRIGGER companies_ledger_reference_guard BEFORE DELETE OR UPDATE OF id ON public.companies FOR EACH ROW EXECUTE FUNCTION ledger_reference_guard();
CREATE OR REPLACE TRIGGER companies_ledger_truncate_guard BEFORE TRUNCATE ON public.companies FOR EACH STATEMENT EXECUTE FUNCTION ledger_reference_guard();
CREATE OR REPLACE TRIGGER employees_ledger_reference_guard BEFORE DELETE OR UPDATE OF id ON public.employees FOR EACH ROW EXECUTE FUNCTION ledger_reference_guard();
CREATE OR REPLACE TRIGGER employees_ledger_truncate_guard BEFORE TRUNCATE ON public.employees FOR EACH STATEMENT EXECUTE FUNCTION ledger_reference_guard();
CREATE OR REPLACE TRIGGER orders_ledger_reference_guard BEFORE DELETE OR UPDATE OF id ON public.orders FOR EACH ROW EXECUTE FUNCTION ledger_reference_guard();
CREATE OR REPLACE TRIGGER orders_ledger_truncate_guard BEFORE TRUNCATE ON public.orders FOR EACH STATEMENT EXECUTE FUNCTION ledger_reference_guard();
CREATE OR REPLACE TRIGGER merchants_ledger_reference_guard BEFORE DELETE OR UPDATE OF id ON public.merchants FOR EACH ROW EXECUTE FUNCTION ledger_reference_guard();
CREATE OR REPLACE TRIGGER merchants_ledger_truncate_guard BEFORE TRUNCATE ON public.merchants FOR EACH STATEMENT EXECUTE FUNCTION ledger_reference_guard();
CREATE OR REPLACE TRIGGER terminals_ledger_reference_guard BEFORE DELETE OR UPDATE OF id ON public.terminals FOR EACH ROW EXECUTE FUNCTION ledger_reference_guard();
CREATE OR REPLACE TRIGGER terminals_ledger_truncate_guard BEFORE TRUNCATE ON public.terminals FOR EACH STATEMENT EXECUTE FUNCTION ledger_reference_guard();
CREATE OR REPLACE TRIGGER users_ledger_reference_guard BEFORE DELETE OR UPDATE OF id ON public.users FOR EACH ROW EXECUTE FUNCTION ledger_reference_guard();
CREATE OR REPLACE TRIGGER users_ledger_truncate_guard BEFORE TRUNCATE ON public.users FOR EACH STATEMENT EXECUTE FUNCTION ledger_reference_guard();
