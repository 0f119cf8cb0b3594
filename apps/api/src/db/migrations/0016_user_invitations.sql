-- One-time set-password links (issue 19 item 5, decision 0025). The link holds a random token;
-- only its SHA-256 is stored, so a database leak opens no account. used_at is set once, by the
-- statement that accepts it, so a link works one time even when two requests race.
CREATE TABLE user_invitations (
  token_hash  text PRIMARY KEY,
  user_id     bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  invited_by  bigint REFERENCES users (id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  CHECK (expires_at > created_at)
);
CREATE INDEX user_invitations_user_idx ON user_invitations (user_id);
