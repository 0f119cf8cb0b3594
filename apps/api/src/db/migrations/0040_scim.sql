-- SCIM 2.0 provisioning of a company's employees (DESIGN 9, issue 45 item 2, decision 0087): the
-- company's bearer tokens and the log of its last SCIM requests. (0039 is the OIDC sign-in's.)

-- A company's SCIM token: only its SHA-256 is kept (the token is shown once, at creation), with
-- its first characters to tell tokens apart. A revoked token stays, so its requests keep their
-- token, and answers 401 from then on.
CREATE TABLE scim_tokens (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id   bigint NOT NULL REFERENCES companies (id),
  description  text NOT NULL CHECK (length(description) BETWEEN 1 AND 200),
  token_hash   text NOT NULL UNIQUE,
  prefix       text NOT NULL CHECK (length(prefix) <= 20),
  created_by   bigint REFERENCES users (id),
  created_at   timestamptz NOT NULL,
  last_used_at timestamptz,
  revoked_at   timestamptz
);
CREATE INDEX scim_tokens_company_idx ON scim_tokens (company_id, id) WHERE revoked_at IS NULL;

-- The SCIM requests a company's tokens made, newest first on the Provisioning screen: method, path
-- (with its query, cut to 500 characters), status. Each insert trims the company's log to its
-- newest 50 rows.
CREATE TABLE scim_requests (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id  bigint NOT NULL REFERENCES companies (id),
  token_id    bigint REFERENCES scim_tokens (id),
  method      text NOT NULL CHECK (length(method) <= 10),
  path        text NOT NULL CHECK (length(path) <= 500),
  status      integer NOT NULL,
  occurred_at timestamptz NOT NULL
);
CREATE INDEX scim_requests_company_idx ON scim_requests (company_id, id DESC);
