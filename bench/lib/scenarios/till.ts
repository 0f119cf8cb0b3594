/**
 * Scenario 13 (issue 43 item 5): the till's orders by pay code beside the same orders by staff
 * number, in one run on one database. The payees are employees of companies with no spending
 * rules; each has pay devices (DESIGN 8): a few registered through the API by the programme's
 * employee sign-ins (`POST /me/pay-devices`, as a phone does), the rest seeded as rows of the
 * same shape (the secret sealed with the API's own keyring), since the programme's employees have
 * no sign-ins. The bench plays the phones: each order's code is the RFC 6238 TOTP of a device's
 * secret (otpauth, as the wallet draws it) for a step the server accepts (its own or the next)
 * and the device has not paid with yet, the devices taken in turn, so that no code is used twice
 * and no device pays twice in one step plus the next. The staff-number orders name the same
 * payees by company code and staff number. The variants run in ABBA order (lib/abba.ts).
 */
import crypto from 'node:crypto';
import * as OTPAuth from 'otpauth';
import { PAY_CODE } from '@app/contract';
import { mfaKeyringOfKey } from '@app/api/bench';
import { runAbba, type AbbaComparison } from '../abba';
import { countOrders, withClient } from '../database';
import { round } from '../stats';
import { Session } from '../http';
import { runLoad, type LoadResult } from '../load';
import { terminalKey, type ProgrammeInfo } from '../programme';
import { BENCH_MFA_KEY } from '../server';
import { ELIGIBLE_BALANCE, SUBTOTAL, type Payee } from './orders';

/** The name of the devices the bench seeds; the next run removes them first. */
const SEEDED_NAME = 'bench till (seeded)';
const REGISTERED_NAME = 'bench till';

export interface TillScenario {
  devices: { seeded: number; registered: number; payees: number };
  /** At each concurrency: a = staff number, b = pay code. */
  runs: AbbaComparison[];
  /** Times no device had a fresh step left for an order (each such order is sent, and refused). */
  devicesExhausted: number;
  /**
   * Pay-code orders sent (warm-up included), and how many were their device's first order. Before
   * them every device was shown to the API once by a dry run (`opened`): a device's first code on
   * an instance reads the device and opens its secret (kept for the instance's life, at most
   * 50,000 devices, decision 0082), and an instance that has run a day has seen its employees'
   * phones; the runs measure that instance, not its first hour.
   */
  payCodeOrders: { sent: number; firstUses: number };
  opened?: { devices: number; seconds: number; failed: number };
  ordersCreated: number;
  loadAverage: { before: number[]; after: number[] };
}

interface Device {
  deviceNo: string;
  totp: OTPAuth.TOTP;
  payee: Payee;
  /** The last step this device paid with (or was given to a request to pay with); 0: unused. */
  lastStep: number;
  /** Codes computed ahead, by step. */
  codes: Map<number, string>;
}

const stepNow = () => Math.floor(Date.now() / 1000 / PAY_CODE.period);
const totpOf = (secret: string) =>
  new OTPAuth.TOTP({
    algorithm: PAY_CODE.algorithm,
    digits: PAY_CODE.totpDigits,
    period: PAY_CODE.period,
    secret: OTPAuth.Secret.fromBase32(secret),
  });

/**
 * Three devices for each of `payees` that has a sign-in (the programme's `emp.<company>`, staff
 * number E000001), registered through POST /me/pay-devices after removing its earlier ones.
 */
async function registerThroughApi(
  baseUrl: string,
  info: ProgrammeInfo,
  payees: Map<string, Payee>,
): Promise<{ payee: Payee; deviceNo: string; secret: string }[]> {
  const registered: { payee: Payee; deviceNo: string; secret: string }[] = [];
  for (const company of payees.values()) {
    const username = `emp.${company.company_code.toLowerCase()}`;
    let session: Session;
    try {
      session = await Session.signIn(baseUrl, username, info.password);
    } catch {
      continue; // only the first companies have an employee sign-in
    }
    const own = await session.get<{ data: { device_id: string }[] }>('/api/v1/me/pay-devices');
    for (const device of own.data) {
      await session.send('DELETE', `/api/v1/me/pay-devices/${device.device_id}`);
    }
    for (let i = 0; i < PAY_CODE.maxDevices; i++) {
      const { data } = await session.post<{ data: { device_id: string; secret: string } }>(
        '/api/v1/me/pay-devices',
        { name: REGISTERED_NAME },
        [201],
      );
      registered.push({ payee: company, deviceNo: data.device_id, secret: data.secret });
    }
  }
  return registered;
}

