-- The employees' company guards (decision 0057): what a foreign key from employees to companies
-- checked, once per statement. A repeatable definition (db/migrate.ts): the migrator applies it
-- whenever it changes; definitions.test.ts checks the database holds it. The guard against
-- deleting a company that employees name is the ledger's (modules/ledger/sql/guards.sql).

-- What employees_company_id_fkey kept (decision 0057: its per-row check was an eighth of the
-- import's insert), once per statement: the companies the new employees name exist, and are
-- locked FOR KEY SHARE until commit as the key's check locked them (a company being deleted waits,
-- then its guard above finds the employees). An employee never moves to another company.
CREATE OR REPLACE FUNCTION public.employees_company_exists()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  company_ids bigint[];
  missing bigint;
BEGIN
  SELECT array_agg(DISTINCT company_id) INTO company_ids FROM new_rows;
  IF company_ids IS NOT NULL AND cardinality(company_ids) <>
     (SELECT count(*) FROM (SELECT 1 FROM companies c WHERE c.id = ANY (company_ids) FOR KEY SHARE) k) THEN
    SELECT x INTO missing FROM unnest(company_ids) x
     WHERE NOT EXISTS (SELECT 1 FROM companies c WHERE c.id = x) ORDER BY x LIMIT 1;
    RAISE EXCEPTION 'employees name company %, which does not exist', missing
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.employees_company_fixed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION 'employee % cannot move to another company', OLD.id
    USING ERRCODE = 'restrict_violation';
END $function$;

CREATE OR REPLACE TRIGGER employees_company_exists AFTER INSERT ON public.employees REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION employees_company_exists();
CREATE OR REPLACE TRIGGER employees_company_fixed BEFORE UPDATE OF company_id ON public.employees FOR EACH ROW WHEN ((new.company_id IS DISTINCT FROM old.company_id)) EXECUTE FUNCTION employees_company_fixed();
