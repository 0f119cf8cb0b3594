// Pay codes (DESIGN 8, issue 43, decision 0078): a phone registered once draws a code every 30 s;
// each code pays one order; reused, expired and unknown codes get one answer.
import crypto from 'node:crypto';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { createTestApp, type TestApp } from '../../../test/app';
import { createUser, requestsAs, signIn } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import { newCompany, newEmployee, newTerminal, type TestTerminal } from '../../../test/ledger';
import { distributeToEmployees } from '../tokens';
import { payCodeAt, payCodeStepAt } from './pay-codes.service';

describe('the pay code itself (RFC 6238)', () => {
  it('is the device number and the RFC 6238 SHA-1 test vectors’ last six digits', () => {
    // RFC 6238 appendix B: secret "12345678901234567890", SHA-1, 30 s steps (8-digit codes there).
    const secret = OTPAuth.Secret.fromUTF8('12345678901234567890').base32;
    const vectors: [string, string][] = [
      ['1970-01-01T00:00:59Z', '94287082'],
      ['2005-03-18T01:58:29Z', '07081804'],
      ['2009-02-13T23:31:30Z', '89005924'],
      ['2033-05-18T03:33:20Z', '69279037'],
    ];
    for (const [at, code8] of vectors) {
      expect(payCodeAt('123456789012', secret, new Date(at))).toBe(`123456789012${code8.slice(2)}`);
    }
    expect(payCodeStepAt(new Date('1970-01-01T00:00:59Z'))).toBe(1);
  });
});

