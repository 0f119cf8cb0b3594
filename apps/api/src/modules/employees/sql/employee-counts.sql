-- Each company's live employees in company_employee_counts (migration 0030, decision 0064): the
-- employee list's total without counting. Inserts and deletes add and take away per statement
-- (one row per company, from the statement's rows: an import of 100,000 is one update); an
-- employee deleted (deleted_at set) or restored moves the count by one, by a row trigger whose
-- WHEN keeps it off every other update (an order's balance). Employees never change company
-- (employees_company_fixed, company-guards.sql). A load that bypasses triggers (the bench's
-- generator) calls refresh_company_employee_counts() after it.
--
-- Beside the count, each company's `version` (migration 0031, decision 0065): a fresh value of the
-- sequence company_employee_versions whenever a statement inserts or deletes employees of the
-- company, an employee is deleted or restored, or a staff number, name, email or status changes
-- (the columns a search's or a status filter's count reads), once per transaction (`changed_in`:
-- an import changing 100,000 rows takes one value, not 100,000 updates of the company's row). The
-- value is taken when the row is locked, so a company's versions only grow, and a version names
-- one committed state of the company's employees: a count kept under it stays true until it moves.
CREATE OR REPLACE FUNCTION public.company_employee_counts_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO company_employee_counts AS c (company_id, live, changed_in)
  SELECT company_id, count(*) FILTER (WHERE deleted_at IS NULL), pg_current_xact_id()
    FROM new_rows GROUP BY company_id
  ON CONFLICT (company_id) DO UPDATE
    SET live = c.live + excluded.live, version = nextval('company_employee_versions'),
        changed_in = excluded.changed_in;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.company_employee_counts_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE company_employee_counts c
     SET live = c.live - gone.n, version = nextval('company_employee_versions'),
         changed_in = pg_current_xact_id()
    FROM (SELECT company_id, count(*) FILTER (WHERE deleted_at IS NULL) AS n FROM old_rows
           GROUP BY company_id) gone
   WHERE c.company_id = gone.company_id;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.company_employee_counts_live()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO company_employee_counts AS c (company_id, live, changed_in)
  VALUES (NEW.company_id, CASE WHEN NEW.deleted_at IS NULL THEN 1 ELSE 0 END, pg_current_xact_id())
  ON CONFLICT (company_id) DO UPDATE
    SET live = c.live + CASE WHEN NEW.deleted_at IS NULL THEN 1 ELSE -1 END,
        version = CASE WHEN c.changed_in IS DISTINCT FROM excluded.changed_in
                       THEN nextval('company_employee_versions') ELSE c.version END,
        changed_in = excluded.changed_in;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.company_employee_versions_bump()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE company_employee_counts
     SET version = nextval('company_employee_versions'), changed_in = pg_current_xact_id()
   WHERE company_id = NEW.company_id AND changed_in IS DISTINCT FROM pg_current_xact_id();
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.refresh_company_employee_counts()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  DELETE FROM company_employee_counts;
  INSERT INTO company_employee_counts (company_id, live)
  SELECT c.id, count(e.id)
    FROM companies c
    LEFT JOIN employees e ON e.company_id = c.id AND e.deleted_at IS NULL
   GROUP BY c.id;
END $function$;

CREATE OR REPLACE TRIGGER employees_count_insert AFTER INSERT ON public.employees REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION company_employee_counts_insert();
CREATE OR REPLACE TRIGGER employees_count_delete AFTER DELETE ON public.employees REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION company_employee_counts_delete();
CREATE OR REPLACE TRIGGER employees_count_live AFTER UPDATE OF deleted_at ON public.employees FOR EACH ROW WHEN (((old.deleted_at IS NULL) <> (new.deleted_at IS NULL))) EXECUTE FUNCTION company_employee_counts_live();
CREATE OR REPLACE TRIGGER employees_version_bump AFTER UPDATE OF employee_id, name, email, status ON public.employees FOR EACH ROW WHEN (((old.employee_id IS DISTINCT FROM new.employee_id) OR (old.name IS DISTINCT FROM new.name) OR (old.email IS DISTINCT FROM new.email) OR (old.status IS DISTINCT FROM new.status))) EXECUTE FUNCTION company_employee_versions_bump();
