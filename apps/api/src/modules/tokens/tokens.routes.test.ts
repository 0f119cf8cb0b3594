import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Company, Employee, TokenTransaction } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { createUser, injectAs, signIn, type TestSession } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import { assertLedgerInvariants } from '../../../test/invariants';
import {
  newCompany,
  newEmployee,
  newTerminal,
  order,
  refund,
  type TestTerminal,
} from '../../../test/ledger';

describe.each(await testDatabaseKinds())('token endpoints on %s', (kind) => {
  let t: TestApp;
  let admin: TestSession;
  let acmeAdmin: TestSession;
  let acme: Company;
  let other: Company;
  let ada: Employee;
  let bob: Employee;
  let stranger: Employee;
  let terminal: TestTerminal;

  const as = (
    session: TestSession,
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: object,
  ) => injectAs(t.app, session, { method, url, ...(payload ? { payload } : {}) });
  const sessionFor = async (options: Parameters<typeof createUser>[1]) => {
    const user = await createUser(t.app.deps.database.db, options);
    return signIn(t.app, user.username, user.password);
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    const deps = t.app.deps;
    acme = await newCompany(deps, { initToken: 1000 });
    other = await newCompany(deps, { initToken: 500 });
    ada = await newEmployee(deps, acme.id);
    bob = await newEmployee(deps, acme.id);
    stranger = await newEmployee(deps, other.id);
    terminal = await newTerminal(deps);
    admin = await sessionFor({ type: 'admin' });
    acmeAdmin = await sessionFor({ type: 'company_admin', companyId: acme.id });
  });
  afterEach(async () => {
    await assertLedgerInvariants(t.app.deps.database.db);
  });
  afterAll(() => t.close());

  it('lets an admin issue tokens to a company, and nobody else', async () => {
    const res = await as(admin, 'POST', '/api/v1/tokens/topup-token', {
      company_id: acme.id,
      amount: 500,
      note: 'Q1',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      company_id: acme.id,
      amount: 500,
      token_balance: 1500,
      period: '2026-01',
    });
    expect(
      (
        await as(acmeAdmin, 'POST', '/api/v1/tokens/topup-token', {
          company_id: acme.id,
          amount: 5,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/v1/tokens/topup-token', payload: {} }))
        .statusCode,
    ).toBe(401);
    const zero = await as(admin, 'POST', '/api/v1/tokens/topup-token', {
      company_id: acme.id,
      amount: 0,
    });
    expect(zero.json()).toMatchObject({
      code: 'BODY_INVALID',
      metadata: { amount: 'Amount must be greater than 0' },
    });
    const frac = await as(admin, 'POST', '/api/v1/tokens/topup-token', {
      company_id: acme.id,
      amount: 1.5,
    });
    expect(frac.json()).toMatchObject({ code: 'BODY_INVALID' });
    expect(
      (await as(admin, 'POST', '/api/v1/tokens/topup-token', { company_id: 99999, amount: 1 }))
        .statusCode,
    ).toBe(404);
  });

  it('lets a company admin distribute from its own company, all or nothing', async () => {
    const res = await as(acmeAdmin, 'POST', '/api/v1/tokens/topup-token/employees', {
      items: [
        { employee_id: ada.id, amount: 300 },
        { employee_id: bob.id, amount: 200 },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ company_id: acme.id, total: 500, token_balance: 1000 });
    expect(res.json().data.items).toHaveLength(2);

    const tooMuch = await as(acmeAdmin, 'POST', '/api/v1/tokens/topup-token/employees', {
      items: [
        { employee_id: ada.id, amount: 600 },
        { employee_id: bob.id, amount: 401 },
      ],
    });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json()).toMatchObject({
      code: 'TOTAL_EXCEEDS_AVAILABLE',
      message: 'Total tokens exceed available limit!',
    });
    const zh = await injectAs(t.app, acmeAdmin, {
      method: 'POST',
      url: '/api/v1/tokens/topup-token/employees',
      headers: { 'accept-language': 'zh-CN' },
      payload: { items: [{ employee_id: ada.id, amount: 5000 }] },
    });
    expect(zh.json().message).toBe('代币总数超出可用额度！');

    const foreign = await as(acmeAdmin, 'POST', '/api/v1/tokens/topup-token/employees', {
      items: [{ employee_id: stranger.id, amount: 1 }],
    });
    expect(foreign.statusCode).toBe(404);
    const otherCompany = await as(acmeAdmin, 'POST', '/api/v1/tokens/topup-token/employees', {
      company_id: other.id,
      items: [{ employee_id: stranger.id, amount: 1 }],
    });
    expect(otherCompany.statusCode).toBe(404);
    const empty = await as(acmeAdmin, 'POST', '/api/v1/tokens/topup-token/employees', {
      items: [],
    });
    expect(empty.json()).toMatchObject({
      code: 'BODY_INVALID',
      metadata: { items: 'Enter an amount for at least one employee' },
    });
    const twice = await as(acmeAdmin, 'POST', '/api/v1/tokens/topup-token/employees', {
      items: [
        { employee_id: ada.id, amount: 1 },
        { employee_id: ada.id, amount: 1 },
      ],
    });
    expect(twice.json()).toMatchObject({ code: 'BODY_INVALID' });
    expect(
      (
        await as(admin, 'POST', '/api/v1/tokens/topup-token/employees', {
          items: [{ employee_id: ada.id, amount: 1 }],
        })
      ).statusCode,
    ).toBe(403);
  });

  it('reads and changes the monthly plan within scope; only admin and HR change what a company receives', async () => {
    const mine = await as(acmeAdmin, 'GET', '/api/v1/tokens/configuration');
    expect(mine.json().data).toMatchObject({
      company_id: acme.id,
      monthly_reset_day: 1,
      init_token: 1000,
      init_token_next_month: null,
      employee_monthly_tokens: 0,
      token_month: '2026-01',
      next_reset_at: '2026-02-01T00:00:00.000Z',
    });
    expect(
      (await as(acmeAdmin, 'GET', `/api/v1/tokens/configuration?company_id=${other.id}`))
        .statusCode,
    ).toBe(404);
    const needsCompany = await as(admin, 'GET', '/api/v1/tokens/configuration');
    expect(needsCompany.json()).toMatchObject({
      code: 'QUERY_PARAM_INVALID',
      metadata: { company_id: 'Choose a company' },
    });

    const amount = await as(acmeAdmin, 'PUT', '/api/v1/tokens/configuration', {
      employee_monthly_tokens: 40,
    });
    expect(amount.json().data.employee_monthly_tokens).toBe(40);
    const raise = await as(acmeAdmin, 'PUT', '/api/v1/tokens/configuration', { init_token: 9999 });
    expect(raise.statusCode).toBe(403);
    const day = await as(admin, 'PUT', '/api/v1/tokens/configuration', {
      company_id: acme.id,
      monthly_reset_day: 20,
      init_token_next_month: 800,
    });
    expect(day.json().data).toMatchObject({
      monthly_reset_day: 20,
      init_token: 1000,
      init_token_next_month: 800,
      token_month: '2026-01',
      next_reset_at: '2026-02-20T00:00:00.000Z',
    });
    const back = await as(admin, 'PUT', '/api/v1/tokens/configuration', {
      company_id: acme.id,
      monthly_reset_day: 1,
      init_token_next_month: null,
    });
    expect(back.json().data).toMatchObject({
      next_reset_at: '2026-02-01T00:00:00.000Z',
      init_token_next_month: null,
    });
  });

  describe('transactions', () => {
    let purchaseId: number;

    beforeAll(async () => {
      const deps = t.app.deps;
      t.clock.set('2026-01-20T09:00:00Z');
      const placed = await order(deps, terminal, acme, ada, 25);
      purchaseId = placed.id;
      t.clock.set('2026-01-21T09:00:00Z');
      await refund(deps, terminal, placed.id, 'item_removed', 5);
      await order(deps, terminal, acme, bob, 10);
      await order(deps, terminal, other, stranger, 1).catch(() => undefined);
      // Moving the clock ended the earlier sessions.
      admin = await sessionFor({ type: 'admin' });
      acmeAdmin = await sessionFor({ type: 'company_admin', companyId: acme.id });
    });

    const list = async (session: TestSession, query: string) => {
      const res = await as(session, 'GET', `/api/v1/tokens/transactions${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { data: TokenTransaction[]; next_cursor: string | null };
    };

    it('lists newest first in the ledger write order, with order details', async () => {
      const all = (await list(admin, `?company_id=${acme.id}&limit=100`)).data;
      for (let i = 1; i < all.length; i += 1) {
        expect(all[i - 1]!.seq).toBeGreaterThan(all[i]!.seq);
      }
      const purchase = all.find((r) => r.event === 'order_purchased' && r.order_id === purchaseId)!;
      expect(purchase).toMatchObject({
        direction: 'sent',
        amount: 25,
        employee_id: ada.id,
        employee_number: ada.employee_id,
        order_status: 'ordered',
        order_subtotal: 25,
        order_type: 'dine_in',
        terminal_id: terminal.identity.id,
        merchant_id: terminal.merchantId,
        occurred_at: '2026-01-20T09:00:00.000Z',
      });
      expect(purchase.order_no).toMatch(/^ORD/);
      // A distribution's two rows: the company debit is written first, so it is listed second.
      const transfer = all.filter(
        (r) => r.transfer_id === all.find((x) => x.transfer_id)!.transfer_id,
      );
      expect(transfer.map((r) => [r.direction, r.employee_id === null])).toEqual([
        ['received', false],
        ['sent', true],
      ]);
    });

    it('pages with a cursor through exactly the same rows as one long page', async () => {
      const whole = (await list(admin, `?company_id=${acme.id}&limit=100`)).data;
      const paged: TokenTransaction[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await list(
          admin,
          `?company_id=${acme.id}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        );
        paged.push(...page.data);
        cursor = page.next_cursor;
        pages += 1;
      } while (cursor);
      expect(paged.map((r) => r.id)).toEqual(whole.map((r) => r.id));
      expect(pages).toBe(Math.ceil(whole.length / 2));
      const bad = await as(admin, 'GET', '/api/v1/tokens/transactions?cursor=not-a-cursor');
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({
        code: 'QUERY_PARAM_INVALID',
        metadata: { cursor: expect.any(String) },
      });
    });

    it('filters by scope, repeated events, type, employee and dates', async () => {
      const wallet = (await list(admin, `?company_id=${acme.id}&scope=company&limit=100`)).data;
      expect(wallet.length).toBeGreaterThan(0);
      expect(wallet.every((r) => r.employee_id === null)).toBe(true);
      const orders = (
        await list(
          admin,
          `?company_id=${acme.id}&event=order_purchased&event=order_refunded&limit=100`,
        )
      ).data;
      expect(orders.map((r) => r.event).sort()).toEqual([
        'order_purchased',
        'order_purchased',
        'order_refunded',
      ]);
      const received = (await list(admin, `?employee_id=${ada.id}&type=received&limit=100`)).data;
      expect(received.map((r) => [r.event, r.amount])).toEqual([
        ['order_refunded', 5],
        ['employee_issued', 300],
      ]);
      const day = (
        await list(admin, `?company_id=${acme.id}&date_from=2026-01-21&date_to=2026-01-21`)
      ).data;
      expect(day.map((r) => r.event).sort()).toEqual(['order_purchased', 'order_refunded']);
      const bad = await as(admin, 'GET', '/api/v1/tokens/transactions?event=nonsense');
      expect(bad.json()).toMatchObject({ code: 'QUERY_PARAM_INVALID' });
      const backwards = await as(
        admin,
        'GET',
        '/api/v1/tokens/transactions?date_from=2026-02-01&date_to=2026-01-01',
      );
      expect(backwards.statusCode).toBe(400);
    });

    it('keeps every caller inside its tenant', async () => {
      const own = (await list(acmeAdmin, '?limit=100')).data;
      expect(own.length).toBeGreaterThan(0);
      expect(own.every((r) => r.company_id === acme.id)).toBe(true);
      expect((await list(acmeAdmin, `?company_id=${other.id}`)).data).toEqual([]);

      const employee = await sessionFor({
        type: 'company_employee',
        companyId: acme.id,
        employeeId: ada.employee_id,
      });
      const mine = (await list(employee, '?limit=100')).data;
      expect(mine.length).toBe(3);
      expect(mine.every((r) => r.employee_id === ada.id)).toBe(true);
      expect((await list(employee, `?employee_id=${bob.id}`)).data).toEqual([]);
      expect(
        (await as(employee, 'GET', '/api/v1/tokens/transactions?scope=company')).statusCode,
      ).toBe(403);

      const staff = await sessionFor({ type: 'merchant_staff', merchantId: terminal.merchantId });
      const shop = (await list(staff, '?limit=100')).data;
      expect(shop.length).toBe(3);
      expect(shop.every((r) => r.merchant_id === terminal.merchantId)).toBe(true);
      const elsewhere = await sessionFor({
        type: 'merchant_admin',
        merchantId: (await newTerminal(t.app.deps)).merchantId,
      });
      expect((await list(elsewhere, '')).data).toEqual([]);
    });
  });
});
