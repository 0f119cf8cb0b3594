-- Two-factor sign-in with TOTP (DESIGN 4.1, decision 0015).

-- One row per user who started enrolment; enabled_at null: pending (not yet confirmed with a code).
-- The secret is AES-256-GCM ciphertext (`v1.<iv>.<tag>.<data>`, base64url), never the base32 text.
CREATE TABLE user_totp (
  user_id          bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  secret_encrypted text NOT NULL,
  enabled_at       timestamptz,
  -- The last accepted 30-second time step: a code of that step or an earlier one is a replay.
  last_used_step   bigint,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL
);

-- Single-use recovery codes, kept as keyed hashes (HMAC-SHA-256); used_at set once used.
CREATE TABLE user_recovery_codes (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id    bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash  text NOT NULL,
  used_at    timestamptz,
  created_at timestamptz NOT NULL,
  UNIQUE (user_id, code_hash)
);

-- A sign-in whose password was right and whose second step is pending. The browser holds a random
-- token in an HttpOnly cookie; only its SHA-256 is stored. Short-lived, and void after five wrong codes.
CREATE TABLE mfa_challenges (
  id_hash     text PRIMARY KEY,
  user_id     bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- The login as submitted at the password step: its throttle counter is settled only when the
  -- second step succeeds (decision 0014).
  login       text NOT NULL,
  failures    integer NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  ip          text,
  user_agent  text
);
CREATE INDEX mfa_challenges_user_idx ON mfa_challenges (user_id);
CREATE INDEX mfa_challenges_expires_idx ON mfa_challenges (expires_at);
