-- The ledger's own write order (issue 13, decision 0004). Lists used to sort by occurred_at, the
-- application's clock read before the wallet lock was taken: two writers on one wallet could read
-- the clock in one order and lock it in the other, so a list read bottom-up did not chain. `seq`
-- is taken from the ledger's sequence as the row is inserted, which every writer does only while
-- it holds the row's wallet lock (ledger.repository.ts, place_terminal_order), and the ledger
-- trigger refuses any row that does not start from its wallet's balance: for every wallet, the
-- order of `seq` is the order of its chain. Lists, exports and cursors use it; occurred_at is for
-- display.
--
-- Existing rows: `id` was drawn from an identity sequence at the same moment, and the ledger
-- trigger and the invariant checker have always chained each wallet's rows in id order, so
-- seq = id puts them in chain order.
CREATE SEQUENCE token_transactions_seq AS bigint;

ALTER TABLE token_transactions DISABLE TRIGGER token_transactions_no_update;
ALTER TABLE token_transactions ADD COLUMN seq bigint;
UPDATE token_transactions SET seq = id;
ALTER TABLE token_transactions ENABLE TRIGGER token_transactions_no_update;

SELECT setval('token_transactions_seq', coalesce((SELECT max(seq) FROM token_transactions), 0) + 1, false);
ALTER TABLE token_transactions
  ALTER COLUMN seq SET DEFAULT nextval('token_transactions_seq'),
  ALTER COLUMN seq SET NOT NULL;
ALTER SEQUENCE token_transactions_seq OWNED BY token_transactions.seq;
CREATE UNIQUE INDEX token_tx_seq_key ON token_transactions (seq);

-- Cursor paging, newest first (seq DESC), one index per way of listing. token_tx_time_idx
-- (occurred_at DESC, id) stays for date filters.
DROP INDEX token_tx_company_wallet_idx;
DROP INDEX token_tx_company_employees_idx;
DROP INDEX token_tx_employee_idx;
DROP INDEX token_tx_merchant_idx;
CREATE INDEX token_tx_company_wallet_idx ON token_transactions (company_id, seq DESC)
  WHERE employee_id IS NULL;
CREATE INDEX token_tx_company_employees_idx ON token_transactions (company_id, seq DESC)
  WHERE employee_id IS NOT NULL;
CREATE INDEX token_tx_employee_idx ON token_transactions (employee_id, seq DESC)
  WHERE employee_id IS NOT NULL;
CREATE INDEX token_tx_merchant_idx ON token_transactions (merchant_id, seq DESC)
  WHERE merchant_id IS NOT NULL;
