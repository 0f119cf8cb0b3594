-- Pay codes (DESIGN 8, issue 43, decision 0078). An employee's phone, registered once, draws a
-- code every 30 s: the device's number and a TOTP of its secret. Each code is good once: a device
-- remembers the last step it paid with, and the Idempotency-Key of that order, so a retry of the
-- same order is its first answer and any other use of the step or an earlier one is refused.

CREATE TABLE pay_devices (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- The device's public number: 12 digits, random, the first part of each of its codes.
  device_no         bigint NOT NULL UNIQUE CHECK (device_no BETWEEN 100000000000 AND 999999999999),
  employee_id       bigint NOT NULL REFERENCES employees (id),
  name              text NOT NULL,
  -- AES-256-GCM under the MFA keyring, like the TOTP secrets (decision 0015).
  secret_encrypted  text NOT NULL,
  last_used_step    bigint NOT NULL DEFAULT 0,
  last_used_key     text,
  last_used_at      timestamptz,
  created_at        timestamptz NOT NULL
);
CREATE INDEX pay_devices_employee_idx ON pay_devices (employee_id);

-- A company may take orders by pay code only: a staff number alone is then PAY_CODE_REQUIRED.
ALTER TABLE companies ADD COLUMN pay_code_required boolean NOT NULL DEFAULT false;
