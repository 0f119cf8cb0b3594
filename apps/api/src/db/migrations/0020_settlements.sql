-- Merchant settlement statements (DESIGN 6, decision 0040). No table: a statement is the sum of
-- the merchant's order_purchased and order_refunded rows whose occurred_at lies in a half-month,
-- which never changes once the half-month is over. This index makes each merchant's half-month
-- one range, read from the index alone (the INCLUDE columns are all the sums and the split by
-- company and order need); the merchant indexes of 0006 and 0013 are by token month and by seq.
CREATE INDEX token_tx_merchant_time_idx ON token_transactions (merchant_id, occurred_at)
  INCLUDE (event, amount, company_id, order_id) WHERE merchant_id IS NOT NULL;
