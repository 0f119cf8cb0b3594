import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dashboard, DashboardSummary, DashboardTotals } from '@app/contract';
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
import { calendarMonthWindow, monthWindowDays } from './dashboard.service';

const TZ = 'Asia/Shanghai';
const MONTHS = ['2025-12', '2026-01', '2026-02', '2026-03'];

describe('monthWindowDays', () => {
  it('lists the days of the calendar month in the time zone, up to today', () => {
    const days = monthWindowDays('2026-02', TZ, new Date('2026-02-03T18:00:00Z'));
    expect(days).toEqual(['2026-02-01', '2026-02-02', '2026-02-03', '2026-02-04']);
  });

  it('is the calendar month whatever the reset days: never a union of token months', () => {
    const days = monthWindowDays('2025-01', 'UTC', new Date('2027-01-01'));
    expect(days).toHaveLength(31);
    expect(days[0]).toBe('2025-01-01');
    expect(days[days.length - 1]).toBe('2025-01-31');
    expect(calendarMonthWindow('2024-02', TZ)).toMatchObject({
      firstDay: '2024-02-01',
      lastDay: '2024-02-29',
    });
  });

  it('is empty for a month that has not opened', () => {
    expect(monthWindowDays('2026-05', 'UTC', new Date('2026-04-30'))).toEqual([]);
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

  it('gives a daily series of the calendar month chosen that matches the ledger by local day', async () => {
    for (const [query, include] of [
      ['', () => true],
      [`&company_id=${p.a.id}`, inCompany(p.a.id)],
    ] as const) {
      const jan = await dashboard('admin', `?month=2026-01${query}`);
      const expected = expectedDaily(rows, '2026-01', TZ, include, 'calendar');
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

  it('defaults to the calendar month for all companies and to the token month for one', async () => {
    expect((await dashboard('admin')).month).toBe('2026-02');
    expect((await dashboard('adminA')).month).toBe('2026-02');
    // b2 was left in January's month by the reset; its own dashboard opens on its company's.
    expect((await dashboard('b2')).month).toBe('2026-02');
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
