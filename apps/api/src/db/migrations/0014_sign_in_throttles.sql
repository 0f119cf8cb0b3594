-- Sign-in protection and request limits in the database, shared by every instance (issue 14,
-- decision 0014). The account lock-out goes (anyone could lock a known username out), and so does
-- its bookkeeping: sign-ins, failures and throttling are written to the audit log instead.
ALTER TABLE users DROP COLUMN locked_until;
DROP TABLE login_attempts;

-- The CSRF token is derived from the session token (decision 0003), so nothing of it is stored.
-- Sessions opened before carry a random token the server can no longer check: they end here
-- (everyone signs in again once) rather than meet 403 CSRF_INVALID at their next write.
DELETE FROM sessions;
ALTER TABLE sessions DROP COLUMN csrf_hash;

-- Fixed-window request counters (sign-in per address, terminal key, wrong terminal keys per
-- address): one row per key, restarted by the upsert once expires_at has passed.
CREATE TABLE rate_limits (
  key         text PRIMARY KEY CHECK (length(key) <= 200),
  hits        integer NOT NULL,
  expires_at  timestamptz NOT NULL
);
CREATE INDEX rate_limits_expires_idx ON rate_limits (expires_at);

-- Failed sign-ins per (submitted login, client address) and per client address (login ''): each
-- failure past the free ones doubles the wait before the next attempt. A row past expires_at is
-- forgotten (reads ignore it; the jobs sweep deletes it).
CREATE TABLE sign_in_throttles (
  login           text NOT NULL CHECK (length(login) <= 254),
  ip              text NOT NULL CHECK (length(ip) <= 100),
  scope           text NOT NULL CHECK (scope IN ('login_address', 'address')),
  failures        integer NOT NULL,
  last_failed_at  timestamptz NOT NULL,
  expires_at      timestamptz NOT NULL,
  PRIMARY KEY (login, ip, scope),
  CHECK ((scope = 'address') = (login = ''))
);
CREATE INDEX sign_in_throttles_expires_idx ON sign_in_throttles (expires_at);
