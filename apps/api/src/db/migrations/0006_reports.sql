-- Reports, dashboards and order history (issue 4; decision 0007). Indexes only: no table here.
--
-- Dashboards and summary reports count ledger rows by token month (`period`). One company's
-- month, or every company's, is one range of this index, read without visiting the table
-- (index-only: the INCLUDE columns are all the sums and the daily series need).
CREATE INDEX token_tx_period_company_idx ON token_transactions (period, company_id, event)
  INCLUDE (amount, employee_id, occurred_at);

-- A merchant's month on its dashboard (its terminals' orders and refunds).
CREATE INDEX token_tx_merchant_period_idx ON token_transactions (merchant_id, period, event)
  INCLUDE (amount, employee_id, occurred_at) WHERE merchant_id IS NOT NULL;

-- Order history, newest first (ties in order of creation). 0002 serves a company and a merchant;
-- these serve no filter and a terminal, and each of those four with a status, which the screen's
-- ordered/refunded filter adds: the page and its (capped) count then read one index range.
CREATE INDEX orders_time_idx ON orders (ordered_at DESC, id);
CREATE INDEX orders_terminal_idx ON orders (terminal_id, ordered_at DESC, id);
CREATE INDEX orders_status_time_idx ON orders (status, ordered_at DESC, id);
CREATE INDEX orders_company_status_idx ON orders (company_id, status, ordered_at DESC, id);
CREATE INDEX orders_merchant_status_idx ON orders (merchant_id, status, ordered_at DESC, id);
CREATE INDEX orders_terminal_status_idx ON orders (terminal_id, status, ordered_at DESC, id);
