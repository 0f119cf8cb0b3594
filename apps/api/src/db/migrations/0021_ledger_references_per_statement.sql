-- Issue 16, decision 0042 (after the profile of decision 0029): the monthly reset of a company of
-- 100,000 employees and the import of 100,000 employees.

-- 1. The ledger's foreign keys were six AFTER ROW triggers per ledger row (1.76 million calls in
--    one reset, a quarter of its CPU). What they refused is now refused once per statement:
--    token_transactions_apply proves that every wallet a statement moves exists (an employee's
--    within its company), that every order row matches its order, and that the terminals,
--    merchants and users the rows name exist, locking them as a foreign key's check does; and
--    ledger_reference_guard refuses deleting, re-keying or truncating any of those rows while a
--    ledger row names it (modules/ledger/sql/apply.sql, guards.sql, applied after this file; the
--    employees' company guards are modules/employees/sql/company-guards.sql).
ALTER TABLE token_transactions
  DROP CONSTRAINT token_transactions_company_id_fkey,
  DROP CONSTRAINT token_transactions_employee_id_fkey,
  DROP CONSTRAINT token_transactions_order_id_fkey,
  DROP CONSTRAINT token_transactions_actor_user_id_fkey,
  DROP CONSTRAINT token_transactions_terminal_id_fkey,
  DROP CONSTRAINT token_transactions_merchant_id_fkey;

-- 2. Fewer index entries per reset row.
--    token_tx_one_renewal_key (employee_id, period) of the renewals was one more entry per
--    employee in an index keyed by employee, so one more leaf page per employee written by a
--    reset. What it kept — one renewal per employee and token month — token_transactions_apply
--    now keeps in the UPDATE that moves the employee anyway: a renewal must take its employee
--    into a later month than the one it is in, one renewal per employee per statement (and the
--    renewal sets the employee's month, so a second one into the same month is refused).
DROP INDEX token_tx_one_renewal_key;
--    token_tx_time_idx (date filters) was (occurred_at DESC, id): the newest rows sort first, so
--    each new row was inserted at the left end, a full descent and a half-and-half page split at
--    a time. Ascending, they are appended at the right end, which the B-tree caches and splits
--    90/10; a range of dates reads the same, in either direction (no query orders by
--    occurred_at DESC, id ASC: lists and cursors use seq, migration 0013).
DROP INDEX token_tx_time_idx;
CREATE INDEX token_tx_time_idx ON token_transactions (occurred_at, id);
