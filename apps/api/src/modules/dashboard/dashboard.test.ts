import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanyTotals, Dashboard, DashboardSummary, DashboardTotals } from '@app/contract';
import { createCompany } from '../companies';
import { distributeToEmployees, issueToCompany } from '../tokens';
import { newEmployee } from '../../../test/ledger';
import { createTestApp, type TestApp } from '../../../test/app';
import { injectAs, type TestSession } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import { assertLedgerInvariants } from '../../../test/invariants';
import { signedIn } from '../../../test/management';
import {
  buildProgramme,
  expectedDaily,
  expectedTotals,
  ledgerRows,
  type LedgerRow,
  type Programme,
} from '../../../test/reporting';
import { calendarMonthWindow, daysUpTo } from './dashboard.service';

const TZ = 'Asia/Shanghai';
const MONTHS = ['2025-12', '2026-01', '2026-02', '2026-03'];

describe('daysUpTo', () => {
  it('lists the days of a window up to today, both ends included', () => {
    expect(daysUpTo('2026-01-30', '2026-02-28', '2026-02-02')).toEqual([
      '2026-01-30',
      '2026-01-31',
      '2026-02-01',
      '2026-02-02',
    ]);
    expect(daysUpTo('2024-02-15', '2024-03-14', '2027-01-01')).toHaveLength(29);
  });

  it('is empty for a window that has not opened', () => {
    expect(daysUpTo('2026-05-01', '2026-05-31', '2026-04-30')).toEqual([]);
  });

  it("draws a merchant's calendar month in the time zone", () => {
    expect(calendarMonthWindow('2024-02', TZ)).toMatchObject({
      firstDay: '2024-02-01',
      lastDay: '2024-02-29',
    });
  });
});

