// Pay codes (DESIGN 8, decision 0078): devices registered once, codes that change every 30 s,
// each good for one order.
import crypto from 'node:crypto';
import * as OTPAuth from 'otpauth';
import {
  PAY_CODE,
  payCodeSchema,
  type PayDevice,
  type RegisterPayDeviceBody,
  type RegisteredPayDevice,
} from '@app/contract';
import { AppError } from '../../lib/app-error';
import { recordAudit, type AuditActor } from '../../lib/audit';
import type { ServiceDeps } from '../../lib/deps';
import type { TenantScope } from '../../lib/scope';
import { stateSlot } from '../../lib/app-state';
import { inTransaction } from '../../lib/transaction';
import { getEmployee } from '../employees';
import { requireMfaKeyring } from '../iam';
import {
  claimPayCodeStep,
  deletePayDevice,
  findPayDevices,
  insertPayDevice,
  lookupPayDevicePayee,
  lookupSelfEmployeeId,
  type PayDeviceRow,
} from './pay-codes.repository';

/** A pay device is audited on its employee's record (its number in the before and after). */
const ENTITY = 'employee';

function toPayDevice(row: PayDeviceRow): PayDevice {
  return {
    device_id: row.deviceNo,
    name: row.name,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** The TOTP of a device's secret (RFC 6238, SHA-1, 6 digits, 30 s), as its wallet draws it. */
export function payCodeTotp(secretBase32: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    algorithm: PAY_CODE.algorithm,
    digits: PAY_CODE.totpDigits,
    period: PAY_CODE.period,
    secret: OTPAuth.Secret.fromBase32(secretBase32),
  });
}

/** The step (30 s window number) an instant falls in. */
export const payCodeStepAt = (at: Date) => Math.floor(at.getTime() / 1000 / PAY_CODE.period);

/** The 18-digit code of a device at an instant: its number, then its TOTP. */
export function payCodeAt(deviceNo: string, secretBase32: string, at: Date): string {
  return deviceNo + payCodeTotp(secretBase32).generate({ timestamp: at.getTime() });
}

async function selfEmployee(deps: ServiceDeps, scope: TenantScope): Promise<number> {
  if (scope.kind !== 'self') throw new AppError('PERMISSION_DENIED');
  const id = await lookupSelfEmployeeId(deps.database.db, scope.companyId, scope.employeeId);
  if (id === null) throw new AppError('RECORD_NOT_FOUND');
  return id;
}

/** A random 12-digit device number, never starting with 0. */
const newDeviceNo = () => String(crypto.randomInt(100_000_000_000, 1_000_000_000_000));

/**
 * POST /me/pay-devices: the signed-in employee registers a phone; its secret is answered this once
 * and kept sealed under the MFA keyring. At most PAY_CODE.maxDevices (409 PAY_DEVICE_LIMIT).
 */
export async function registerPayDevice(
  deps: ServiceDeps,
  scope: TenantScope,
  body: RegisterPayDeviceBody,
  actor: AuditActor,
): Promise<RegisteredPayDevice> {
  const employeeId = await selfEmployee(deps, scope);
  const keyring = await requireMfaKeyring(deps);
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  const at = deps.clock.now();
  const row = await inTransaction(deps.database, async (tx) => {
    const devices = await findPayDevices(tx, employeeId, { lock: true });
    if (devices.length >= PAY_CODE.maxDevices) {
      throw new AppError('PAY_DEVICE_LIMIT', { details: { max_devices: PAY_CODE.maxDevices } });
    }
    let inserted: PayDeviceRow | null = null;
    // A random number taken already is drawn again (one in 10^11 per device).
    for (let attempt = 0; attempt < 5 && !inserted; attempt++) {
      inserted = await insertPayDevice(tx, {
        deviceNo: newDeviceNo(),
        employeeId,
        name: body.name,
        secretEncrypted: keyring.encrypt(secret),
        at,
      });
    }
    if (!inserted) throw new Error('no free pay device number after 5 draws');
    await recordAudit(tx, {
      actor,
      action: 'pay_device_register',
      entityType: ENTITY,
      entityId: employeeId,
      before: null,
      after: toPayDevice(inserted),
      at,
    });
    return inserted;
  });
  return {
    ...toPayDevice(row),
    secret,
    period: PAY_CODE.period,
    digits: PAY_CODE.totpDigits,
    algorithm: PAY_CODE.algorithm,
  };
}

