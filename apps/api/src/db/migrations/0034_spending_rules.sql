-- Spending rules at the till (DESIGN 7, issue 42, decision 0077). Rules are data: a versioned,
-- effective-dated rule set per company, exceptions per employee, a holiday calendar and a category
-- on every merchant. The functions that judge an order by them are in
-- modules/spending-judge/sql/rules.sql; place_terminal_orders (ledger) calls them under the
-- wallet lock, in the order's own statement.

CREATE TABLE spending_rule_versions (
  company_id          bigint NOT NULL REFERENCES companies (id),
  effective_from      date NOT NULL,
  daily_limit         bigint CHECK (daily_limit > 0),
  order_limit         bigint CHECK (order_limit > 0),
  weekdays            smallint[] CHECK (weekdays <@ ARRAY[1,2,3,4,5,6,7]::smallint[]),
  -- [{ "from": "HH:mm", "to": "HH:mm" }], `from` inclusive, `to` exclusive; null = any time.
  hours               jsonb,
  closed_on_holidays  boolean NOT NULL DEFAULT false,
  merchant_categories text[],
  partial_payment     boolean NOT NULL DEFAULT false,
  created_at          timestamptz NOT NULL,
  created_by          bigint REFERENCES users (id),
  PRIMARY KEY (company_id, effective_from)
);

CREATE TABLE spending_exceptions (
  employee_id         bigint PRIMARY KEY REFERENCES employees (id),
  weekdays            smallint[] CHECK (weekdays <@ ARRAY[1,2,3,4,5,6,7]::smallint[]),
  closed_on_holidays  boolean,
  daily_limit         bigint CHECK (daily_limit > 0),
  until               date,
  updated_at          timestamptz NOT NULL,
  updated_by          bigint REFERENCES users (id)
);

CREATE TABLE holidays (
  day   date PRIMARY KEY,
  name  text NOT NULL CHECK (length(name) BETWEEN 1 AND 100)
);

ALTER TABLE merchants ADD COLUMN category text NOT NULL DEFAULT 'other'
  CHECK (category IN ('restaurant', 'canteen', 'cafe', 'bakery', 'grocery', 'other'));

-- Partial payment (split tender): `subtotal` stays what the wallet paid, the ledger's amount (so
-- invariant 4, the refunds' bound, settlements and reports read it unchanged); `bill_tokens` is
-- the whole bill when the wallet paid only part of it (null: it paid all).
ALTER TABLE orders ADD COLUMN bill_tokens bigint CHECK (bill_tokens > subtotal);

-- Spent today (DESIGN 7): an employee's orders of one local day, read under its wallet lock.
CREATE INDEX orders_employee_day_idx ON orders (employee_id, ordered_at);

-- Declines are kept: every order refused by a rule or by the balance.
CREATE TABLE order_declines (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  declined_at  timestamptz NOT NULL,
  company_id   bigint NOT NULL REFERENCES companies (id),
  employee_id  bigint NOT NULL REFERENCES employees (id),
  merchant_id  bigint NOT NULL REFERENCES merchants (id),
  terminal_id  bigint NOT NULL REFERENCES terminals (id),
  subtotal     bigint NOT NULL,
  code         text NOT NULL,
  details      jsonb
);
CREATE INDEX order_declines_company_idx ON order_declines (company_id, declined_at DESC, id);
CREATE INDEX order_declines_merchant_idx ON order_declines (merchant_id, declined_at DESC, id);
CREATE INDEX order_declines_employee_idx ON order_declines (employee_id, declined_at DESC, id);
CREATE INDEX order_declines_time_idx ON order_declines (declined_at DESC, id);
