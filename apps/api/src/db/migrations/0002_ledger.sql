-- The current text of the functions and triggers created here: modules/ledger/sql/{apply,guards,transfers}.sql.
-- The token ledger (DESIGN 3): companies, employees, merchants, terminals, orders, the append-only
-- token_transactions table and the monthly resets. The constraints and triggers below keep the
-- invariants of DESIGN 3.3 true even if application code is wrong:
--   * a wallet balance changes only by inserting a ledger row, and that row must chain onto it;
--   * an order's refunded amount changes only through order_refunded rows, never past its subtotal,
--     and its status is derived from the amounts;
--   * ledger rows can be neither updated nor deleted;
--   * each transfer is exactly one company debit and one employee credit of the same amount;
--   * one reset per company and period, one idempotency key per terminal.
-- Token amounts are whole numbers within 2^53 - 1, so JavaScript numbers hold them exactly.

CREATE TABLE companies (
  id                       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  code                     text NOT NULL CHECK (code ~ '^[A-Za-z0-9]{3,12}$'),
  name                     text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  status                   text NOT NULL DEFAULT 'active' CHECK (status IN ('active','inactive')),
  monthly_reset_day        integer NOT NULL CHECK (monthly_reset_day BETWEEN 1 AND 31),
  -- the monthly allocation; init_token_next_month, when set, replaces it at the next reset
  init_token               bigint NOT NULL DEFAULT 0 CHECK (init_token BETWEEN 0 AND 9007199254740991),
  init_token_next_month    bigint CHECK (init_token_next_month BETWEEN 0 AND 9007199254740991),
  -- what each active employee receives at a reset unless the employee has its own amount
  employee_monthly_tokens  bigint NOT NULL DEFAULT 0 CHECK (employee_monthly_tokens BETWEEN 0 AND 9007199254740991),
  token_balance            bigint NOT NULL DEFAULT 0 CHECK (token_balance BETWEEN 0 AND 9007199254740991),
  -- the company's token month (YYYY-MM of the reset that opened it) and when the next one opens
  token_month              text NOT NULL CHECK (token_month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
  next_reset_at            timestamptz NOT NULL,
  created_at               timestamptz NOT NULL,
  updated_at               timestamptz NOT NULL
);
CREATE UNIQUE INDEX companies_code_key ON companies (upper(code));
CREATE INDEX companies_next_reset_idx ON companies (next_reset_at);

CREATE TABLE employees (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id        bigint NOT NULL REFERENCES companies (id),
  -- the company's own staff number
  employee_id       text NOT NULL CHECK (length(employee_id) BETWEEN 2 AND 50),
  name              text,
  email             text,
  status            text NOT NULL DEFAULT 'active' CHECK (status IN ('active','inactive')),
  available_tokens  bigint NOT NULL DEFAULT 0 CHECK (available_tokens BETWEEN 0 AND 9007199254740991),
  -- the employee's own monthly amount; null means the company's employee_monthly_tokens
  monthly_tokens    bigint CHECK (monthly_tokens BETWEEN 0 AND 9007199254740991),
  token_month       text NOT NULL CHECK (token_month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
  created_at        timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL
);
CREATE UNIQUE INDEX employees_company_staff_key ON employees (company_id, employee_id);
CREATE UNIQUE INDEX employees_company_email_key ON employees (company_id, lower(email)) WHERE email IS NOT NULL;

CREATE TABLE merchants (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  code        text NOT NULL CHECK (code ~ '^[A-Za-z0-9]{3,12}$'),
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  status      text NOT NULL DEFAULT 'active' CHECK (status IN ('active','inactive')),
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL
);
CREATE UNIQUE INDEX merchants_code_key ON merchants (upper(code));

CREATE TABLE terminals (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  merchant_id     bigint NOT NULL REFERENCES merchants (id),
  code            text NOT NULL CHECK (code ~ '^[A-Za-z0-9]{3,12}$'),
  name            text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  status          text NOT NULL DEFAULT 'active' CHECK (status IN ('active','inactive')),
  -- SHA-256 (hex) of the key; the key itself is shown once and never stored
  api_key_hash    text NOT NULL,
  -- the key's first characters, so an admin can tell keys apart
  api_key_prefix  text NOT NULL,
  key_rotated_at  timestamptz NOT NULL,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL
);
CREATE UNIQUE INDEX terminals_merchant_code_key ON terminals (merchant_id, upper(code));
CREATE UNIQUE INDEX terminals_api_key_hash_key ON terminals (api_key_hash);

CREATE SEQUENCE order_no_seq;
CREATE TABLE orders (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  order_no         text NOT NULL DEFAULT ('ORD' || lpad(nextval('order_no_seq')::text, 10, '0')) UNIQUE,
  company_id       bigint NOT NULL REFERENCES companies (id),
  employee_id      bigint NOT NULL REFERENCES employees (id),
  merchant_id      bigint NOT NULL REFERENCES merchants (id),
  terminal_id      bigint NOT NULL REFERENCES terminals (id),
  order_type       text NOT NULL CHECK (length(order_type) BETWEEN 1 AND 50),
  items            jsonb NOT NULL,
  subtotal         bigint NOT NULL CHECK (subtotal BETWEEN 1 AND 9007199254740991),
  refunded_amount  bigint NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0 AND refunded_amount <= subtotal),
  -- invariant 4 by construction: refunded exactly when the refunds add up to the subtotal
  status           text NOT NULL GENERATED ALWAYS AS (
                     CASE WHEN refunded_amount = subtotal THEN 'refunded' ELSE 'ordered' END
                   ) STORED,
  ordered_at       timestamptz NOT NULL,
  last_refunded_at timestamptz
);
CREATE INDEX orders_employee_idx ON orders (employee_id, id);
CREATE INDEX orders_merchant_idx ON orders (merchant_id, ordered_at DESC, id);
CREATE INDEX orders_company_idx ON orders (company_id, ordered_at DESC, id);
-- the auto-archive job scans only what is still open
CREATE INDEX orders_open_idx ON orders (ordered_at, id) WHERE refunded_amount < subtotal;

-- Terminal requests carrying an Idempotency-Key: the first successful answer, replayed on retries.
CREATE TABLE terminal_idempotency_keys (
  terminal_id      bigint NOT NULL REFERENCES terminals (id),
  idempotency_key  text NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 200),
  request_hash     text NOT NULL,
  response_status  integer,
  response_body    jsonb,
  order_id         bigint REFERENCES orders (id),
  created_at       timestamptz NOT NULL,
  PRIMARY KEY (terminal_id, idempotency_key)
);

