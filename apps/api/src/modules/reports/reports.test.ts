import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanyReport, ReportSummary } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { injectAs, type TestSession } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import { newCompany, signedIn } from '../../../test/management';
import {
  buildProgramme,
  expectedEmployeeRow,
  expectedTotals,
  ledgerRows,
  type LedgerRow,
  type Programme,
} from '../../../test/reporting';

describe.each(await testDatabaseKinds())('summary reports on %s', (kind) => {
  let t: TestApp;
  let p: Programme;
  let rows: LedgerRow[];
  const as: Record<string, TestSession> = {};

  const get = (who: string, url: string) =>
    who === 'anonymous'
      ? t.app.inject({ method: 'GET', url })
      : injectAs(t.app, as[who]!, { method: 'GET', url });
  const summary = async (who: string, query = ''): Promise<ReportSummary> => {
    const res = await get(who, `/api/v1/reports/summary${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ReportSummary;
  };
  const companyReport = async (who: string, companyId: number, query = '') => {
    const res = await get(who, `/api/v1/reports/summary/${companyId}${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as CompanyReport;
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { APP_TIMEZONE: 'Asia/Shanghai' });
    p = await buildProgramme(t);
    // A third company with no activity at all still has its row (of zeros).
    await newCompany(t);
    rows = await ledgerRows(t.app.deps.database.db);
    as.admin = (await signedIn(t, 'admin')).session;
    as.hr = (await signedIn(t, 'super_hr')).session;
    as.adminA = (await signedIn(t, 'company_admin', { companyId: p.a.id })).session;
    as.a1 = (
      await signedIn(t, 'company_employee', { companyId: p.a.id, employeeId: p.a1.employee_id })
    ).session;
    as.merchant = (await signedIn(t, 'merchant_admin', { merchantId: p.t1.merchantId })).session;
  });
  afterAll(() => t.close());

  it('lists every company with its month, and a grand total equal to the ledger sums', async () => {
    for (const month of ['2026-01', '2026-02']) {
      const report = await summary('hr', `?month=${month}&page_size=50`);
      expect(report.month).toBe(month);
      expect(report.total).toBe(3);
      expect(report.data).toHaveLength(3);
      expect(report.grand_total).toEqual(expectedTotals(rows, month));
      for (const company of [p.a, p.b]) {
        expect(report.data.find((r) => r.company_id === company.id)).toEqual(
          expect.objectContaining(
            expectedTotals(rows, month, (r: LedgerRow) => r.companyId === company.id),
          ),
        );
      }
    }
  });

  it('pages the companies by name while the grand total covers all of them', async () => {
    const all = await summary('admin', '?month=2026-01&page_size=50');
    const names = all.data.map((r) => r.company_name);
    expect(names).toEqual([...names].sort());
    const first = await summary('admin', '?month=2026-01&page_size=10&page=1');
    const beyond = await summary('admin', '?month=2026-01&page_size=10&page=2');
    expect(first.data).toEqual(all.data);
    expect(beyond.data).toEqual([]);
    expect(beyond.total).toBe(3);
    expect(beyond.grand_total).toEqual(all.grand_total);
  });

  it('narrows by company and by a search on code or name', async () => {
    const one = await summary('admin', `?month=2026-01&company_id=${p.b.id}`);
    expect(one.data.map((r) => r.company_id)).toEqual([p.b.id]);
    expect(one.grand_total).toEqual(expectedTotals(rows, '2026-01', (r) => r.companyId === p.b.id));
    const byCode = await summary('admin', `?month=2026-01&search=${p.a.code.toLowerCase()}`);
    expect(byCode.data.map((r) => r.company_id)).toEqual([p.a.id]);
    expect((await get('admin', '/api/v1/reports/summary?company_id=999999')).statusCode).toBe(404);
  });

  it("shows a company admin only its own company's row, and 404 for another company", async () => {
    const own = await summary('adminA', '?month=2026-01');
    expect(own.data.map((r) => r.company_id)).toEqual([p.a.id]);
    expect(own.grand_total).toEqual(expectedTotals(rows, '2026-01', (r) => r.companyId === p.a.id));
    // Its default month is its company's token month.
    expect((await summary('adminA')).month).toBe('2026-02');
    const other = await get('adminA', `/api/v1/reports/summary?company_id=${p.b.id}`);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ code: 'RECORD_NOT_FOUND' });
  });

  it('refuses employees and merchants the report of companies (issue 43: no empty entry)', async () => {
    for (const who of ['a1', 'merchant']) {
      const res = await get(who, '/api/v1/reports/summary?month=2026-01');
      expect(res.statusCode, who).toBe(403);
      expect(res.json()).toMatchObject({ code: 'PERMISSION_DENIED' });
      const csv = await get(who, '/api/v1/exports/summary?month=2026-01');
      expect(csv.statusCode, who).toBe(403);
    }
    expect((await get('anonymous', '/api/v1/reports/summary')).statusCode).toBe(401);
  });

  it("gives a company's per-employee rows equal to sums of each employee's ledger rows", async () => {
    for (const [company, staff] of [
      [p.a, [p.a1, p.a2]],
      [p.b, [p.b1, p.b2]],
    ] as const) {
      for (const month of ['2026-01', '2026-02', '2026-03']) {
        const report = await companyReport('admin', company.id, `?month=${month}`);
        expect(report.month).toBe(month);
        expect(report.total).toBe(2);
        expect(report.company).toMatchObject({
          company_id: company.id,
          ...expectedTotals(rows, month, (r) => r.companyId === company.id),
        });
        for (const employee of staff) {
          expect(report.data.find((r) => r.id === employee.id)).toMatchObject({
            employee_id: employee.employee_id,
            name: employee.name,
            ...expectedEmployeeRow(rows, employee.id, month),
          });
        }
        // The employees' rows add up to the company's employee totals.
        const total = (key: 'received' | 'consumed' | 'unused') =>
          report.data.reduce((s, r) => s + r[key], 0);
        expect(total('received')).toBe(report.company.distributed_to_employees);
        expect(total('consumed')).toBe(report.company.consumed_by_employees);
        expect(total('unused')).toBe(report.company.employee_unused);
      }
    }
    // b2 was left in January's month: 30 expired at the reset and 10 refunded after it.
    const jan = await companyReport('hr', p.b.id, '?month=2026-01');
    expect(jan.data.find((r) => r.id === p.b2.id)).toMatchObject({
      expired: 30,
      unused: 40,
      available_tokens: 10,
      token_month: '2026-01',
      status: 'inactive',
    });
  });

  it('defaults the company report to its current token month, filters and pages it', async () => {
    expect((await companyReport('admin', p.a.id)).month).toBe('2026-02');
    const active = await companyReport('admin', p.b.id, '?status=active');
    expect(active.data.map((r) => r.id)).toEqual([p.b1.id]);
    const named = await companyReport('admin', p.a.id, '?search=bob');
    expect(named.data.map((r) => r.id)).toEqual([p.a2.id]);
    const page = await companyReport('admin', p.a.id, '?page_size=10&page=2');
    expect(page.data).toEqual([]);
    expect(page.total).toBe(2);
    const all = await companyReport('admin', p.a.id);
    const staff = all.data.map((r) => r.employee_id);
    expect(staff).toEqual([...staff].sort());
  });

  it('keeps the per-company report to admin and Group HR', async () => {
    for (const who of ['adminA', 'a1', 'merchant']) {
      const res = await get(who, `/api/v1/reports/summary/${p.a.id}`);
      expect(res.statusCode, who).toBe(403);
    }
    expect((await get('anonymous', `/api/v1/reports/summary/${p.a.id}`)).statusCode).toBe(401);
    const missing = await get('admin', '/api/v1/reports/summary/999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'RECORD_NOT_FOUND' });
  });
});
