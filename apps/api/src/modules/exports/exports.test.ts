import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DIRECTION_LABELS,
  TOKEN_EVENT_LABELS,
  type CompanyReport,
  type Employee,
  type OrderHistoryList,
  type ReportSummary,
  type TokenTransaction,
} from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { injectAs, type TestSession } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import { signedIn } from '../../../test/management';
import { buildProgramme, ledgerRows, type Programme } from '../../../test/reporting';

const EVIL = '=HYPERLINK("http://evil.example","click")';
/** Small batches, so every export here spans several; a small cap, so one export passes it. */
const BATCH = 3;
const CAP = 30;

type Cells = Record<string, string>;

describe.each(await testDatabaseKinds())('CSV exports on %s', (kind) => {
  let t: TestApp;
  let p: Programme;
  const as: Record<string, TestSession> = {};

  const get = (who: string, url: string) =>
    who === 'anonymous'
      ? t.app.inject({ method: 'GET', url })
      : injectAs(t.app, as[who]!, { method: 'GET', url });
  const csv = async (who: string, url: string): Promise<Cells[]> => {
    const res = await get(who, url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    return parse(res.body, { bom: true, columns: true }) as Cells[];
  };
  /** Every row of the transactions list, following its cursor. */
  const allTransactions = async (who: string, query = '') => {
    const all: TokenTransaction[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/api/v1/tokens/transactions?limit=5${query}${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await get(who, url);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json() as { data: TokenTransaction[]; next_cursor: string | null };
      all.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor);
    return all;
  };

  beforeAll(async () => {
    t = await createTestApp(kind, {
      APP_TIMEZONE: 'Asia/Shanghai',
      EXPORT_BATCH_SIZE: String(BATCH),
      EXPORT_MAX_ROWS: String(CAP),
    });
    p = await buildProgramme(t, { a1: EVIL });
    as.admin = (await signedIn(t, 'admin')).session;
    as.hr = (await signedIn(t, 'super_hr')).session;
    as.adminA = (await signedIn(t, 'company_admin', { companyId: p.a.id })).session;
    as.a1 = (
      await signedIn(t, 'company_employee', { companyId: p.a.id, employeeId: p.a1.employee_id })
    ).session;
    as.merchant = (await signedIn(t, 'merchant_admin', { merchantId: p.t1.merchantId })).session;
  });
  afterAll(() => t.close());

  it('sends a transactions export as a CSV attachment with a header row and CRLF lines', async () => {
    const res = await get('adminA', '/api/v1/exports/transactions');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="transactions-2026-02-10.csv"',
    );
    expect(res.headers['cache-control']).toBe('no-store');
    expect([...res.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = res.rawPayload.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe(
      'id,occurred_at,event,direction,token_change,balance_before,balance_after,period,' +
        'company_id,company_code,company_name,employee_id,employee_name,merchant_code,' +
        'merchant_name,order_no,order_time,order_type,order_status,refund_state,subtotal,' +
        'refund_reason,note',
    );
    expect(lines[lines.length - 1]).toBe('');
  });

  it('exports every transaction the list shows, in its order, across many batches', async () => {
    for (const [who, query] of [
      ['adminA', ''],
      ['a1', ''],
      ['merchant', ''],
      ['admin', `&company_id=${p.b.id}`],
      ['hr', '&event=order_purchased&event=order_refunded'],
    ] as const) {
      const listed = await allTransactions(who, query);
      const exported = await csv(who, `/api/v1/exports/transactions?x=1${query}`);
      expect(listed.length, who).toBeGreaterThan(BATCH);
      expect(
        exported.map((r) => Number(r.id)),
        `${who}${query}`,
      ).toEqual(listed.map((t) => t.id));
      for (const [i, row] of exported.entries()) {
        const tx = listed[i]!;
        // Enum cells in words, English by default (decision 0022).
        expect(row).toMatchObject({
          event: TOKEN_EVENT_LABELS[tx.event].en,
          direction: DIRECTION_LABELS[tx.direction].en,
          company_code: tx.company_code,
          token_change: String(tx.direction === 'received' ? tx.amount : -tx.amount),
          period: tx.period,
          order_no: tx.order_no ?? '',
        });
        if (who === 'merchant') {
          // A merchant never learns a balance: none in the list, no such column in the file.
          expect([tx.balance_before, tx.balance_after]).toEqual([null, null]);
          expect(Object.keys(row).filter((k) => k.includes('balance'))).toEqual([]);
        } else {
          expect(row).toMatchObject({
            balance_before: String(tx.balance_before),
            balance_after: String(tx.balance_after),
          });
        }
      }
    }
    // An employee's export is its own wallet's rows only.
    const own = await csv('a1', '/api/v1/exports/transactions');
    const a1Rows = (await ledgerRows(t.app.deps.database.db)).filter(
      (r) => r.employeeId === p.a1.id,
    );
    expect(own.map((r) => Number(r.id)).sort((x, y) => x - y)).toEqual(a1Rows.map((r) => r.id));
  });

  it('writes times in the programme time zone', async () => {
    const rows = await csv('adminA', '/api/v1/exports/transactions?event=company_expired');
    // The reset ran at 00:00 on 1 February in Shanghai.
    expect(rows.map((r) => r.occurred_at)).toEqual(['2026-02-01 00:00:00']);
  });

  it('refuses an export larger than the cap before sending any CSV', async () => {
    const total = (await ledgerRows(t.app.deps.database.db)).length;
    expect(total).toBeGreaterThan(CAP);
    const res = await get('admin', '/api/v1/exports/transactions');
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toMatchObject({ code: 'EXPORT_TOO_LARGE' });
  });

  it('escapes formula cells in the employees export, which matches the employees list', async () => {
    const res = await get('adminA', '/api/v1/employees?page_size=50');
    const listed = res.json().data as Employee[];
    const exported = await csv('adminA', '/api/v1/exports/employees');
    expect(exported.map((r) => Number(r.id))).toEqual(listed.map((e) => e.id));
    for (const [i, row] of exported.entries()) {
      const e = listed[i]!;
      expect(row).toMatchObject({
        employee_id: e.employee_id,
        status: e.status,
        token_month: e.token_month,
        available_tokens: String(e.available_tokens),
        issued_tokens: String(e.issued_tokens),
        consumed_tokens: String(e.consumed_tokens),
      });
    }
    const evil = exported.find((r) => Number(r.id) === p.a1.id)!;
    expect(evil.name).toBe(`'${EVIL}`);
    // Across companies, for admin and Group HR, in more than one batch.
    const all = await csv('hr', '/api/v1/exports/employees');
    expect(all.map((r) => Number(r.id))).toEqual([p.a1.id, p.a2.id, p.b1.id, p.b2.id]);
    const inactive = await csv('admin', `/api/v1/exports/employees?status=inactive`);
    expect(inactive.map((r) => Number(r.id))).toEqual([p.b2.id]);
    // A company admin naming another company gets what its list gets: nothing.
    expect(await csv('adminA', `/api/v1/exports/employees?company_id=${p.b.id}`)).toEqual([]);
  });

  it('exports the order history with its filters, in its order', async () => {
    for (const query of ['', 'status=refunded', `company_id=${p.a.id}`, 'date_from=2026-02-01']) {
      const listed = (
        await get('admin', `/api/v1/orders/admin?page_size=50&${query}`)
      ).json() as OrderHistoryList;
      const exported = await csv('admin', `/api/v1/exports/orders?${query}`);
      expect(
        exported.map((r) => Number(r.id)),
        query,
      ).toEqual(listed.data.map((o) => o.id));
    }
    const [o1] = await csv('hr', `/api/v1/exports/orders?order_no=${await orderNo(p.orders.o1)}`);
    expect(o1).toMatchObject({
      status: 'Ordered',
      refund_state: 'Partially refunded',
      subtotal: '40',
      refunded_amount: '10',
      company_code: p.a.code,
      employee_id: p.a1.employee_id,
      employee_name: `'${EVIL}`,
      items: 'Meal x1 @40',
      ordered_at: '2026-01-16 11:00:00',
      last_refunded_at: '2026-01-21 01:00:00',
    });
  });

  async function orderNo(id: number): Promise<string> {
    const res = await get('admin', `/api/v1/orders/admin/${id}`);
    return res.json().data.order_no as string;
  }

  it('exports the summary report rows of the caller’s scope', async () => {
    const report = (
      await get('admin', '/api/v1/reports/summary?month=2026-01&page_size=50')
    ).json() as ReportSummary;
    const rows = await csv('admin', '/api/v1/exports/summary?month=2026-01');
    expect(rows.map((r) => Number(r.company_id))).toEqual(report.data.map((c) => c.company_id));
    for (const [i, row] of rows.entries()) {
      const c = report.data[i]!;
      expect(row).toMatchObject({
        month: '2026-01',
        company_code: c.company_code,
        tokens_from_admin: String(c.tokens_from_admin),
        distributed_to_employees: String(c.distributed_to_employees),
        consumed_by_employees: String(c.consumed_by_employees),
        company_unused: String(c.company_unused),
        employee_unused: String(c.employee_unused),
      });
    }
    const res = await get('admin', '/api/v1/exports/summary?month=2026-01');
    expect(res.headers['content-disposition']).toBe('attachment; filename="summary-2026-01.csv"');
    expect(
      (await csv('adminA', '/api/v1/exports/summary')).map((r) => Number(r.company_id)),
    ).toEqual([p.a.id]);
    expect((await get('merchant', '/api/v1/exports/summary')).statusCode).toBe(403);
    expect((await get('adminA', `/api/v1/exports/summary?company_id=${p.b.id}`)).statusCode).toBe(
      404,
    );
  });

  it("exports a company's per-employee report for admin and Group HR", async () => {
    const report = (
      await get('admin', `/api/v1/reports/summary/${p.a.id}?month=2026-01`)
    ).json() as CompanyReport;
    const rows = await csv('hr', `/api/v1/exports/summary/${p.a.id}?month=2026-01`);
    expect(rows.map((r) => Number(r.id))).toEqual(report.data.map((e) => e.id));
    for (const [i, row] of rows.entries()) {
      const e = report.data[i]!;
      expect(row).toMatchObject({
        received: String(e.received),
        consumed: String(e.consumed),
        expired: String(e.expired),
        unused: String(e.unused),
      });
    }
    expect(rows.find((r) => Number(r.id) === p.a1.id)?.name).toBe(`'${EVIL}`);
    const res = await get('admin', `/api/v1/exports/summary/${p.a.id}?month=2026-01`);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="summary-${p.a.code}-2026-01.csv"`,
    );
    expect((await get('admin', '/api/v1/exports/summary/999999')).statusCode).toBe(404);
  });

  it('applies each list’s access rule to its export', async () => {
    const routes = [
      '/api/v1/exports/transactions',
      '/api/v1/exports/orders',
      '/api/v1/exports/employees',
      '/api/v1/exports/summary',
      `/api/v1/exports/summary/${p.a.id}`,
    ];
    for (const url of routes) {
      expect((await get('anonymous', url)).statusCode, url).toBe(401);
    }
    const forbidden: [string, string][] = [
      ['adminA', '/api/v1/exports/orders'],
      ['merchant', '/api/v1/exports/orders'],
      ['a1', '/api/v1/exports/orders'],
      ['merchant', '/api/v1/exports/employees'],
      ['a1', '/api/v1/exports/employees'],
      ['adminA', `/api/v1/exports/summary/${p.a.id}`],
      ['merchant', `/api/v1/exports/summary/${p.a.id}`],
    ];
    for (const [who, url] of forbidden) {
      const res = await get(who, url);
      expect(res.statusCode, `${who} ${url}`).toBe(403);
      expect(res.json()).toMatchObject({ code: 'PERMISSION_DENIED' });
    }
    // An employee may not export the company wallet, as it may not list it.
    expect((await get('a1', '/api/v1/exports/transactions?scope=company')).statusCode).toBe(403);
  });
});
