-- The back-office's money requests (issue, distribute and reward, approve, reject) carrying an
-- Idempotency-Key (decision 0068), on the terminals' mechanism: the key is claimed in the
-- transaction of the money move, a concurrent request with the same key waits on this row and
-- then reads the stored answer, and a refused request rolls its claim back. Scoped per user.
CREATE TABLE back_office_idempotency_keys (
  user_id          bigint NOT NULL REFERENCES users (id),
  idempotency_key  text NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 200),
  request_hash     text NOT NULL,
  -- null only inside the claiming transaction, before its answer is stored
  response_status  integer,
  response_body    jsonb,
  created_at       timestamptz NOT NULL,
  PRIMARY KEY (user_id, idempotency_key)
);
