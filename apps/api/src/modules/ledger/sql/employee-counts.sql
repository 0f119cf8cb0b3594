-- Each company's live employees in company_employee_counts (migration 0030, decision 0064): the
-- employee list's total without counting. Inserts and deletes add and take away per statement
-- (one row per company, from the statement's rows: an import of 100,000 is one update); an
-- employee deleted (deleted_at set) or restored moves the count by one, by a row trigger whose
-- WHEN keeps it off every other update (an order's balance). Employees never change company
-- (employees_company_fixed, guards.sql). A load that bypasses triggers (the bench's generator)
-- calls refresh_company_employee_counts() after it.
CREATE OR REPLACE FUNCTION public.company_employee_counts_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO company_employee_counts AS c (company_id, live)
  SELECT company_id, count(*) FROM new_rows WHERE deleted_at IS NULL GROUP BY company_id
  ON CONFLICT (company_id) DO UPDATE SET live = c.live + excluded.live;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.company_employee_counts_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE company_employee_counts c SET live = c.live - gone.n
    FROM (SELECT company_id, count(*) AS n FROM old_rows WHERE deleted_at IS NULL
           GROUP BY company_id) gone
   WHERE c.company_id = gone.company_id;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.company_employee_counts_live()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO company_employee_counts AS c (company_id, live)
  VALUES (NEW.company_id, CASE WHEN NEW.deleted_at IS NULL THEN 1 ELSE 0 END)
  ON CONFLICT (company_id) DO UPDATE
    SET live = c.live + CASE WHEN NEW.deleted_at IS NULL THEN 1 ELSE -1 END;
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
