-- Emails are unique across the live employees of every company, not only within one (decision
-- 0059; spec: EMAIL_EXISTING_IN_OTHER_COMPANY). The services checked other companies before
-- writing, but two admins of different companies creating or importing the same address at the
-- same moment both passed that check: only employees_company_email_key (one company) was in the
-- database. The unique index closes that race and replaces employees_email_idx, the plain index of
-- the same expression that served the check.
--
-- employees_company_email_key stays, and is checked first (PostgreSQL inserts into a table's
-- indexes in the order of their OIDs, and it is the older): a duplicate within one company is named
-- EMAIL_EXISTING_IN_THIS_COMPANY, one across companies EMAIL_EXISTING_IN_OTHER_COMPANY.
DO $$
DECLARE
  shared text;
BEGIN
  SELECT lower(email) INTO shared FROM employees
   WHERE email IS NOT NULL AND deleted_at IS NULL
   GROUP BY lower(email) HAVING count(*) > 1 LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'live employees of more than one company share the email %; give each its own (or delete one) before this migration', shared
      USING ERRCODE = 'unique_violation';
  END IF;
END $$;

CREATE UNIQUE INDEX employees_email_key ON employees (lower(email))
  WHERE email IS NOT NULL AND deleted_at IS NULL;
DROP INDEX employees_email_idx;
