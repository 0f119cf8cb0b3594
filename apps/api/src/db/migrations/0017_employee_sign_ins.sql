-- Employee self-service (decision 0033): an employee's sign-in is the live company_employee user
-- with its company and staff number. The Employees list and export ask "has it one?" per row, the
-- sign-in's creation asks it under the employee's lock: this index answers both in one probe.
-- Not unique: the lock makes it one per employee through the API, and older databases may hold
-- demo or test users that share a staff number.
CREATE INDEX users_company_employee_idx ON users (company_id, employee_id)
  WHERE type = 'company_employee' AND deleted_at IS NULL;