export async function runTillScenario(options: {
  baseUrl: string;
  databaseUrl: string;
  info: ProgrammeInfo;
  concurrencies: number[];
  seconds: number;
  warmUpSeconds: number;
  rounds: number;
  /** Devices wanted in all (three per payee): enough that none pays twice in two steps. */
  devices: number;
  apiPid?: number;
  loadAverage: () => number[];
  log: (message: string) => void;
}): Promise<TillScenario> {
  const { info, databaseUrl, log } = options;
  const loadBefore = options.loadAverage();
  const wantedPayees = Math.ceil(options.devices / PAY_CODE.maxDevices);

  // Payees: active, able to pay, in companies with neither rules nor pay codes required, without
  // an exception; the programme's employee sign-ins among them register through the API.
  const { payees, signIns, ordersBefore } = await withClient(databaseUrl, async (c) => {
    await c.query('DELETE FROM pay_devices WHERE name = $1', [SEEDED_NAME]);
    const eligible = `e.status = 'active' AND e.deleted_at IS NULL
      AND e.available_tokens >= ${ELIGIBLE_BALANCE} AND co.status = 'active'
      AND NOT co.pay_code_required
      AND NOT EXISTS (SELECT 1 FROM spending_rule_versions v WHERE v.company_id = co.id)
      AND NOT EXISTS (SELECT 1 FROM spending_exceptions x WHERE x.employee_id = e.id)`;
    const first = await c.query<Payee>(
      `SELECT e.id, co.code AS company_code, e.employee_id FROM employees e
         JOIN companies co ON co.id = e.company_id
        WHERE ${eligible} AND e.employee_id = 'E000001'`,
    );
    const picked = await c.query<Payee>(
      `SELECT e.id, co.code AS company_code, e.employee_id FROM employees e
         JOIN companies co ON co.id = e.company_id
        WHERE ${eligible} AND e.employee_id <> 'E000001'
          AND NOT EXISTS (SELECT 1 FROM pay_devices d WHERE d.employee_id = e.id)
        ORDER BY md5(e.id::text) LIMIT ${wantedPayees}`,
    );
    return {
      payees: picked.rows,
      signIns: new Map(first.rows.map((p) => [p.id, p])),
      ordersBefore: await countOrders(c),
    };
  });
  const registered = await registerThroughApi(options.baseUrl, info, signIns);

  // The rest, seeded as POST /me/pay-devices writes them: a random 12-digit number not starting
  // with 0, the secret (20 random bytes, base32) sealed with the API's keyring.
  const keyring = await mfaKeyringOfKey(BENCH_MFA_KEY);
  const seeded: { payee: Payee; deviceNo: string; secret: string }[] = [];
  const wanted = payees.flatMap((payee) =>
    Array.from({ length: PAY_CODE.maxDevices }, () => ({
      payee,
      deviceNo: String(crypto.randomInt(100_000_000_000, 1_000_000_000_000)),
      secret: new OTPAuth.Secret({ size: 20 }).base32,
    })),
  );
  await withClient(databaseUrl, async (c) => {
    for (let i = 0; i < wanted.length; i += 5_000) {
      const chunk = wanted.slice(i, i + 5_000);
      const { rows } = await c.query<{ device_no: string }>(
        `INSERT INTO pay_devices (device_no, employee_id, name, secret_encrypted, created_at)
         SELECT d, e, $3, s, now() FROM unnest($1::bigint[], $2::bigint[], $4::text[]) AS x(d, e, s)
         ON CONFLICT (device_no) DO NOTHING RETURNING device_no`,
        [
          chunk.map((d) => d.deviceNo),
          chunk.map((d) => d.payee.id),
          SEEDED_NAME,
          chunk.map((d) => keyring.encrypt(d.secret)),
        ],
      );
      const inserted = new Set(rows.map((r) => String(r.device_no)));
      seeded.push(...chunk.filter((d) => inserted.has(d.deviceNo)));
    }
  });
  // Interleaved, so that one payee's three devices are not taken one after the other.
  const all = [...registered, ...seeded];
  const devices: Device[] = all
    .map((d, i) => ({ d, order: (i * 7919) % all.length }))
    .sort((x, y) => x.order - y.order)
    .map(({ d }) => ({
      deviceNo: d.deviceNo,
      totp: totpOf(d.secret),
      payee: d.payee,
      lastStep: 0,
      codes: new Map(),
    }));
  const payeeList = [...new Set(devices.map((d) => d.payee))];
  log(
    `  ${devices.length} pay devices (${registered.length} registered through the API) of ${payeeList.length} payees`,
  );
  if (devices.length === 0) throw new Error('No pay device for the till scenario');

  const keys = info.merchants.flatMap((m) =>
    m.terminals.map((t) => `Bearer ${terminalKey(info.seed, m.code, t.code)}`),
  );
  const run = crypto.randomBytes(4).toString('hex');
  const items = [{ name: 'Coffee', quantity: 1, unit_tokens: SUBTOTAL }];
  let sequence = 0;
  let next = 0;
  let devicesExhausted = 0;
  const payCodeOrders = { sent: 0, firstUses: 0 };

  /** The next device with a step left (its last + 1, at least now's, at most now's + 1). */
  const nextCode = (): string => {
    const now = stepNow();
    for (let tried = 0; tried < devices.length; tried++) {
      const device = devices[next]!;
      next = (next + 1) % devices.length;
      const step = Math.max(device.lastStep + 1, now);
      if (step > now + 1) continue;
      payCodeOrders.sent += 1;
      if (device.lastStep === 0) payCodeOrders.firstUses += 1;
      device.lastStep = step;
      const code =
        device.codes.get(step) ??
        device.totp.generate({ timestamp: step * PAY_CODE.period * 1000 });
      device.codes.delete(step);
      return device.deviceNo + code;
    }
    devicesExhausted += 1;
    const device = devices[next]!;
    return (
      device.deviceNo + device.totp.generate({ timestamp: (now + 1) * PAY_CODE.period * 1000 })
    );
  };
  /** Each device's codes of the steps a run may take, computed before it (the phones' work). */
  const computeAhead = () => {
    const now = stepNow();
    for (const device of devices) {
      device.codes.clear();
      for (let step = Math.max(device.lastStep + 1, now); step <= now + 2; step++) {
        device.codes.set(step, device.totp.generate({ timestamp: step * PAY_CODE.period * 1000 }));
      }
    }
  };

  const load =
    (byPayCode: boolean) =>
    (connections: number, seconds: number): Promise<LoadResult> =>
      runLoad({
        url: `${options.baseUrl}/api/v1/orders`,
        method: 'POST',
        connections,
        seconds,
        expectedStatus: 201,
        // No refusal is expected: each 409 is counted by its code (PAY_CODE_INVALID above all).
        expectedRefusals: { status: 409, codes: [] },
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => {
          sequence += 1;
          const body = byPayCode
            ? { pay_code: nextCode(), order_type: 'drink', items }
            : (() => {
                const who = payeeList[sequence % payeeList.length]!;
                return {
                  company_code: who.company_code,
                  employee_id: who.employee_id,
                  order_type: 'drink',
                  items,
                };
              })();
          return {
            ...request,
            headers: {
              ...request.headers,
              authorization: keys[sequence % keys.length]!,
              'idempotency-key': `till-${run}-${sequence}`,
            },
            body: JSON.stringify(body),
          };
        },
      });
  const byStaffNumber = load(false);
  const byPayCode = load(true);

  // Every device shown once (its code of now, by a dry run that spends nothing), in turn.
  let shown = 0;
  const openedAt = performance.now();
  const openRun = await runLoad({
    url: `${options.baseUrl}/api/v1/orders/check`,
    method: 'POST',
    connections: Math.max(...options.concurrencies),
    amount: devices.length,
    expectedStatus: 200,
    headers: { 'content-type': 'application/json' },
    setupRequest: (request) => {
      const device = devices[shown % devices.length]!;
      shown += 1;
      const code = device.deviceNo + device.totp.generate({ timestamp: Date.now() });
      return {
        ...request,
        headers: { ...request.headers, authorization: keys[shown % keys.length]! },
        body: JSON.stringify({ pay_code: code, order_type: 'drink', items }),
      };
    },
  });
  const opened = {
    devices: shown,
    seconds: round((performance.now() - openedAt) / 1000, 1),
    failed: openRun.requests - openRun.ok,
  };
  log(
    `  ${opened.devices} devices opened by a dry run each in ${opened.seconds} s (${opened.failed} failed)`,
  );

  const warmUp = Math.min(8, Math.max(...options.concurrencies));
  await byStaffNumber(warmUp, options.warmUpSeconds);
  computeAhead();
  await byPayCode(warmUp, options.warmUpSeconds);
  const runs: AbbaComparison[] = [];
  for (const connections of options.concurrencies) {
    const comparison = await runAbba({
      databaseUrl,
      ...(options.apiPid ? { apiPid: options.apiPid } : {}),
      connections,
      seconds: options.seconds,
      rounds: options.rounds,
      a: byStaffNumber,
      b: byPayCode,
      before: (variant) => {
        if (variant === 'b') computeAhead();
      },
    });
    const { a, b } = comparison;
    log(
      `  ${connections} connections: by pay code ${b.okPerSecond}/s, by staff number ${a.okPerSecond}/s; ratio ${comparison.okRatio} ` +
        `(runs ${comparison.order}: ${comparison.runs.map((r) => r.load.okPerSecond).join(' ')}); CPU ms/order API+database ` +
        `${round(b.cpuMsPerOrder.api + b.cpuMsPerOrder.database, 2)} by code, ${round(a.cpuMsPerOrder.api + a.cpuMsPerOrder.database, 2)} by number`,
    );
    runs.push(comparison);
  }
  const ordersAfter = await withClient(databaseUrl, countOrders);
  return {
    devices: { seeded: seeded.length, registered: registered.length, payees: payeeList.length },
    runs,
    devicesExhausted,
    payCodeOrders,
    opened,
    ordersCreated: ordersAfter - ordersBefore,
    loadAverage: { before: loadBefore, after: options.loadAverage() },
  };
}
