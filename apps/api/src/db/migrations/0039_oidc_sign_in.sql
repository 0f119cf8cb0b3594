-- OIDC sign-in for back-office users (DESIGN 9, issue 45 item 1, decision 0086).

-- An identity provider the Super Admin connected. The client secret is AES-256-GCM ciphertext
-- under the MFA keyring (`v1.<iv>.<tag>.<data>`, base64url), never the secret itself.
CREATE TABLE identity_providers (
  id                      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name                    text NOT NULL,
  issuer                  text NOT NULL,
  client_id               text NOT NULL,
  client_secret_encrypted text NOT NULL,
  company_id              bigint REFERENCES companies (id),
  -- The type of an account created at its first sign-in (just in time).
  default_type            text NOT NULL,
  created_at              timestamptz NOT NULL,
  updated_at              timestamptz NOT NULL
);

-- The email domains whose users sign in with a provider: a domain belongs to one provider.
CREATE TABLE identity_provider_domains (
  domain      text PRIMARY KEY,
  provider_id bigint NOT NULL REFERENCES identity_providers (id) ON DELETE CASCADE
);
CREATE INDEX identity_provider_domains_provider ON identity_provider_domains (provider_id);

-- A sign-in sent to its provider and not back yet: found by the SHA-256 of its `state`, spent once
-- (the callback deletes it), and dead after ten minutes. The browser that started it holds the
-- state in a cookie too, so a callback another browser was lured into is refused.
CREATE TABLE oidc_sign_ins (
  state_hash    text PRIMARY KEY,
  provider_id   bigint NOT NULL REFERENCES identity_providers (id) ON DELETE CASCADE,
  -- PKCE's verifier and the ID token's nonce: of no use without the code, which only the
  -- browser sees, and gone once the callback comes.
  code_verifier text NOT NULL,
  nonce         text NOT NULL,
  redirect_uri  text NOT NULL,
  -- Where the browser goes once signed in: a relative path of this site.
  return_to     text NOT NULL,
  created_at    timestamptz NOT NULL,
  expires_at    timestamptz NOT NULL
);
CREATE INDEX oidc_sign_ins_expires ON oidc_sign_ins (expires_at);

-- The account a provider's subject signed in as: found by verified email (or made just in time)
-- at its first sign-in, by subject after that.
CREATE TABLE user_identities (
  provider_id     bigint NOT NULL REFERENCES identity_providers (id) ON DELETE CASCADE,
  subject         text NOT NULL,
  user_id         bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at      timestamptz NOT NULL,
  last_sign_in_at timestamptz NOT NULL,
  PRIMARY KEY (provider_id, subject)
);
CREATE INDEX user_identities_user ON user_identities (user_id);

-- A session whose provider said (ID token `amr`) that it checked a second factor: the two-factor
-- rule of the user's role is met by it (decision 0086).
ALTER TABLE sessions ADD COLUMN second_factor_at_provider boolean NOT NULL DEFAULT false;