describe.each(await testDatabaseKinds())('dashboard on %s', (kind) => {
  let t: TestApp;
  let p: Programme;
  let rows: LedgerRow[];
  const as: Record<string, TestSession> = {};

  const get = (who: string, url: string) =>
    who === 'anonymous'
      ? t.app.inject({ method: 'GET', url })
      : injectAs(t.app, as[who]!, { method: 'GET', url });
  const dashboard = async (who: string, query = ''): Promise<Dashboard> => {
    const res = await get(who, `/api/v1/dashboard${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Dashboard;
  };
  const inCompany = (companyId: number) => (r: LedgerRow) => r.companyId === companyId;

  beforeAll(async () => {
    t = await createTestApp(kind, { APP_TIMEZONE: TZ });
    p = await buildProgramme(t);
    await assertLedgerInvariants(t.app.deps.database.db);
    rows = await ledgerRows(t.app.deps.database.db);
    // Sessions are opened at the programme's end, so the clock's jumps do not expire them.
    as.admin = (await signedIn(t, 'admin')).session;
    as.hr = (await signedIn(t, 'super_hr')).session;
    as.adminA = (await signedIn(t, 'company_admin', { companyId: p.a.id })).session;
    as.a1 = (
      await signedIn(t, 'company_employee', { companyId: p.a.id, employeeId: p.a1.employee_id })
    ).session;
    as.b2 = (
      await signedIn(t, 'company_employee', { companyId: p.b.id, employeeId: p.b2.employee_id })
    ).session;
    as.merchant1 = (await signedIn(t, 'merchant_staff', { merchantId: p.t1.merchantId })).session;
    as.merchant2 = (await signedIn(t, 'merchant_admin', { merchantId: p.t2.merchantId })).session;
  });
  afterAll(() => t.close());

  it('built a programme whose months are not trivial', () => {
    const jan = expectedTotals(rows, '2026-01');
    expect(jan).toEqual({
      tokens_from_admin: 1000 + 300 + 500 + 200,
      distributed_to_employees: 200 + 100 + 150 + 40,
      consumed_by_employees: 40 + 30 + 20 + 60 + 10 - 10 - 20 - 10,
      purchased: 160,
      refunded: 40,
      // What each company had left at the reset.
      company_unused: 1000 + 510,
      // a1 140 and a2 100 expired, b1 90 and b2 30 expired; b2 was refunded 10 after the reset,
      // still in January's month.
      employee_unused: 140 + 100 + 90 + 30 + 10,
    });
  });

  for (const month of MONTHS) {
    it(`gives every company's totals for ${month} equal to sums of the ledger rows`, async () => {
      const all = await dashboard('admin', `?month=${month}`);
      expect(all).toMatchObject({ month, view: 'all', company_id: null });
      expect(all.totals).toEqual(expectedTotals(rows, month));

      for (const company of [p.a, p.b]) {
        const one = await dashboard('admin', `?month=${month}&company_id=${company.id}`);
        expect(one).toMatchObject({ month, view: 'company', company_id: company.id });
        expect(one.totals).toEqual(expectedTotals(rows, month, inCompany(company.id)));
      }

      const res = await get('hr', `/api/v1/dashboard/summary?month=${month}`);
      expect(res.statusCode).toBe(200);
      const summary = res.json().data as DashboardSummary;
      expect(summary.month).toBe(month);
      expect(summary.totals).toEqual(expectedTotals(rows, month));
      for (const company of [p.a, p.b]) {
        const row = summary.companies.find((c) => c.company_id === company.id);
        expect(row).toMatchObject({
          company_code: company.code,
          company_name: company.name,
          ...expectedTotals(rows, month, inCompany(company.id)),
        });
      }
      // The grand total is the sum of the rows.
      const keys = Object.keys(summary.totals) as (keyof DashboardTotals)[];
      for (const key of keys) {
        expect(summary.companies.reduce((s, c) => s + c[key], 0)).toBe(summary.totals[key]);
      }
    });
  }

  it('gives a daily series of the token month counted that matches the ledger by local day', async () => {
    for (const [query, include] of [
      ['', () => true],
      [`&company_id=${p.a.id}`, inCompany(p.a.id)],
    ] as const) {
      const jan = await dashboard('admin', `?month=2026-01${query}`);
      expect(jan.counted_month).toBe(query ? '2026-01' : null);
      // The rows of January's token month (every company here resets on the 1st), on the days of
      // its window: a refund after the reset counts in January's totals but is drawn nowhere.
      const expected = new Map(
        [...expectedDaily(rows, '2026-01', TZ, include)].filter(([date]) =>
          date.startsWith('2026-01-'),
        ),
      );
      // The window is January in Shanghai, stated and listed: every day, nothing after it.
      expect(jan).toMatchObject({ window_start: '2026-01-01', window_end: '2026-01-31' });
      expect(jan.daily.map((d) => d.date)).toEqual(
        Array.from({ length: 31 }, (_, i) => `2026-01-${String(i + 1).padStart(2, '0')}`),
      );
      for (const day of jan.daily) {
        const e = expected.get(day.date) ?? { tokens_from_admin: 0, distributed: 0, consumed: 0 };
        expect(
          [day.tokens_from_admin, day.distributed_to_employees, day.consumed_by_employees],
          day.date,
        ).toEqual([e.tokens_from_admin, e.distributed, e.consumed]);
      }
      for (const [date, e] of expected) {
        expect(date.startsWith('2026-01-'), date).toBe(true);
        expect(
          jan.daily.find((d) => d.date === date),
          date,
        ).toBeDefined();
        expect(e).toBeDefined();
      }
    }
    // The refunds of 20 January 17:00 UTC fall on 21 January in Shanghai.
    const jan = await dashboard('admin', `?month=2026-01&company_id=${p.a.id}`);
    expect(jan.daily.find((d) => d.date === '2026-01-21')).toMatchObject({ refunded: 30 });
    expect(jan.daily.find((d) => d.date === '2026-01-20')).toMatchObject({ refunded: 0 });
  });

  it('states an empty month as an all-zero window of its own days', async () => {
    const empty = await dashboard('admin', '?month=2025-01');
    expect(empty).toMatchObject({ window_start: '2025-01-01', window_end: '2025-01-31' });
    expect(empty.daily).toHaveLength(31);
    expect(empty.daily.every((d) => d.tokens_from_admin === 0 && d.purchased === 0)).toBe(true);
  });

  it('shows the current month up to today only', async () => {
    const feb = await dashboard('admin', '?month=2026-02');
    // Today is 10 February 12:00 in Shanghai.
    expect(feb.daily.map((d) => d.date)).toEqual(
      Array.from({ length: 10 }, (_, i) => `2026-02-${String(i + 1).padStart(2, '0')}`),
    );
  });

  it('defaults to the calendar month for every view', async () => {
    expect((await dashboard('admin')).month).toBe('2026-02');
    expect((await dashboard('adminA')).month).toBe('2026-02');
    // b2 was left in January's month by the reset; its own dashboard opens on its company's.
    expect((await dashboard('b2')).month).toBe('2026-02');
    expect((await dashboard('b2')).counted_month).toBe('2026-02');
  });

  it('shows a company admin its own company and 404 for another', async () => {
    for (const month of ['2026-01', '2026-02']) {
      const own = await dashboard('adminA', `?month=${month}`);
      expect(own).toMatchObject({ view: 'company', company_id: p.a.id });
      expect(own.totals).toEqual(expectedTotals(rows, month, inCompany(p.a.id)));
      const same = await dashboard('adminA', `?month=${month}&company_id=${p.a.id}`);
      expect(same.totals).toEqual(own.totals);
    }
    const other = await get('adminA', `/api/v1/dashboard?company_id=${p.b.id}`);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ code: 'RECORD_NOT_FOUND' });
    // Admin asking for a company that does not exist: 404 too.
    expect((await get('admin', '/api/v1/dashboard?company_id=999999')).statusCode).toBe(404);
  });

  it('shows an employee its own wallet: received, consumed and unused of the month', async () => {
    for (const month of ['2026-01', '2026-02']) {
      const own = await dashboard('a1', `?month=${month}`);
      const mine = expectedTotals(rows, month, (r) => r.employeeId === p.a1.id);
      expect(own).toMatchObject({ view: 'employee', company_id: p.a.id, employee_id: p.a1.id });
      expect(own.totals).toEqual({ ...mine, tokens_from_admin: 0, company_unused: 0 });
    }
    // a1 received 200 in January and 50 at the reset; spent 40 + 30 − 10; 140 expired.
    expect((await dashboard('a1', '?month=2026-01')).totals).toMatchObject({
      distributed_to_employees: 200,
      consumed_by_employees: 60,
      employee_unused: 140,
    });
    // b2, left in January: 30 expired at the reset, and the 10 refunded after it is still held.
    expect((await dashboard('b2', '?month=2026-01')).totals.employee_unused).toBe(40);
    expect((await get('a1', `/api/v1/dashboard?company_id=${p.b.id}`)).statusCode).toBe(404);
  });

  it("shows a merchant its terminals' orders and refunds", async () => {
    for (const month of ['2026-01', '2026-02']) {
      for (const [who, merchantId] of [
        ['merchant1', p.t1.merchantId],
        ['merchant2', p.t2.merchantId],
      ] as const) {
        const own = await dashboard(who, `?month=${month}`);
        const theirs = expectedTotals(rows, month, (r) => r.merchantId === merchantId);
        expect(own).toMatchObject({ view: 'merchant', merchant_id: merchantId });
        expect(own.totals).toEqual({
          ...theirs,
          tokens_from_admin: 0,
          distributed_to_employees: 0,
          // Balances: a merchant never learns them (DESIGN 2).
          company_unused: null,
          employee_unused: null,
        });
      }
    }
    // Merchant 1 in January: 40 + 20 + 60 sold at its two terminals, 10 + 20 refunded.
    expect((await dashboard('merchant1', '?month=2026-01')).totals).toMatchObject({
      purchased: 120,
      refunded: 30,
      consumed_by_employees: 90,
    });
  });

  it('refuses the summary to everyone but admin and Group HR, and both to the anonymous', async () => {
    for (const who of ['adminA', 'a1', 'merchant1']) {
      const res = await get(who, '/api/v1/dashboard/summary');
      expect(res.statusCode, who).toBe(403);
      expect(res.json()).toMatchObject({ code: 'PERMISSION_DENIED' });
    }
    expect((await get('admin', '/api/v1/dashboard/summary')).statusCode).toBe(200);
    expect((await get('anonymous', '/api/v1/dashboard')).statusCode).toBe(401);
    expect((await get('anonymous', '/api/v1/dashboard/summary')).statusCode).toBe(401);
  });

  it('rejects a month that is not YYYY-MM', async () => {
    for (const month of ['2026-13', '2026-1', 'jan']) {
      const res = await get('admin', `/api/v1/dashboard?month=${month}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'QUERY_PARAM_INVALID' });
      expect(res.json().metadata).toHaveProperty('month');
    }
  });
});

describe.each(await testDatabaseKinds())('a month under way on %s (decision 0088)', (kind) => {
  let t: TestApp;
  let admin: TestSession;
  let mid: { id: number };
  let first: { id: number };
  const view = async (search: string) => {
    const res = await injectAs(t.app, admin, { method: 'GET', url: `/api/v1/dashboard${search}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Dashboard;
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { APP_TIMEZONE: 'UTC' });
    // 1 December: a company resetting on the 1st has opened December's token month, one
    // resetting on the 15th is still in its November one (15 Nov – 14 Dec).
    t.clock.set('2026-12-01T09:00:00Z');
    first = await createCompany(t.app.deps, null, {
      code: 'FIRST',
      name: 'Resets on the 1st',
      status: 'active',
      monthly_reset_day: 1,
      init_token: 0,
    });
    mid = await createCompany(t.app.deps, null, {
      code: 'MID',
      name: 'Resets on the 15th',
      status: 'active',
      monthly_reset_day: 15,
      init_token: 0,
    });
    await issueToCompany(t.app.deps, null, { company_id: first.id, amount: 1_000 });
    await issueToCompany(t.app.deps, null, { company_id: mid.id, amount: 24_502 });
    for (const company of [first, mid]) {
      const employee = await newEmployee(t.app.deps, company.id);
      await distributeToEmployees(t.app.deps, { kind: 'company', companyId: company.id }, null, {
        items: [{ employee_id: employee.id, amount: 100 }],
      });
    }
    admin = (await signedIn(t, 'admin')).session;
  });
  afterAll(() => t.close());

  it("counts on 1 December every company's current token month, a reset on the 15th included", async () => {
    const all = await view('');
    expect(all).toMatchObject({ month: '2026-12', view: 'all', counted_month: null });
    expect(all.totals.tokens_from_admin).toBe(25_502);
    expect(all.totals.company_unused).toBe(25_302);
    expect(all.totals.distributed_to_employees).toBe(200);
    // The window runs from the earliest first day counted to the latest last one.
    expect(all).toMatchObject({ window_start: '2026-11-15', window_end: '2026-12-31' });
    expect(all.daily.find((d) => d.date === '2026-12-01')).toMatchObject({
      tokens_from_admin: 25_502,
      distributed_to_employees: 200,
    });
    expect(all.daily.at(-1)?.date).toBe('2026-12-01');

    const res = await injectAs(t.app, admin, { method: 'GET', url: '/api/v1/dashboard/summary' });
    const summary = res.json().data as DashboardSummary;
    expect(summary.totals.tokens_from_admin).toBe(25_502);
    expect(summary.companies.find((c) => c.company_id === mid.id)).toMatchObject({
      token_month: '2026-11',
      counted_month: '2026-11',
      counted_from: '2026-11-15',
      counted_to: '2026-12-14',
      tokens_from_admin: 24_502,
    });
    expect(summary.companies.find((c) => c.company_id === first.id)).toMatchObject({
      counted_month: '2026-12',
      counted_from: '2026-12-01',
      counted_to: '2026-12-31',
    });
  });

  it('keeps December chosen for one company resetting on the 15th, and names its days', async () => {
    const one = await view(`?company_id=${mid.id}`);
    expect(one).toMatchObject({
      month: '2026-12',
      counted_month: '2026-11',
      window_start: '2026-11-15',
      window_end: '2026-12-14',
    });
    expect(one.totals.tokens_from_admin).toBe(24_502);
    // Today's top-up is on the chart: the days of the token month counted, up to today.
    expect(one.daily.map((d) => d.date)).toHaveLength(17);
    expect(one.daily.at(-1)).toMatchObject({ date: '2026-12-01', tokens_from_admin: 24_502 });
  });

  it('counts the token month of its label for a month not under way', async () => {
    // November chosen: the token month labelled November for both (the 15th's is the same one).
    const nov = await view('?month=2026-11');
    expect(nov.totals.tokens_from_admin).toBe(24_502);
    expect(nov).toMatchObject({ window_start: '2026-11-01', window_end: '2026-12-14' });
    // January: nothing opened yet, for either.
    const jan = await view(`?month=2027-01&company_id=${mid.id}`);
    expect(jan).toMatchObject({
      counted_month: '2027-01',
      window_start: '2027-01-15',
      window_end: '2027-02-14',
      daily: [],
    });
    expect(jan.totals.tokens_from_admin).toBe(0);
  });

  it('gives the summary report the same rows', async () => {
    const res = await injectAs(t.app, admin, { method: 'GET', url: '/api/v1/reports/summary' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { month: string; data: CompanyTotals[] };
    expect(body.month).toBe('2026-12');
    expect(body.data.find((c) => c.company_id === mid.id)).toMatchObject({
      counted_month: '2026-11',
      tokens_from_admin: 24_502,
    });
  });
});
