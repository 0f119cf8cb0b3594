-- Issue 16, decision 0042 (after the profile of decision 0029): the monthly reset of a company of
-- 100,000 employees and the import of 100,000 employees.

-- 1. The ledger's foreign keys were six AFTER ROW triggers per ledger row (1.76 million calls in
--    one reset, a quarter of its CPU). What they refused is now refused once per statement:
--    token_transactions_apply proves that every wallet a statement moves exists (an employee's
--    within its company), that every order row matches its order, and that the terminals,
--    merchants and users the rows name exist, locking them as a foreign key's check does; and
--    ledger_reference_guard refuses deleting, re-keying or truncating any of those rows while a
--    ledger row names it (modules/ledger/sql/apply.sql, guards.sql, applied after this file).
ALTER TABLE token_transactions
  DROP CONSTRAINT token_transactions_company_id_fkey,
  DROP CONSTRAINT token_transactions_employee_id_fkey,
  DROP CONSTRAINT token_transactions_order_id_fkey,
  DROP CONSTRAINT token_transactions_actor_user_id_fkey,
  DROP CONSTRAINT token_transactions_terminal_id_fkey,
  DROP CONSTRAINT token_transactions_merchant_id_fkey;
