-- Users, server-side sessions and sign-in attempts (foundation).

CREATE TABLE users (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  username        text NOT NULL,
  email           text,
  password_hash   text NOT NULL,
  type            text NOT NULL CHECK (type IN ('admin','super_hr','company_admin','company_employee','merchant_admin','merchant_supervisor','merchant_staff')),
  status          text NOT NULL DEFAULT 'active' CHECK (status IN ('active','inactive')),
  company_id      bigint,
  merchant_id     bigint,
  -- the company's own staff number, for users that are employees
  employee_id     text,
  locked_until    timestamptz,
  password_changed_at timestamptz NOT NULL DEFAULT now(),
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  CHECK (type NOT IN ('company_admin','company_employee') OR company_id IS NOT NULL),
  CHECK (type NOT IN ('merchant_admin','merchant_supervisor','merchant_staff') OR merchant_id IS NOT NULL)
);
CREATE UNIQUE INDEX users_username_key ON users (lower(username));
CREATE UNIQUE INDEX users_email_key ON users (lower(email)) WHERE email IS NOT NULL;
CREATE INDEX users_company_idx ON users (company_id) WHERE company_id IS NOT NULL;
CREATE INDEX users_merchant_idx ON users (merchant_id) WHERE merchant_id IS NOT NULL;

-- The cookie holds a random token; only its SHA-256 is stored, so a database leak opens no session.
CREATE TABLE sessions (
  id_hash       text PRIMARY KEY,
  user_id       bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  csrf_hash     text NOT NULL,
  created_at    timestamptz NOT NULL,
  last_seen_at  timestamptz NOT NULL,
  expires_at    timestamptz NOT NULL,
  ip            text,
  user_agent    text
);
CREATE INDEX sessions_user_idx ON sessions (user_id);
CREATE INDEX sessions_expires_idx ON sessions (expires_at);

CREATE TABLE login_attempts (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id       bigint REFERENCES users (id) ON DELETE CASCADE,
  username      text NOT NULL,
  ip            text,
  succeeded     boolean NOT NULL,
  attempted_at  timestamptz NOT NULL
);
CREATE INDEX login_attempts_user_idx ON login_attempts (user_id, attempted_at DESC);
