// Tenant isolation (issue 4): a company admin of company A naming anything of company B by id gets
// 404 (or, for a filtered list, nothing of B), and nothing of B changes; a terminal of merchant A
// cannot refund an order taken at merchant B; a merchant admin of merchant A naming a user of
// merchant B gets 404, and its staff list holds nothing of B (DESIGN 2).
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER } from '@app/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { injectAs, type TestSession } from '../../test/auth';
import { testDatabaseKinds } from '../../test/databases';
import { assertLedgerInvariants } from '../../test/invariants';
import { signedIn, STRONG_PASSWORD, uniqueName } from '../../test/management';
import { buildProgramme, type Programme } from '../../test/reporting';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

describe.each(await testDatabaseKinds())('tenant isolation on %s', (kind) => {
  let t: TestApp;
  let p: Programme;
  let adminA: TestSession;
  let admin: TestSession;
  /** Everything of company B as the platform admin sees it, to compare after each attempt. */
  let snapshotOfB: () => Promise<string>;

  const as = (session: TestSession, method: Method, url: string, payload?: object) =>
    injectAs(t.app, session, { method, url, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await createTestApp(kind, { APP_TIMEZONE: 'Asia/Shanghai' });
    p = await buildProgramme(t);
    adminA = (await signedIn(t, 'company_admin', { companyId: p.a.id })).session;
    admin = (await signedIn(t, 'admin')).session;
    snapshotOfB = async () => {
      const parts = await Promise.all([
        as(admin, 'GET', `/api/v1/companies/${p.b.id}`),
        as(admin, 'GET', `/api/v1/employees/${p.b1.id}`),
        as(admin, 'GET', `/api/v1/employees/${p.b2.id}`),
        as(admin, 'GET', `/api/v1/tokens/configuration?company_id=${p.b.id}`),
        as(admin, 'GET', `/api/v1/tokens/transactions?company_id=${p.b.id}&limit=100`),
      ]);
      for (const part of parts) expect(part.statusCode, part.body).toBe(200);
      return parts.map((part) => part.body).join('\n');
    };
  });
  afterAll(() => t.close());

  /** [what, method, url, body] of every by-id request a company admin may make. */
  const byId = (): [string, Method, string, object | undefined][] => [
    ['read the company', 'GET', `/api/v1/companies/${p.b.id}`, undefined],
    ['read an employee', 'GET', `/api/v1/employees/${p.b1.id}`, undefined],
    [
      'update an employee',
      'PUT',
      `/api/v1/employees/${p.b1.id}`,
      { name: 'Hijacked', status: 'active' },
    ],
    [
      'change an employee’s status',
      'PATCH',
      `/api/v1/employees/${p.b1.id}/status`,
      {
        status: 'inactive',
      },
    ],
    ['renew an employee', 'POST', `/api/v1/employees/${p.b1.id}/renew`, undefined],
    ['delete an employee', 'DELETE', `/api/v1/employees/${p.b1.id}`, undefined],
    [
      'read the token configuration',
      'GET',
      `/api/v1/tokens/configuration?company_id=${p.b.id}`,
      undefined,
    ],
    [
      'change the token configuration',
      'PUT',
      '/api/v1/tokens/configuration',
      {
        company_id: p.b.id,
        employee_monthly_tokens: 7,
      },
    ],
    [
      'distribute to B’s employee from B',
      'POST',
      '/api/v1/tokens/topup-token/employees',
      {
        company_id: p.b.id,
        items: [{ employee_id: p.b1.id, amount: 1 }],
      },
    ],
    [
      'distribute to B’s employee from A',
      'POST',
      '/api/v1/tokens/topup-token/employees',
      {
        items: [{ employee_id: p.b1.id, amount: 1 }],
      },
    ],
    ['read the dashboard', 'GET', `/api/v1/dashboard?company_id=${p.b.id}`, undefined],
  ];

  it('answers 404 to every by-id request of company B, and changes nothing', async () => {
    const before = await snapshotOfB();
    const failures: string[] = [];
    for (const [what, method, url, body] of byId()) {
      const res = await as(adminA, method, url, body);
      const code = res.statusCode === 404 ? (res.json() as { code: string }).code : undefined;
      if (res.statusCode !== 404 || code !== 'RECORD_NOT_FOUND') {
        failures.push(`${what}: ${method} ${url} → ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshotOfB()).toBe(before);
    await assertLedgerInvariants(t.db.database.db);
  });

  it('refuses the company write endpoints outright (they are not a company admin’s)', async () => {
    const before = await snapshotOfB();
    for (const [method, url, body] of [
      [
        'PUT',
        `/api/v1/companies/${p.b.id}`,
        { name: 'x', status: 'inactive', monthly_reset_day: 2, init_token: 0 },
      ],
      ['PATCH', `/api/v1/companies/${p.b.id}/status`, { status: 'inactive' }],
      [
        'PUT',
        `/api/v1/companies/${p.a.id}`,
        { name: 'x', status: 'inactive', monthly_reset_day: 2, init_token: 0 },
      ],
      ['POST', '/api/v1/tokens/topup-token', { company_id: p.b.id, amount: 5 }],
      ['GET', `/api/v1/reports/summary/${p.b.id}`, undefined],
      ['GET', `/api/v1/exports/summary/${p.b.id}`, undefined],
      ['GET', `/api/v1/orders/admin?company_id=${p.b.id}`, undefined],
    ] as const) {
      const res = await as(adminA, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expect(await snapshotOfB()).toBe(before);
  });

  it('shows nothing of company B in lists filtered by B’s ids', async () => {
    // The ledger and employees, filtered by B's company or B's employee: refused, or empty.
    for (const url of [
      `/api/v1/tokens/transactions?company_id=${p.b.id}`,
      `/api/v1/tokens/transactions?employee_id=${p.b1.id}`,
      `/api/v1/employees?company_id=${p.b.id}`,
    ]) {
      const res = await as(adminA, 'GET', url);
      if (res.statusCode !== 404) {
        expect(res.statusCode, url).toBe(200);
        expect(res.json().data, url).toEqual([]);
      }
    }
    // Lists without a filter hold A's rows only.
    const mine = (await as(adminA, 'GET', '/api/v1/tokens/transactions?limit=100')).json().data as {
      company_id: number;
    }[];
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((row) => row.company_id === p.a.id)).toBe(true);
    const companies = (await as(adminA, 'GET', '/api/v1/companies?page_size=50')).json();
    expect(companies).toMatchObject({ total: 1, data: [{ id: p.a.id }] });
    const report = (await as(adminA, 'GET', '/api/v1/reports/summary?month=2026-01')).json();
    expect(report.data.map((row: { company_id: number }) => row.company_id)).toEqual([p.a.id]);
    // Exports: refused, or a file without B.
    for (const url of [
      `/api/v1/exports/transactions?company_id=${p.b.id}`,
      `/api/v1/exports/employees?company_id=${p.b.id}`,
      '/api/v1/exports/summary?month=2026-01',
    ]) {
      const res = await as(adminA, 'GET', url);
      if (res.statusCode !== 404) {
        expect(res.statusCode, url).toBe(200);
        expect(res.body, url).not.toContain(p.b.code);
        expect(res.body, url).not.toContain(p.b1.employee_id);
        expect(res.body, url).not.toContain(p.b2.employee_id);
      }
    }
  });

  it('does not let a terminal of one merchant refund an order taken at another', async () => {
    // o4 was taken at t1 (merchant 1); t2 belongs to merchant 2.
    const refund = (key: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/orders/${p.orders.o4}/refund`,
        headers: { authorization: `Bearer ${key}`, [IDEMPOTENCY_KEY_HEADER]: crypto.randomUUID() },
        payload: { reason: 'cancelled' },
      });
    const before = await snapshotOfB();
    const res = await refund(p.t2.key);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'ORDER_NOT_FOUND' });
    expect(await snapshotOfB()).toBe(before);
    // The merchant's other terminal may.
    expect((await refund(p.t1b.key)).statusCode).toBe(200);
    await assertLedgerInvariants(t.db.database.db);
  });

  it('answers 404 to a merchant admin naming a user of another merchant, and lists none of them', async () => {
    const m1 = p.t1.merchantId;
    const m2 = p.t2.merchantId;
    const shopAdmin1 = (await signedIn(t, 'merchant_admin', { merchantId: m1 })).session;
    const staffOf = async (merchantId: number) => {
      const res = await as(admin, 'POST', '/api/v1/users', {
        ...uniqueName('staff'),
        password: STRONG_PASSWORD,
        type: 'merchant_staff',
        status: 'active',
        merchant_id: merchantId,
      });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { data: { user_id: number } }).data.user_id;
    };
    const ours = await staffOf(m1);
    const theirs = await staffOf(m2);
    const theirsNow = async () => (await as(admin, 'GET', `/api/v1/users/${theirs}`)).body;
    const before = await theirsNow();
    for (const [method, url, body] of [
      ['GET', `/api/v1/users/${theirs}`, undefined],
      ['PUT', `/api/v1/users/${theirs}`, { ...uniqueName('hijack'), status: 'active' }],
      ['PATCH', `/api/v1/users/${theirs}/status`, { status: 'inactive' }],
      ['DELETE', `/api/v1/users/${theirs}`, undefined],
    ] as const) {
      const res = await as(shopAdmin1, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().code).toBe('RECORD_NOT_FOUND');
    }
    expect(await theirsNow()).toBe(before);
    for (const url of ['/api/v1/users?page_size=50', `/api/v1/users?merchant_id=${m2}`]) {
      const ids = (await as(shopAdmin1, 'GET', url))
        .json()
        .data.map((u: { user_id: number; merchant_id: number }) => [u.user_id, u.merchant_id]);
      expect(ids, url).not.toContainEqual([theirs, m2]);
      if (!url.includes('merchant_id')) expect(ids, url).toContainEqual([ours, m1]);
    }
  });
});
