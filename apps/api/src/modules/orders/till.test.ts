// The till (DESIGN 8, issue 43): merchant roles charge through their merchant's terminals with
// their session; staff charges only, supervisors and admins also refund and see every terminal.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app';
import { createUser, injectAs, signIn, type TestSession } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import { newCompany, newEmployee, newTerminal, type TestTerminal } from '../../../test/ledger';
import { distributeToEmployees } from '../tokens';
import { payCodeAt } from '../pay-codes';

describe.each(await testDatabaseKinds())('the till on %s', (kind) => {
  let t: TestApp;
  let counter: TestTerminal;
  let kitchen: TestTerminal;
  let elsewhere: TestTerminal;
  let staff: TestSession;
  let supervisor: TestSession;
  let company: Awaited<ReturnType<typeof newCompany>>;
  let employee: Awaited<ReturnType<typeof newEmployee>>;

  const as = (
    session: TestSession,
    method: 'GET' | 'POST',
    url: string,
    payload?: object,
    key?: string,
  ) =>
    injectAs(t.app, session, {
      method,
      url,
      ...(payload ? { payload } : {}),
      headers: key ? { 'idempotency-key': key } : {},
    });
  const lunch = (amount: number) => ({
    company_code: company.code,
    employee_id: employee.employee_id,
    order_type: 'dine_in',
    items: [{ name: 'Lunch', quantity: 1, unit_tokens: amount }],
  });

  beforeAll(async () => {
    t = await createTestApp(kind);
    const deps = t.app.deps;
    counter = await newTerminal(deps);
    kitchen = await newTerminal(deps, counter.merchantId);
    elsewhere = await newTerminal(deps);
    company = await newCompany(deps, { initToken: 1000 });
    employee = await newEmployee(deps, company.id);
    await distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, {
      items: [{ employee_id: employee.id, amount: 200 }],
    });
    const db = deps.database.db;
    const s = await createUser(db, { type: 'merchant_staff', merchantId: counter.merchantId });
    const v = await createUser(db, { type: 'merchant_supervisor', merchantId: counter.merchantId });
    staff = await signIn(t.app, s.username);
    supervisor = await signIn(t.app, v.username);
  });
  afterAll(() => t.close());

  it('lists its merchant’s active terminals only', async () => {
    const res = await as(staff, 'GET', '/api/v1/till/terminals');
    expect(res.statusCode).toBe(200);
    expect(
      res
        .json()
        .data.map((x: { id: number }) => x.id)
        .sort(),
    ).toEqual([counter.identity.id, kitchen.identity.id].sort());
  });

  it('charges once per key, and never through another merchant’s terminal', async () => {
    const key = crypto.randomUUID();
    const url = `/api/v1/till/terminals/${counter.identity.id}/orders`;
    const first = await as(staff, 'POST', url, lunch(30), key);
    expect(first.statusCode, first.body).toBe(201);
    const again = await as(staff, 'POST', url, lunch(30), key);
    expect(again.json().data.id).toBe(first.json().data.id);
    expect(again.json().data.available_tokens).toBe(first.json().data.available_tokens);
    expect(first.json().data.terminal_id).toBe(counter.identity.id);

    const foreign = await as(
      staff,
      'POST',
      `/api/v1/till/terminals/${elsewhere.identity.id}/orders`,
      lunch(5),
      crypto.randomUUID(),
    );
    expect(foreign.statusCode).toBe(404);
    expect((await as(staff, 'POST', url, lunch(5))).json().code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    // A session write without its CSRF token is refused, as every other one.
    const noCsrf = await t.app.inject({
      method: 'POST',
      url,
      headers: { cookie: staff.cookie, 'idempotency-key': crypto.randomUUID() },
      payload: lunch(5),
    });
    expect(noCsrf.statusCode).toBe(403);
    // A terminal key is not a session: the till's routes are the back-office's.
    const byKey = await t.app.inject({
      method: 'GET',
      url: '/api/v1/till/terminals',
      headers: { authorization: `Bearer ${counter.key}` },
    });
    expect(byKey.statusCode).toBe(401);
  });

  it('charges by pay code, and says why a charge is declined', async () => {
    const user = await createUser(t.app.deps.database.db, {
      type: 'company_employee',
      companyId: company.id,
      employeeId: employee.employee_id,
    });
    const me = await signIn(t.app, user.username);
    const device = (await as(me, 'POST', '/api/v1/me/pay-devices', { name: 'Phone' })).json().data;
    const url = `/api/v1/till/terminals/${kitchen.identity.id}/orders`;
    const { company_code: _c, employee_id: _e, ...order } = lunch(10);
    const code = payCodeAt(device.device_id, device.secret, t.clock.now());
    const paid = await as(staff, 'POST', url, { ...order, pay_code: code }, crypto.randomUUID());
    expect(paid.statusCode, paid.body).toBe(201);
    expect(paid.json().data.employee_id).toBe(employee.employee_id);
    const reused = await as(staff, 'POST', url, { ...order, pay_code: code }, crypto.randomUUID());
    expect(reused.json().code).toBe('PAY_CODE_INVALID');
    const tooMuch = await as(staff, 'POST', url, lunch(100_000), crypto.randomUUID());
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().code).toBe('INSUFFICIENT_TOKENS');
  });

  it('shows staff its terminal’s orders of the day, and a supervisor every terminal’s', async () => {
    const today = await as(staff, 'GET', `/api/v1/till/orders?terminal_id=${counter.identity.id}`);
    expect(today.statusCode).toBe(200);
    const rows = today.json().data as { terminal_id: number }[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((o) => o.terminal_id === counter.identity.id)).toBe(true);
    expect((await as(staff, 'GET', '/api/v1/till/orders')).statusCode).toBe(400);
    const all = (await as(supervisor, 'GET', '/api/v1/till/orders')).json().data as {
      terminal_id: number;
    }[];
    expect(new Set(all.map((o) => o.terminal_id))).toEqual(
      new Set([counter.identity.id, kitchen.identity.id]),
    );
    const yesterday = await as(supervisor, 'GET', '/api/v1/till/orders?date=2026-01-14');
    expect(yesterday.json().data).toEqual([]);
    expect(
      (await as(staff, 'GET', `/api/v1/till/orders?terminal_id=${elsewhere.identity.id}`))
        .statusCode,
    ).toBe(404);
  });

  it('lets a supervisor refund and refuses staff', async () => {
    const placed = await as(
      staff,
      'POST',
      `/api/v1/till/terminals/${counter.identity.id}/orders`,
      lunch(20),
      crypto.randomUUID(),
    );
    const id = placed.json().data.id;
    const refund = { reason: 'cancelled' };
    const byStaff = await as(
      staff,
      'POST',
      `/api/v1/till/orders/${id}/refund`,
      refund,
      crypto.randomUUID(),
    );
    expect(byStaff.statusCode).toBe(403);
    const key = crypto.randomUUID();
    const bySupervisor = await as(
      supervisor,
      'POST',
      `/api/v1/till/orders/${id}/refund`,
      refund,
      key,
    );
    expect(bySupervisor.statusCode, bySupervisor.body).toBe(200);
    const retried = await as(supervisor, 'POST', `/api/v1/till/orders/${id}/refund`, refund, key);
    expect(retried.json()).toEqual(bySupervisor.json());
    // Another merchant's order is not found.
    const theirs = await t.app.inject({
      method: 'POST',
      url: '/api/v1/orders',
      headers: { authorization: `Bearer ${elsewhere.key}`, 'idempotency-key': crypto.randomUUID() },
      payload: lunch(5),
    });
    const other = await as(
      supervisor,
      'POST',
      `/api/v1/till/orders/${theirs.json().data.id}/refund`,
      refund,
      crypto.randomUUID(),
    );
    expect(other.statusCode).toBe(404);
  });
  it('sums a day’s takings terminal by terminal, idle terminals included', async () => {
    const db = t.app.deps.database.db;
    const front = await newTerminal(t.app.deps);
    const idle = await newTerminal(t.app.deps, front.merchantId);
    const owner = await signIn(
      t.app,
      (await createUser(db, { type: 'merchant_admin', merchantId: front.merchantId })).username,
    );
    const url = `/api/v1/till/terminals/${front.identity.id}/orders`;
    const first = await as(owner, 'POST', url, lunch(30), crypto.randomUUID());
    const second = await as(owner, 'POST', url, lunch(12), crypto.randomUUID());
    expect(second.statusCode, second.body).toBe(201);
    await as(
      owner,
      'POST',
      `/api/v1/till/orders/${second.json().data.id}/refund`,
      { reason: 'item_removed', amount: 5 },
      crypto.randomUUID(),
    );
    // Another merchant's order of the same day is not theirs.
    await as(
      staff,
      'POST',
      `/api/v1/till/terminals/${counter.identity.id}/orders`,
      lunch(7),
      crypto.randomUUID(),
    );
    expect(first.statusCode).toBe(201);

    const res = await as(owner, 'GET', '/api/v1/till/takings');
    expect(res.statusCode, res.body).toBe(200);
    const takings = res.json().data;
    expect(takings.date).toBe(first.json().data.ordered_at.slice(0, 10));
    // Ordered by terminal code, which newTerminal draws at random.
    expect(
      [...takings.terminals].sort(
        (a: { terminal_id: number }, b: { terminal_id: number }) => a.terminal_id - b.terminal_id,
      ),
    ).toEqual(
      [
        { terminal_id: front.identity.id, orders: 2, tokens: 42, refunded: 5, net: 37 },
        { terminal_id: idle.identity.id, orders: 0, tokens: 0, refunded: 0, net: 0 },
      ].map((row) => expect.objectContaining(row)),
    );
    expect(takings.totals).toEqual({ orders: 2, tokens: 42, refunded: 5, net: 37 });

    const before = (await as(owner, 'GET', '/api/v1/till/takings?date=2026-01-14')).json().data;
    expect(before.totals).toEqual({ orders: 0, tokens: 0, refunded: 0, net: 0 });
    expect(before.terminals).toHaveLength(2);
    expect((await as(owner, 'GET', '/api/v1/till/takings?date=2026-13-01')).statusCode).toBe(400);
  });
});