describe.each(await testDatabaseKinds())('pay codes on %s', (kind) => {
  let t: TestApp;
  let till: TestTerminal;
  let company: Awaited<ReturnType<typeof newCompany>>;
  let companyAdmin: ReturnType<typeof requestsAs>;

  /** An employee with 100 tokens and a sign-in; its phone registered. */
  async function employeeWithPhone() {
    const deps = t.app.deps;
    const employee = await newEmployee(deps, company.id);
    await distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, {
      items: [{ employee_id: employee.id, amount: 100 }],
    });
    const user = await createUser(deps.database.db, {
      type: 'company_employee',
      companyId: company.id,
      employeeId: employee.employee_id,
    });
    const me = requestsAs(t.app, await signIn(t.app, user.username));
    const registered = await me.post('/api/v1/me/pay-devices', { name: 'My phone' });
    expect(registered.statusCode).toBe(201);
    const device = registered.json().data as { device_id: string; secret: string };
    return {
      employee,
      me,
      device,
      codeNow: () => payCodeAt(device.device_id, device.secret, t.clock.now()),
    };
  }

  const pay = (payload: object, key = crypto.randomUUID()) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/orders',
      headers: { authorization: `Bearer ${till.key}`, 'idempotency-key': key },
      payload: {
        order_type: 'dine_in',
        items: [{ name: 'Soup', quantity: 1, unit_tokens: 10 }],
        ...payload,
      },
    });

  beforeAll(async () => {
    t = await createTestApp(kind);
    till = await newTerminal(t.app.deps);
    company = await newCompany(t.app.deps, { initToken: 100_000 });
    const admin = await createUser(t.app.deps.database.db, {
      type: 'company_admin',
      companyId: company.id,
    });
    companyAdmin = requestsAs(t.app, await signIn(t.app, admin.username));
  });
  afterAll(() => t.close());

  it('registers a phone with its secret shown once, lists it without, and stops at three', async () => {
    const { me, device } = await employeeWithPhone();
    expect(device.device_id).toMatch(/^[1-9]\d{11}$/);
    expect(device.secret).toMatch(/^[A-Z2-7]{32}$/);
    const list = (await me.get('/api/v1/me/pay-devices')).json().data;
    expect(list).toEqual([
      {
        device_id: device.device_id,
        name: 'My phone',
        created_at: expect.any(String),
        last_used_at: null,
      },
    ]);
    // The secret is sealed at rest, not stored as it was answered.
    const [row] = await queryRows<{ secret_encrypted: string }>(
      t.app.deps.database.db,
      `SELECT secret_encrypted FROM pay_devices WHERE device_no = ${device.device_id}`,
    );
    expect(row!.secret_encrypted).not.toContain(device.secret);
    expect(row!.secret_encrypted.startsWith('v1.')).toBe(true);

    expect((await me.post('/api/v1/me/pay-devices', { name: 'Tablet' })).statusCode).toBe(201);
    expect((await me.post('/api/v1/me/pay-devices', { name: 'Watch' })).statusCode).toBe(201);
    const fourth = await me.post('/api/v1/me/pay-devices', { name: 'One too many' });
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json()).toMatchObject({ code: 'PAY_DEVICE_LIMIT', details: { max_devices: 3 } });
    expect((await me.post('/api/v1/me/pay-devices', { name: ' ' })).statusCode).toBe(400);
  });

  it('pays once: the same code again is refused, as are a code from two steps ago and an unknown one', async () => {
    const { employee, codeNow, device } = await employeeWithPhone();
    const code = codeNow();
    const first = await pay({ pay_code: code });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data).toMatchObject({
      employee_id: employee.employee_id,
      company_code: company.code,
      available_tokens: 90,
    });
    const again = await pay({ pay_code: code });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('PAY_CODE_INVALID');

    // The next step's code pays; a code two steps old is refused even though never used.
    const old = payCodeAt(device.device_id, device.secret, t.clock.now());
    t.clock.advance(30_000);
    expect((await pay({ pay_code: codeNow() })).statusCode).toBe(201);
    t.clock.advance(60_000);
    const stale = await pay({ pay_code: old });
    expect(stale.json().code).toBe('PAY_CODE_INVALID');
    // A code of a device that does not exist, and digits that are not a code: the same answer.
    expect((await pay({ pay_code: `999999999999${codeNow().slice(12)}` })).json().code).toBe(
      'PAY_CODE_INVALID',
    );
    expect((await pay({ pay_code: '12345' })).statusCode).toBe(400);
    const [balance] = await queryRows<{ available_tokens: unknown }>(
      t.app.deps.database.db,
      `SELECT available_tokens FROM employees WHERE id = ${employee.id}`,
    );
    expect(Number(balance?.available_tokens)).toBe(80);
  });

  it('answers a retry of the same order with its first answer, even after the code expired', async () => {
    const { codeNow } = await employeeWithPhone();
    const code = codeNow();
    const key = crypto.randomUUID();
    const first = await pay({ pay_code: code }, key);
    expect(first.statusCode).toBe(201);
    const retry = await pay({ pay_code: code }, key);
    expect(retry.statusCode).toBe(201);
    expect(retry.json().data.id).toBe(first.json().data.id);
    t.clock.advance(5 * 60_000);
    const late = await pay({ pay_code: code }, key);
    expect(late.statusCode).toBe(201);
    expect(late.json().data.id).toBe(first.json().data.id);
    // Another key with the spent code is another order: refused.
    expect((await pay({ pay_code: code })).json().code).toBe('PAY_CODE_INVALID');
  });

  it('refuses another employee’s code for this one, and stops a removed phone’s codes at once', async () => {
    const a = await employeeWithPhone();
    const b = await employeeWithPhone();
    const mismatch = await pay({ pay_code: b.codeNow(), employee_id: a.employee.employee_id });
    expect(mismatch.json().code).toBe('PAY_CODE_INVALID');

    // The company admin sees a's phone and removes it; its next code no longer pays.
    const devices = await companyAdmin.get(`/api/v1/employees/${a.employee.id}/pay-devices`);
    expect(devices.json().data.map((d: { device_id: string }) => d.device_id)).toEqual([
      a.device.device_id,
    ]);
    const removed = await companyAdmin.delete(
      `/api/v1/employees/${a.employee.id}/pay-devices/${a.device.device_id}`,
    );
    expect(removed.statusCode).toBe(200);
    t.clock.advance(30_000);
    expect((await pay({ pay_code: a.codeNow() })).json().code).toBe('PAY_CODE_INVALID');
    // The employee removes its own: the same.
    expect((await b.me.delete(`/api/v1/me/pay-devices/${b.device.device_id}`)).statusCode).toBe(
      200,
    );
    expect((await pay({ pay_code: b.codeNow() })).json().code).toBe('PAY_CODE_INVALID');
    expect((await b.me.delete(`/api/v1/me/pay-devices/${b.device.device_id}`)).statusCode).toBe(
      404,
    );
  });

  it('pays for whom the device names now: renumbered since this instance opened it, and declined', async () => {
    const { employee, codeNow, device } = await employeeWithPhone();
    expect((await pay({ pay_code: codeNow() })).statusCode).toBe(201);
    // Renumbered behind this instance's back (another instance, a migration): the payee it
    // remembers for the device is gone, so the order's statement refuses the code and the order is
    // decided again from the database, for the same employee under its new number.
    const renumbered = `R${employee.employee_id}`;
    await queryRows(
      t.app.deps.database.db,
      `UPDATE employees SET employee_id = '${renumbered}' WHERE id = ${employee.id}`,
    );
    t.clock.advance(30_000);
    const key = crypto.randomUUID();
    const paid = await pay({ pay_code: codeNow() }, key);
    expect(paid.statusCode, paid.body).toBe(201);
    expect(paid.json().data).toMatchObject({ employee_id: renumbered, available_tokens: 80 });
    const [spent] = await queryRows<{ last_used_key: string; last_used_step: unknown }>(
      t.app.deps.database.db,
      `SELECT last_used_key, last_used_step FROM pay_devices WHERE device_no = ${device.device_id}`,
    );
    expect(spent).toMatchObject({ last_used_key: key });
    expect(Number(spent!.last_used_step)).toBe(payCodeStepAt(t.clock.now()));
    // A declined order spends its code too, in the same statement: the code does not pay again.
    t.clock.advance(30_000);
    const code = codeNow();
    const tooMuch = { pay_code: code, items: [{ name: 'Feast', quantity: 1, unit_tokens: 500 }] };
    expect((await pay(tooMuch)).json().code).toBe('INSUFFICIENT_TOKENS');
    expect((await pay({ pay_code: code })).json().code).toBe('PAY_CODE_INVALID');
  });

  it('keeps another company’s admin out of an employee’s devices', async () => {
    const a = await employeeWithPhone();
    const other = await newCompany(t.app.deps);
    const stranger = await createUser(t.app.deps.database.db, {
      type: 'company_admin',
      companyId: other.id,
    });
    const as = requestsAs(t.app, await signIn(t.app, stranger.username));
    expect((await as.get(`/api/v1/employees/${a.employee.id}/pay-devices`)).statusCode).toBe(404);
    expect(
      (await as.delete(`/api/v1/employees/${a.employee.id}/pay-devices/${a.device.device_id}`))
        .statusCode,
    ).toBe(404);
    expect((await as.get('/api/v1/me/pay-devices')).statusCode).toBe(403);
  });

  it('pays once when several tills present the same code at the same instant', async () => {
    const { codeNow, employee } = await employeeWithPhone();
    const code = codeNow();
    const answers = await Promise.all(Array.from({ length: 6 }, () => pay({ pay_code: code })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const [balance] = await queryRows<{ available_tokens: unknown }>(
      t.app.deps.database.db,
      `SELECT available_tokens FROM employees WHERE id = ${employee.id}`,
    );
    expect(Number(balance?.available_tokens)).toBe(90);
  });

  it('a dry run checks a code without spending it', async () => {
    const { codeNow } = await employeeWithPhone();
    const code = codeNow();
    const check = await t.app.inject({
      method: 'POST',
      url: '/api/v1/orders/check',
      headers: { authorization: `Bearer ${till.key}` },
      payload: {
        pay_code: code,
        order_type: 'dine_in',
        items: [{ name: 'Tea', quantity: 1, unit_tokens: 5 }],
      },
    });
    expect(check.json().data).toMatchObject({ allowed: true, payable_tokens: 5 });
    expect((await pay({ pay_code: code })).statusCode).toBe(201);
  });

  it('a company that requires pay codes refuses a staff number alone', async () => {
    const strict = await newCompany(t.app.deps, { initToken: 1000 });
    const employee = await newEmployee(t.app.deps, strict.id);
    await distributeToEmployees(t.app.deps, { kind: 'company', companyId: strict.id }, null, {
      items: [{ employee_id: employee.id, amount: 100 }],
    });
    const byStaffNumber = { company_code: strict.code, employee_id: employee.employee_id };
    expect((await pay(byStaffNumber)).statusCode).toBe(201);
    // The switch is the company's settings: the administrator's and Group HR's (PUT /companies).
    const admin = await createUser(t.app.deps.database.db, { type: 'admin' });
    const as = requestsAs(t.app, await signIn(t.app, admin.username));
    const current = (await as.get(`/api/v1/companies/${strict.id}`)).json().data;
    expect(current.pay_code_required).toBe(false);
    const updated = await as.put(`/api/v1/companies/${strict.id}`, {
      name: current.name,
      status: current.status,
      monthly_reset_day: current.monthly_reset_day,
      init_token: current.init_token,
      pay_code_required: true,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().data.pay_code_required).toBe(true);
    const refused = await pay(byStaffNumber);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('PAY_CODE_REQUIRED');
    // Neither a pay code nor a payee: the body says what is missing.
    const neither = await pay({});
    expect(neither.statusCode).toBe(400);
  });
});
