-- Employee deletion and CSV import (issue 4; decision 0008).

-- Employees are never hard-deleted: ledger rows and orders reference them. A deleted employee keeps
-- its row with deleted_at set, is left out of every list, and is inactive for good, so terminals
-- (USER_INACTIVE), distributions and resets treat it like any inactive employee; its remaining
-- balance expires at the next reset. The CHECK makes "deleted but active" impossible.
ALTER TABLE employees ADD COLUMN deleted_at timestamptz;
ALTER TABLE employees ADD CONSTRAINT employees_deleted_inactive
  CHECK (deleted_at IS NULL OR status = 'inactive');

-- The staff number stays reserved after deletion (terminals, transactions and exports look an
-- employee up by company and staff number, so it must keep naming one row); the email is freed.
DROP INDEX employees_company_email_key;
CREATE UNIQUE INDEX employees_company_email_key ON employees (company_id, lower(email))
  WHERE email IS NOT NULL AND deleted_at IS NULL;
-- EMAIL_EXISTING_IN_OTHER_COMPANY looks an address up across companies.
CREATE INDEX employees_email_idx ON employees (lower(email))
  WHERE email IS NOT NULL AND deleted_at IS NULL;
-- The list, its search and the import read a company's live employees.
CREATE INDEX employees_company_live_idx ON employees (company_id, id) WHERE deleted_at IS NULL;
