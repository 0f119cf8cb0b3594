-- Issue 16, decision 0048: the dashboard's chart reads the quarter-hour rollups by the instants of
-- the calendar month chosen (decision 0022, reports.repository.ts findDailyFlowsBetween), not by
-- token month, and the rollups' keys begin with the token month: one company's chart was a
-- parallel scan of every company's quarter-hours (2 million rows, 130-180 ms on the bench
-- programme against 12 ms before 0022), and the all-companies chart a scan of its whole table.
CREATE INDEX ledger_company_quarter_hour_rollup_bucket_idx
  ON ledger_company_quarter_hour_rollup (company_id, bucket);
CREATE INDEX ledger_quarter_hour_rollup_bucket_idx ON ledger_quarter_hour_rollup (bucket);