/** GET /me/pay-devices. */
export async function listOwnPayDevices(
  deps: ServiceDeps,
  scope: TenantScope,
): Promise<PayDevice[]> {
  const employeeId = await selfEmployee(deps, scope);
  return (await findPayDevices(deps.database.db, employeeId)).map(toPayDevice);
}

/** GET /employees/{id}/pay-devices: in the caller's scope (another company's employee is 404). */
export async function listEmployeePayDevices(
  deps: ServiceDeps,
  scope: TenantScope,
  id: number,
): Promise<PayDevice[]> {
  await getEmployee(deps, scope, id);
  return (await findPayDevices(deps.database.db, id)).map(toPayDevice);
}

async function removeDevice(
  deps: ServiceDeps,
  employeeId: number,
  deviceNo: string,
  actor: AuditActor,
): Promise<void> {
  const at = deps.clock.now();
  await inTransaction(deps.database, async (tx) => {
    const removed = await deletePayDevice(tx, employeeId, deviceNo);
    if (!removed) throw new AppError('PAY_DEVICE_NOT_FOUND');
    await recordAudit(tx, {
      actor,
      action: 'pay_device_remove',
      entityType: ENTITY,
      entityId: employeeId,
      before: toPayDevice(removed),
      after: null,
      at,
    });
  });
}

/** DELETE /me/pay-devices/{device_id}: its codes stop at once. */
export async function removeOwnPayDevice(
  deps: ServiceDeps,
  scope: TenantScope,
  deviceNo: string,
  actor: AuditActor,
): Promise<void> {
  await removeDevice(deps, await selfEmployee(deps, scope), deviceNo, actor);
}

/** DELETE /employees/{id}/pay-devices/{device_id}: the company admin removes a lost phone. */
export async function removeEmployeePayDevice(
  deps: ServiceDeps,
  scope: TenantScope,
  id: number,
  deviceNo: string,
  actor: AuditActor,
): Promise<void> {
  await getEmployee(deps, scope, id);
  await removeDevice(deps, id, deviceNo, actor);
}

/** Who a pay code names, as a staff-number order names its payee. */
export interface PayCodePayee {
  companyCode: string;
  staffNumber: string;
}

/**
 * A code's step left for the order's own statement to spend (decision 0082): the ledger's
 * `place_terminal_orders` spends it under the payee's wallet lock, in the order's transaction,
 * or refuses the order with PAY_CODE_INVALID.
 */
export interface PayCodeStep {
  deviceId: number;
  step: number;
}

/**
 * The app's devices' opened secrets, by device number, with the payee each named when it was read:
 * a code is checked without reading the database, and spent by the order's own statement, which
 * finds a removed device gone and a payee that is no longer the device's (renumbered, say); such
 * an order is then decided again from the database as it is now (`forgetPayDevice`). Bounded: the
 * oldest entry leaves first.
 */
const OPENED_SECRETS =
  stateSlot<Map<string, { id: number; secret: string } & PayCodePayee>>('pay code secrets');
const OPENED_SECRETS_MAX = 50_000;

async function openedDevice(
  deps: ServiceDeps,
  deviceNo: string,
): Promise<({ id: number; secret: string } & PayCodePayee) | null> {
  const opened = deps.state.of(OPENED_SECRETS, () => new Map());
  const known = opened.get(deviceNo);
  if (known) return known;
  const row = await lookupPayDevicePayee(deps.database.db, deviceNo);
  if (!row) return null;
  const keyring = await requireMfaKeyring(deps);
  const device = {
    id: row.id,
    secret: keyring.decrypt(row.secretEncrypted),
    companyCode: row.companyCode,
    staffNumber: row.staffNumber,
  };
  if (opened.size >= OPENED_SECRETS_MAX) opened.delete(opened.keys().next().value!);
  opened.set(deviceNo, device);
  return device;
}

