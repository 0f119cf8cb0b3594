-- Webhooks (DESIGN 6 "Integrations", decision 0038): endpoints, the outbox of events and their
-- deliveries. An event is written by `webhook_enqueue` (modules/webhooks/sql/outbox.sql) in the
-- transaction of the change it describes, so it exists if and only if the change committed; the
-- same call gives each active endpoint whose scope and events match it one pending delivery,
-- which the delivery worker of any instance claims with FOR UPDATE SKIP LOCKED.

CREATE TABLE webhook_endpoints (
  id           bigserial PRIMARY KEY,
  url          text NOT NULL,
  description  text,
  events       text[] NOT NULL,
  status       text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  -- Why it is disabled: 'manual', or 'gone' (the receiver answered 410).
  disabled_reason text,
  -- whsec_ + base64 of 24 random bytes: the signing key. Shown once; never logged.
  secret       text NOT NULL,
  -- The creator's scope, fixed at creation: all (admin), a merchant or a company.
  scope        text NOT NULL CHECK (scope IN ('all', 'merchant', 'company')),
  merchant_id  bigint REFERENCES merchants (id),
  company_id   bigint REFERENCES companies (id),
  created_by   bigint REFERENCES users (id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  CHECK ((scope = 'all' AND merchant_id IS NULL AND company_id IS NULL)
      OR (scope = 'merchant' AND merchant_id IS NOT NULL AND company_id IS NULL)
      OR (scope = 'company' AND company_id IS NOT NULL AND merchant_id IS NULL))
);
CREATE INDEX webhook_endpoints_merchant ON webhook_endpoints (merchant_id) WHERE merchant_id IS NOT NULL;
CREATE INDEX webhook_endpoints_company ON webhook_endpoints (company_id) WHERE company_id IS NOT NULL;

CREATE TABLE webhook_events (
  id           bigserial PRIMARY KEY,
  -- The Standard Webhooks message id (webhook-id header, the payload's id).
  message_id   text NOT NULL UNIQUE DEFAULT ('msg_' || replace(gen_random_uuid()::text, '-', '')),
  type         text NOT NULL,
  company_id   bigint,
  merchant_id  bigint,
  data         jsonb NOT NULL,
  created_at   timestamptz NOT NULL
);
CREATE INDEX webhook_events_created ON webhook_events (created_at);

CREATE TABLE webhook_deliveries (
  id               bigserial PRIMARY KEY,
  endpoint_id      bigint NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id         bigint NOT NULL REFERENCES webhook_events (id),
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts         integer NOT NULL DEFAULT 0,
  last_status_code integer,
  -- The start of the last answer's body, or why there was none (timeout, refused address, …).
  last_response    text,
  last_attempt_at  timestamptz,
  next_attempt_at  timestamptz,
  created_at       timestamptz NOT NULL,
  UNIQUE (endpoint_id, event_id)
);
-- The worker's queue: pending deliveries by when they are due.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id DESC);

-- The functions that write the outbox (webhook_enqueue, webhook_order_data) are repeatable
-- definitions of the webhooks module, which the ledger's functions call: modules/webhooks/sql/outbox.sql.
