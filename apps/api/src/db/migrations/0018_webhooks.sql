-- Webhooks (DESIGN 6 "Integrations", decision 0038): endpoints, the outbox of events and their
-- deliveries. An event is written by `webhook_enqueue` in the transaction of the change it
-- describes (it exists if and only if the change committed); the same statement gives each
-- active endpoint whose scope and events match it one pending delivery, which the delivery
-- worker of any instance claims with FOR UPDATE SKIP LOCKED.

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

-- The outbox: one event, and one delivery per active endpoint whose scope and events match.
-- Called by the ledger's functions and services inside the change's own transaction.
CREATE OR REPLACE FUNCTION public.webhook_enqueue(p_type text, p_company_id bigint, p_merchant_id bigint, p_data jsonb, p_at timestamp with time zone)
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
DECLARE
  event_id bigint;
BEGIN
  INSERT INTO webhook_events (type, company_id, merchant_id, data, created_at)
  VALUES (p_type, p_company_id, p_merchant_id, p_data, p_at)
  RETURNING id INTO event_id;
  INSERT INTO webhook_deliveries (endpoint_id, event_id, next_attempt_at, created_at)
  SELECT w.id, event_id, p_at, p_at
    FROM webhook_endpoints w
   WHERE w.status = 'active'
     AND p_type = ANY (w.events)
     AND (w.scope = 'all'
          OR (w.scope = 'merchant' AND w.merchant_id = p_merchant_id)
          OR (w.scope = 'company' AND w.company_id = p_company_id));
  RETURN event_id;
END $function$;

-- An order as its events show it (DESIGN 6): never a wallet balance.
CREATE OR REPLACE FUNCTION public.webhook_order_data(p_order_id bigint)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  SELECT jsonb_build_object(
           'order_id', o.id,
           'order_no', o.order_no,
           'merchant_code', m.code,
           'terminal_code', t.code,
           'company_code', c.code,
           'employee_id', e.employee_id,
           'subtotal', o.subtotal,
           'refunded_amount', o.refunded_amount,
           'status', o.status,
           'ordered_at', to_char(o.ordered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
    FROM orders o
    JOIN companies c ON c.id = o.company_id
    JOIN employees e ON e.id = o.employee_id
    LEFT JOIN merchants m ON m.id = o.merchant_id
    LEFT JOIN terminals t ON t.id = o.terminal_id
   WHERE o.id = p_order_id
$function$;
