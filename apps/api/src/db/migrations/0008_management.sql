-- Management (issue 4, decision 0009): merchants and terminals are deleted softly, because orders
-- and ledger rows reference them. A deleted row keeps its code (codes are immutable and never
-- reused), is gone from lists and reads, and its terminals are refused at the terminal API.
ALTER TABLE merchants ADD COLUMN deleted_at timestamptz;
ALTER TABLE terminals ADD COLUMN deleted_at timestamptz;
-- A deleted record is also inactive: the terminal API refuses it even through an old code path.
ALTER TABLE merchants ADD CONSTRAINT merchants_deleted_inactive
  CHECK (deleted_at IS NULL OR status = 'inactive');
ALTER TABLE terminals ADD CONSTRAINT terminals_deleted_inactive
  CHECK (deleted_at IS NULL OR status = 'inactive');