/** Forgets what this instance remembers of a code's device: the next code reads it again. */
export function forgetPayDevice(deps: ServiceDeps, code: string): void {
  deps.state.of(OPENED_SECRETS, () => new Map()).delete(code.slice(0, PAY_CODE.deviceDigits));
}

/**
 * The payee of a pay code (decision 0078), spending the code for the order of `idempotencyKey`
 * (null: a dry run, which spends nothing). The code is good within PAY_CODE.window steps of now
 * and once: a step already used, by another order or before a later code, is refused. A retry of
 * the order that spent it (same key) is let through, even once the code has expired, so that it
 * reaches its first answer. A company code or staff number sent beside the code must be the code's
 * own payee's. Reused, expired and unknown codes are one answer: 409 PAY_CODE_INVALID.
 *
 * With `inStatement` (decision 0082), a code within the window, of a device this instance has
 * opened, naming its remembered payee, is not spent here: its step is answered for the order's
 * own statement to spend (one commit for the code and its order, in the group commit). Every other
 * code is spent here, by a statement of its own, from the database as it is now.
 */
export async function redeemPayCode(
  deps: ServiceDeps,
  code: string,
  idempotencyKey: string | null,
  named: { companyCode?: string | undefined; staffNumber?: string | undefined } = {},
  { inStatement = false }: { inStatement?: boolean } = {},
): Promise<PayCodePayee & { step?: PayCodeStep }> {
  const invalid = () => new AppError('PAY_CODE_INVALID');
  const parsed = payCodeSchema.safeParse(code);
  if (!parsed.success) throw invalid();
  const deviceNo = parsed.data.slice(0, PAY_CODE.deviceDigits);
  const token = parsed.data.slice(PAY_CODE.deviceDigits);
  const device = await openedDevice(deps, deviceNo);
  if (!device) throw invalid();
  const totp = payCodeTotp(device.secret);
  const now = deps.clock.now();
  const delta = totp.validate({ token, timestamp: now.getTime(), window: PAY_CODE.window });
  const names = (p: PayCodePayee) =>
    (named.companyCode === undefined ||
      named.companyCode.toUpperCase() === p.companyCode.toUpperCase()) &&
    (named.staffNumber === undefined || named.staffNumber === p.staffNumber);

  if (delta !== null && idempotencyKey !== null && inStatement && names(device)) {
    return {
      companyCode: device.companyCode,
      staffNumber: device.staffNumber,
      step: { deviceId: device.id, step: payCodeStepAt(now) + delta },
    };
  }
  if (delta === null || idempotencyKey === null) {
    // The slow paths read the device as it is now: a dry run, or a code outside the window,
    // which is still this order's if it is the code its first try spent (a late retry).
    const row = await lookupPayDevicePayee(deps.database.db, deviceNo);
    const payee = row && { companyCode: row.companyCode, staffNumber: row.staffNumber };
    if (!row || !payee || !names(payee)) throw invalid();
    if (delta === null) {
      const retried =
        idempotencyKey !== null &&
        row.lastUsedKey === idempotencyKey &&
        totp.generate({ timestamp: row.lastUsedStep * PAY_CODE.period * 1000 }) === token;
      if (retried) return payee;
      throw invalid();
    }
    if (payCodeStepAt(now) + delta <= row.lastUsedStep) throw invalid();
    return payee;
  }
  const payee = await claimPayCodeStep(deps.database.db, {
    deviceId: device.id,
    step: payCodeStepAt(now) + delta,
    idempotencyKey,
    at: now,
    companyCode: named.companyCode,
    staffNumber: named.staffNumber,
  });
  if (!payee) throw invalid();
  return payee;
}
