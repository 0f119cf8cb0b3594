-- Each company's employee version (decision 0065), kept by the triggers of
-- modules/employees/sql/employee-counts.sql beside the live count: a fresh value of the sequence
-- whenever a transaction inserts, deletes, soft-deletes or restores an employee of the company, or
-- changes a staff number, name, email or status (what a filtered list's count depends on), once
-- per transaction (`changed_in`). A count of a search or a status filter is kept under the version
-- it was counted at; a later list of the same filter at the same version reads it without counting
-- again (an order changes a balance only, so the version stays).
CREATE SEQUENCE company_employee_versions;

ALTER TABLE company_employee_counts
  ADD COLUMN version bigint NOT NULL DEFAULT nextval('company_employee_versions'),
  ADD COLUMN changed_in xid8;
