// Pay devices (DESIGN 8, migration 0035): the phones an employee pays with.
import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client';

/** A pay device as the database holds it; its secret still sealed. */
export interface PayDeviceRow {
  id: number;
  deviceNo: string;
  employeeId: number;
  name: string;
  secretEncrypted: string;
  lastUsedStep: number;
  lastUsedKey: string | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}

/** Who a pay code names: the device's employee, by company code and staff number. */
export interface PayDevicePayee extends PayDeviceRow {
  companyCode: string;
  staffNumber: string;
}

type RawDevice = {
  id: unknown;
  device_no: unknown;
  employee_id: unknown;
  name: string;
  secret_encrypted: string;
  last_used_step: unknown;
  last_used_key: string | null;
  last_used_at: Date | string | null;
  created_at: Date | string;
};

const date = (v: Date | string) => (v instanceof Date ? v : new Date(v));

function deviceOf(r: RawDevice): PayDeviceRow {
  return {
    id: Number(r.id),
    deviceNo: String(r.device_no),
    employeeId: Number(r.employee_id),
    name: r.name,
    secretEncrypted: r.secret_encrypted,
    lastUsedStep: Number(r.last_used_step),
    lastUsedKey: r.last_used_key,
    lastUsedAt: r.last_used_at === null ? null : date(r.last_used_at),
    createdAt: date(r.created_at),
  };
}

/** The employee (database id) behind a `self` sign-in, or null when it is gone. */
export async function lookupSelfEmployeeId(
  executor: Executor,
  companyId: number,
  staffNumber: string,
): Promise<number | null> {
  const [row] = await queryRows<{ id: unknown }>(
    executor,
    sql`SELECT e.id FROM employees e
         WHERE e.company_id = ${companyId} AND e.employee_id = ${staffNumber}
           AND e.deleted_at IS NULL`,
  );
  return row ? Number(row.id) : null;
}

/** An employee's devices, oldest first; `lock` takes the employee's row first (at most 3). */
export async function findPayDevices(
  executor: Executor,
  employeeId: number,
  { lock = false }: { lock?: boolean } = {},
): Promise<PayDeviceRow[]> {
  if (lock) {
    await queryRows(
      executor,
      sql`SELECT 1 FROM employees WHERE id = ${employeeId} FOR NO KEY UPDATE`,
    );
  }
  const rows = await queryRows<RawDevice>(
    executor,
    sql`SELECT * FROM pay_devices WHERE employee_id = ${employeeId} ORDER BY created_at, id`,
  );
  return rows.map(deviceOf);
}

/** A new device; false when its random number is taken already (the caller draws another). */
export async function insertPayDevice(
  executor: Executor,
  values: {
    deviceNo: string;
    employeeId: number;
    name: string;
    secretEncrypted: string;
    at: Date;
  },
): Promise<PayDeviceRow | null> {
  const [row] = await queryRows<RawDevice>(
    executor,
    sql`INSERT INTO pay_devices (device_no, employee_id, name, secret_encrypted, created_at)
        VALUES (${values.deviceNo}::bigint, ${values.employeeId}, ${values.name},
                ${values.secretEncrypted}, ${values.at.toISOString()}::timestamptz)
        ON CONFLICT (device_no) DO NOTHING
        RETURNING *`,
  );
  return row ? deviceOf(row) : null;
}

/** Removes one device of an employee; false when it has no such device. */
export async function deletePayDevice(
  executor: Executor,
  employeeId: number,
  deviceNo: string,
): Promise<PayDeviceRow | null> {
  const [row] = await queryRows<RawDevice>(
    executor,
    sql`DELETE FROM pay_devices WHERE employee_id = ${employeeId} AND device_no = ${deviceNo}::bigint
        RETURNING *`,
  );
  return row ? deviceOf(row) : null;
}

/** The device of a code's first 12 digits and its employee's payee names, or null. */
export async function lookupPayDevicePayee(
  executor: Executor,
  deviceNo: string,
): Promise<PayDevicePayee | null> {
  const [row] = await queryRows<RawDevice & { company_code: string; staff_number: string }>(
    executor,
    sql`SELECT d.*, c.code AS company_code, e.employee_id AS staff_number
          FROM pay_devices d
          JOIN employees e ON e.id = d.employee_id AND e.deleted_at IS NULL
          JOIN companies c ON c.id = e.company_id
         WHERE d.device_no = ${deviceNo}::bigint`,
  );
  return row
    ? { ...deviceOf(row), companyCode: row.company_code, staffNumber: row.staff_number }
    : null;
}

/**
 * Spends a code's step for one order (decision 0078), in one statement: a later step than the
 * device's last, or the same step again for the same Idempotency-Key (a retry of that order), and
 * only if the device still exists and names the payee the order names (when it names one).
 * Answers the payee, or null when the code is refused (used already, by another order or before a
 * later code; the device removed; another payee).
 */
export async function claimPayCodeStep(
  executor: Executor,
  claim: {
    deviceId: number;
    step: number;
    idempotencyKey: string;
    at: Date;
    companyCode?: string | undefined;
    staffNumber?: string | undefined;
  },
): Promise<{ companyCode: string; staffNumber: string } | null> {
  const [row] = await queryRows<{ company_code: string; staff_number: string }>(
    executor,
    sql`UPDATE pay_devices d
           SET last_used_step = ${claim.step}, last_used_key = ${claim.idempotencyKey},
               last_used_at = ${claim.at.toISOString()}::timestamptz
          FROM employees e JOIN companies c ON c.id = e.company_id
         WHERE d.id = ${claim.deviceId} AND e.id = d.employee_id AND e.deleted_at IS NULL
           AND (d.last_used_step < ${claim.step}
                OR (d.last_used_step = ${claim.step} AND d.last_used_key = ${claim.idempotencyKey}))
           ${claim.companyCode === undefined ? sql`` : sql`AND upper(c.code) = upper(${claim.companyCode})`}
           ${claim.staffNumber === undefined ? sql`` : sql`AND e.employee_id = ${claim.staffNumber}`}
        RETURNING c.code AS company_code, e.employee_id AS staff_number`,
  );
  return row ? { companyCode: row.company_code, staffNumber: row.staff_number } : null;
}
