-- Webhooks an integrator can rely on (issue 44 item 2, decision 0084): a sequence number per
-- endpoint on every delivery, a rotated secret that keeps signing for 24 hours beside the new one,
-- test events, and the record of the settlement periods whose close has been announced.

-- The last sequence number given to one of the endpoint's deliveries (0: none yet). The delivery
-- worker numbers new deliveries 1, 2, 3, … per endpoint, without gaps, in the order it finds them
-- committed, so the delivery of a change always has a higher number than that of a change before
-- it (an order's refund after the order).
ALTER TABLE webhook_endpoints ADD COLUMN last_sequence bigint NOT NULL DEFAULT 0;
-- The secret replaced by the last rotation, and until when it still signs beside the new one.
ALTER TABLE webhook_endpoints ADD COLUMN previous_secret text;
ALTER TABLE webhook_endpoints ADD COLUMN previous_secret_expires_at timestamptz;

-- Null until the worker numbers it, which it does before the delivery's first attempt.
ALTER TABLE webhook_deliveries ADD COLUMN sequence bigint;
ALTER TABLE webhook_deliveries
  ADD CONSTRAINT webhook_deliveries_endpoint_sequence UNIQUE (endpoint_id, sequence);
-- The deliveries still to number, by endpoint, in the order they are numbered.
CREATE INDEX webhook_deliveries_unnumbered ON webhook_deliveries (endpoint_id, id)
  WHERE sequence IS NULL;

-- The deliveries there are now are numbered by their id, endpoint by endpoint.
WITH numbered AS (
  SELECT id, row_number() OVER (PARTITION BY endpoint_id ORDER BY id) AS n
    FROM webhook_deliveries)
UPDATE webhook_deliveries d SET sequence = numbered.n FROM numbered WHERE numbered.id = d.id;
UPDATE webhook_endpoints w
   SET last_sequence = coalesce((SELECT max(d.sequence) FROM webhook_deliveries d
                                  WHERE d.endpoint_id = w.id), 0);

-- An event sent by POST /webhooks/{id}/test: to that endpoint only, with example data.
ALTER TABLE webhook_events ADD COLUMN test boolean NOT NULL DEFAULT false;

-- The half-month settlement periods whose `settlement.closed` events have been written (the jobs
-- timer writes them once the period is over, in the transaction that adds the period's row, so
-- every instance may run the job and each period is announced once).
CREATE TABLE settlement_closings (
  period_start date PRIMARY KEY,
  period_end   date NOT NULL,
  closed_at    timestamptz NOT NULL
);
