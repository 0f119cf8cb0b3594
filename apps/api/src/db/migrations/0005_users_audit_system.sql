-- User management, the audit log and the system periods (issue 4; decisions 0005 and 0006).

-- Users are never hard-deleted: ledger rows and audit rows name them (actor_user_id). A deleted
-- user keeps its row with deleted_at set, is left out of every list and of sign-in, and frees its
-- username and email for a new account (the unique indexes cover live users only).
ALTER TABLE users ADD COLUMN deleted_at timestamptz;
DROP INDEX users_username_key;
CREATE UNIQUE INDEX users_username_key ON users (lower(username)) WHERE deleted_at IS NULL;
DROP INDEX users_email_key;
CREATE UNIQUE INDEX users_email_key ON users (lower(email))
  WHERE email IS NOT NULL AND deleted_at IS NULL;
CREATE INDEX users_type_idx ON users (type, id) WHERE deleted_at IS NULL;

-- Every administrative change: who, when, from where, and the record before and after.
CREATE TABLE audit_log (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  occurred_at    timestamptz NOT NULL DEFAULT now(),
  -- null for changes the system makes by itself
  actor_user_id  bigint REFERENCES users (id),
  action         text NOT NULL CHECK (action ~ '^[a-z][a-z0-9_.]{0,63}$'),
  entity_type    text NOT NULL CHECK (entity_type ~ '^[a-z][a-z0-9_.]{0,63}$'),
  entity_id      text CHECK (length(entity_id) BETWEEN 1 AND 100),
  before         jsonb,
  after          jsonb,
  ip             text CHECK (length(ip) <= 100)
);
CREATE INDEX audit_log_time_idx ON audit_log (occurred_at DESC, id DESC);
CREATE INDEX audit_log_entity_idx ON audit_log (entity_type, entity_id, occurred_at DESC, id DESC);
CREATE INDEX audit_log_actor_idx ON audit_log (actor_user_id, occurred_at DESC, id DESC)
  WHERE actor_user_id IS NOT NULL;

-- Audit rows are facts: never updated, never deleted.
CREATE FUNCTION audit_log_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log rows cannot be %d', lower(TG_OP)
    USING ERRCODE = 'restrict_violation';
END $$;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_immutable();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_immutable();

-- The system period: the platform's reporting month (DESIGN 3.5). One row per period; the current
-- one is the only row without ends_at. Rows are added as resets pass (decision 0006).
CREATE TABLE system_periods (
  period     text PRIMARY KEY CHECK (period ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
  starts_at  timestamptz NOT NULL UNIQUE,
  ends_at    timestamptz,
  CHECK (ends_at IS NULL OR ends_at > starts_at)
);
CREATE UNIQUE INDEX system_periods_one_current_key ON system_periods ((true)) WHERE ends_at IS NULL;

-- A single row: when the current system period ends (00:00 of next_reset_date in APP_TIMEZONE),
-- and the day of the month later resets fall on (clamped to short months).
CREATE TABLE system_settings (
  id               boolean PRIMARY KEY DEFAULT true CHECK (id),
  next_reset_date  date NOT NULL,
  reset_day        integer NOT NULL CHECK (reset_day BETWEEN 1 AND 31),
  updated_at       timestamptz,
  updated_by       bigint REFERENCES users (id)
);
