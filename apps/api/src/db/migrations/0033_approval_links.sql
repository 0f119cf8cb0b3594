-- Four eyes that are two people (issue 39, decision 0069). A link is one user's act on another's
-- account that would let the first sign in as the second: creating or inviting the account, setting
-- its password, removing its second factor. The decider of an approval and its requester may not be
-- linked in the last 30 days either way. Written in the transaction of the act itself.
CREATE TABLE user_links (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  actor_user_id   bigint NOT NULL REFERENCES users (id),
  target_user_id  bigint NOT NULL REFERENCES users (id),
  kind            text NOT NULL CHECK (kind IN ('created', 'invited', 'password_set', 'mfa_reset')),
  occurred_at     timestamptz NOT NULL,
  CHECK (actor_user_id <> target_user_id)
);
-- Both directions of "are these two linked since …", and "who is linked to this requester".
CREATE INDEX user_links_actor_idx ON user_links (actor_user_id, target_user_id, occurred_at);
CREATE INDEX user_links_target_idx ON user_links (target_user_id, actor_user_id, occurred_at);

-- The acts of the last 30 days before this migration, from the audit log (every one of them wrote
-- an audit row with its actor and the account as the record).
INSERT INTO user_links (actor_user_id, target_user_id, kind, occurred_at)
SELECT a.actor_user_id, u.id,
       CASE a.action WHEN 'create' THEN 'created'
                     WHEN 'invite' THEN 'invited'
                     WHEN 'resend_invitation' THEN 'invited'
                     WHEN 'mfa_reset' THEN 'mfa_reset'
                     ELSE 'password_set' END,
       a.occurred_at
  FROM audit_log a
  JOIN users u ON a.entity_id ~ '^[0-9]{1,18}$' AND u.id = a.entity_id::bigint
 WHERE a.entity_type = 'user'
   AND a.actor_user_id IS NOT NULL
   AND a.actor_user_id <> u.id
   AND a.occurred_at > now() - interval '30 days'
   AND (a.action IN ('create', 'invite', 'resend_invitation', 'mfa_reset')
        OR (a.action = 'update' AND a.after ->> 'password_changed' = 'true'));

-- What a requester applied to a company without approval in the last 24 hours (the splitting
-- rule): issuances and distributions by actor, company and time, with the amount in the index.
CREATE INDEX token_tx_actor_issued_idx
  ON token_transactions (actor_user_id, company_id, event, occurred_at) INCLUDE (amount)
  WHERE actor_user_id IS NOT NULL AND direction = 'received'
    AND event IN ('company_issued', 'employee_issued');
-- The approved requests a decider applied (their ledger rows carry the decider as actor).
CREATE INDEX approvals_decided_by_idx ON approvals (decided_by, company_id, kind, decided_at)
  WHERE status = 'approved';
