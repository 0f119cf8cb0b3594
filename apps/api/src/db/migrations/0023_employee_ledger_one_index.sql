-- Issue 16, decision 0048: one employee-keyed index of the ledger instead of two. A reset writes
-- a row for each of the company's employees, and each row put an entry into both
-- token_tx_employee_idx (employee_id, seq DESC) and token_tx_employee_period_idx (employee_id,
-- period): two different leaf pages of two 11-million-entry indexes per employee, the largest
-- part of a reset's index work left after decision 0042 (decision 0029 measured each of the two
-- at 0.6-1.1 s of a 100,000-employee reset). One index on (employee_id, period, seq DESC) serves
-- both kinds of reads: an employee's month (the reports, the employee list) by its prefix, and an
-- employee's history by its first column, whose few rows (some forty a year) are sorted by seq.
CREATE INDEX token_tx_employee_period_seq_idx ON token_transactions (employee_id, period, seq DESC)
  WHERE employee_id IS NOT NULL;
DROP INDEX token_tx_employee_idx;
DROP INDEX token_tx_employee_period_idx;
