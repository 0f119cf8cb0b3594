-- Four-eyes approvals (DESIGN 6, decision 0039). The policy is one row: a threshold in tokens per
-- kind, NULL meaning that rule is off (both off at first). A request at or above its threshold is
-- kept here, pending, and moves no token until another person approves it.
CREATE TABLE approval_policy (
  id                      boolean PRIMARY KEY DEFAULT true CHECK (id),
  top_up_threshold        bigint CHECK (top_up_threshold > 0),
  distribution_threshold  bigint CHECK (distribution_threshold > 0),
  updated_at              timestamptz,
  updated_by              bigint REFERENCES users (id)
);
INSERT INTO approval_policy (id) VALUES (true);

CREATE TABLE approvals (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind          text NOT NULL CHECK (kind IN ('top_up', 'distribution')),
  status        text NOT NULL DEFAULT 'pending'
                CHECK (status IN ('pending', 'approved', 'rejected', 'expired')),
  -- The company the tokens go to (top-up) or come from (distribution): scope and audit follow it.
  company_id    bigint NOT NULL REFERENCES companies (id),
  requested_by  bigint NOT NULL REFERENCES users (id),
  -- What will be applied, with the names shown to the people who decide (as when requested).
  payload       jsonb NOT NULL,
  total         bigint NOT NULL CHECK (total > 0),
  created_at    timestamptz NOT NULL,
  expires_at    timestamptz NOT NULL,
  decided_by    bigint REFERENCES users (id),
  decided_at    timestamptz,
  reason        text CHECK (length(reason) <= 500),
  CHECK ((status = 'pending') = (decided_at IS NULL))
);
-- The screen's lists (per company, by status, newest first) and the expiry sweep (pending, oldest).
CREATE INDEX approvals_company_status_idx ON approvals (company_id, status, id);
CREATE INDEX approvals_pending_expiry_idx ON approvals (expires_at) WHERE status = 'pending';