CREATE TABLE token_transactions (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- written from the application clock at millisecond precision, which keeps cursors exact
  occurred_at     timestamptz NOT NULL CHECK (occurred_at = date_trunc('milliseconds', occurred_at)),
  event           text NOT NULL,
  company_id      bigint NOT NULL REFERENCES companies (id),
  -- null for the company wallet
  employee_id     bigint REFERENCES employees (id),
  direction       text NOT NULL CHECK (direction IN ('received','sent')),
  amount          bigint NOT NULL CHECK (amount BETWEEN 1 AND 9007199254740991),
  balance_before  bigint NOT NULL CHECK (balance_before >= 0),
  balance_after   bigint NOT NULL CHECK (balance_after >= 0),
  period          text NOT NULL CHECK (period ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
  order_id        bigint REFERENCES orders (id),
  refund_reason   text CHECK (refund_reason IN ('cancelled','rejected','item_removed','auto_archived')),
  transfer_id     uuid,
  actor_user_id   bigint REFERENCES users (id),
  terminal_id     bigint REFERENCES terminals (id),
  merchant_id     bigint REFERENCES merchants (id),
  note            text CHECK (length(note) <= 500),
  CHECK (balance_after = balance_before + CASE direction WHEN 'received' THEN amount ELSE -amount END),
  -- which wallet and direction each event may touch (DESIGN 3.2)
  CHECK (
    CASE event
      WHEN 'company_issued'       THEN employee_id IS NULL AND direction = 'received'
      WHEN 'monthly_tokens_added' THEN employee_id IS NULL AND direction = 'received'
      WHEN 'company_expired'      THEN employee_id IS NULL AND direction = 'sent'
      WHEN 'employee_expired'     THEN employee_id IS NOT NULL AND direction = 'sent'
      WHEN 'order_purchased'      THEN employee_id IS NOT NULL AND direction = 'sent'
      WHEN 'order_refunded'       THEN employee_id IS NOT NULL AND direction = 'received'
      WHEN 'employee_issued'      THEN (employee_id IS NULL) = (direction = 'sent')
      WHEN 'monthly_tokens_reset' THEN (employee_id IS NULL) = (direction = 'sent')
      ELSE false
    END
  ),
  CHECK ((event IN ('order_purchased','order_refunded')) = (order_id IS NOT NULL)),
  CHECK ((event = 'order_refunded') = (refund_reason IS NOT NULL)),
  CHECK ((event IN ('employee_issued','monthly_tokens_reset')) = (transfer_id IS NOT NULL))
);

-- Cursor paging, newest first (occurred_at DESC, id ASC), one index per way of listing.
CREATE INDEX token_tx_time_idx ON token_transactions (occurred_at DESC, id);
CREATE INDEX token_tx_company_wallet_idx ON token_transactions (company_id, occurred_at DESC, id)
  WHERE employee_id IS NULL;
CREATE INDEX token_tx_company_employees_idx ON token_transactions (company_id, occurred_at DESC, id)
  WHERE employee_id IS NOT NULL;
CREATE INDEX token_tx_employee_idx ON token_transactions (employee_id, occurred_at DESC, id)
  WHERE employee_id IS NOT NULL;
CREATE INDEX token_tx_merchant_idx ON token_transactions (merchant_id, occurred_at DESC, id)
  WHERE merchant_id IS NOT NULL;
-- the employee's tokens of its token month (issued, consumed)
CREATE INDEX token_tx_employee_period_idx ON token_transactions (employee_id, period)
  WHERE employee_id IS NOT NULL;
CREATE INDEX token_tx_order_idx ON token_transactions (order_id) WHERE order_id IS NOT NULL;
CREATE INDEX token_tx_transfer_idx ON token_transactions (transfer_id) WHERE transfer_id IS NOT NULL;
-- one purchase per order; one allocation, one expiry per company and period; one renewal per employee and period
CREATE UNIQUE INDEX token_tx_one_purchase_key ON token_transactions (order_id)
  WHERE event = 'order_purchased';
CREATE UNIQUE INDEX token_tx_one_allocation_key ON token_transactions (company_id, period)
  WHERE event = 'monthly_tokens_added';
CREATE UNIQUE INDEX token_tx_one_company_expiry_key ON token_transactions (company_id, period)
  WHERE event = 'company_expired';
CREATE UNIQUE INDEX token_tx_one_renewal_key ON token_transactions (employee_id, period)
  WHERE event = 'monthly_tokens_reset' AND employee_id IS NOT NULL;
CREATE UNIQUE INDEX token_tx_transfer_side_key ON token_transactions (transfer_id, direction)
  WHERE transfer_id IS NOT NULL;

-- One row per company and token month opened by a reset (invariant 6).
CREATE TABLE monthly_resets (
  company_id                bigint NOT NULL REFERENCES companies (id),
  period                    text NOT NULL CHECK (period ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
  previous_period           text NOT NULL,
  scheduled_at              timestamptz NOT NULL,
  applied_at                timestamptz NOT NULL,
  expired_employee_tokens   bigint NOT NULL,
  expired_company_tokens    bigint NOT NULL,
  added_tokens              bigint NOT NULL,
  renewed_employees         integer NOT NULL,
  allocated_tokens          bigint NOT NULL,
  PRIMARY KEY (company_id, period)
);

-- Foreign keys the foundation's users table could not have before these tables existed.
ALTER TABLE users ADD CONSTRAINT users_company_fk FOREIGN KEY (company_id) REFERENCES companies (id);
ALTER TABLE users ADD CONSTRAINT users_merchant_fk FOREIGN KEY (merchant_id) REFERENCES merchants (id);

-- Ledger rows are facts: never updated, never deleted.
CREATE FUNCTION token_transactions_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'token_transactions rows cannot be %d', lower(TG_OP)
    USING ERRCODE = 'restrict_violation';
END $$;
CREATE TRIGGER token_transactions_no_update BEFORE UPDATE OR DELETE ON token_transactions
  FOR EACH ROW EXECUTE FUNCTION token_transactions_immutable();
CREATE TRIGGER token_transactions_no_truncate BEFORE TRUNCATE ON token_transactions
  FOR EACH STATEMENT EXECUTE FUNCTION token_transactions_immutable();

-- Applying a ledger row is the only way a wallet (or an order's refunded amount) changes: the row
-- must start from the wallet's current balance, which makes every wallet's rows a chain.
CREATE FUNCTION token_transactions_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta bigint := CASE NEW.direction WHEN 'received' THEN NEW.amount ELSE -NEW.amount END;
BEGIN
  IF NEW.employee_id IS NULL THEN
    UPDATE companies SET token_balance = token_balance + delta
      WHERE id = NEW.company_id AND token_balance = NEW.balance_before;
  ELSE
    UPDATE employees SET available_tokens = available_tokens + delta
      WHERE id = NEW.employee_id AND company_id = NEW.company_id
        AND available_tokens = NEW.balance_before;
  END IF;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'ledger row (%, company %, employee %) does not start from the wallet balance %',
      NEW.event, NEW.company_id, NEW.employee_id, NEW.balance_before
      USING ERRCODE = 'check_violation';
  END IF;

  IF NEW.event = 'order_purchased' THEN
    PERFORM 1 FROM orders
      WHERE id = NEW.order_id AND employee_id = NEW.employee_id AND company_id = NEW.company_id
        AND subtotal = NEW.amount AND refunded_amount = 0;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'order_purchased row does not match order %', NEW.order_id
        USING ERRCODE = 'check_violation';
    END IF;
  ELSIF NEW.event = 'order_refunded' THEN
    UPDATE orders SET refunded_amount = refunded_amount + NEW.amount, last_refunded_at = NEW.occurred_at
      WHERE id = NEW.order_id AND employee_id = NEW.employee_id AND company_id = NEW.company_id;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'order_refunded row does not match order %', NEW.order_id
        USING ERRCODE = 'check_violation';
    END IF;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER token_transactions_apply AFTER INSERT ON token_transactions
  FOR EACH ROW EXECUTE FUNCTION token_transactions_apply();

-- Balances and refunded amounts written directly (not from the trigger above) are refused.
CREATE FUNCTION ledger_owned_column_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION '%.% changes only through token_transactions', TG_TABLE_NAME, TG_ARGV[0]
      USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER companies_balance_guard BEFORE UPDATE ON companies FOR EACH ROW
  WHEN (NEW.token_balance IS DISTINCT FROM OLD.token_balance)
  EXECUTE FUNCTION ledger_owned_column_guard('token_balance');
CREATE TRIGGER companies_balance_insert_guard BEFORE INSERT ON companies FOR EACH ROW
  WHEN (NEW.token_balance <> 0) EXECUTE FUNCTION ledger_owned_column_guard('token_balance');
CREATE TRIGGER employees_balance_guard BEFORE UPDATE ON employees FOR EACH ROW
  WHEN (NEW.available_tokens IS DISTINCT FROM OLD.available_tokens)
  EXECUTE FUNCTION ledger_owned_column_guard('available_tokens');
CREATE TRIGGER employees_balance_insert_guard BEFORE INSERT ON employees FOR EACH ROW
  WHEN (NEW.available_tokens <> 0) EXECUTE FUNCTION ledger_owned_column_guard('available_tokens');
CREATE TRIGGER orders_refunded_guard BEFORE UPDATE ON orders FOR EACH ROW
  WHEN (NEW.refunded_amount IS DISTINCT FROM OLD.refunded_amount
        OR NEW.subtotal IS DISTINCT FROM OLD.subtotal
        OR NEW.employee_id IS DISTINCT FROM OLD.employee_id)
  EXECUTE FUNCTION ledger_owned_column_guard('refunded_amount');
CREATE TRIGGER orders_refunded_insert_guard BEFORE INSERT ON orders FOR EACH ROW
  WHEN (NEW.refunded_amount <> 0) EXECUTE FUNCTION ledger_owned_column_guard('refunded_amount');

-- A transfer (employee_issued, monthly_tokens_reset) is one company debit and one employee credit
-- of the same amount, in the same company and event; checked when the transaction commits.
CREATE FUNCTION token_transfers_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ok boolean;
BEGIN
  SELECT count(*) = 2
     AND count(*) FILTER (WHERE direction = 'sent' AND employee_id IS NULL) = 1
     AND count(*) FILTER (WHERE direction = 'received' AND employee_id IS NOT NULL) = 1
     AND min(amount) = max(amount)
     AND bool_and(event = NEW.event AND company_id = NEW.company_id AND period = NEW.period)
    INTO ok
    FROM token_transactions WHERE transfer_id = NEW.transfer_id;
  IF NOT ok THEN
    RAISE EXCEPTION 'transfer % is not one balanced company debit and employee credit', NEW.transfer_id
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER token_transfers_balanced AFTER INSERT ON token_transactions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.transfer_id IS NOT NULL)
  EXECUTE FUNCTION token_transfers_balanced();
