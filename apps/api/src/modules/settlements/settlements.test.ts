import { sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Company, Employee, SettlementPeriod, SettlementStatement } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { requestsAs } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import {
  newCompany,
  newEmployee,
  newTerminal,
  order,
  refund,
  type TestTerminal,
} from '../../../test/ledger';
import { signedIn, type SignedInUser } from '../../../test/management';
import { queryRows } from '../../db/client';
import { distributeToEmployees, issueToCompany } from '../tokens';
import { halfMonthOf, halfMonthsBetween } from './settlement-periods';

// Shanghai is UTC+8 all year: 2026-03-16 00:00 there is 2026-03-15T16:00:00Z.
const TZ = 'Asia/Shanghai';

describe('half-month periods', () => {
  it('cuts a month at the 15th and at its last day, in the programme time zone', () => {
    expect(halfMonthOf('2026-02-20', TZ)).toMatchObject({
      start: '2026-02-16',
      end: '2026-02-28',
      startsAt: new Date('2026-02-15T16:00:00Z'),
      endsAt: new Date('2026-02-28T16:00:00Z'),
    });
    expect(halfMonthOf('2028-02-15', 'UTC')).toMatchObject({
      start: '2028-02-01',
      end: '2028-02-15',
    });
    expect(
      halfMonthsBetween('2026-12-20', '2027-01-16', 'UTC').map((p) => `${p.start}/${p.end}`),
    ).toEqual(['2026-12-16/2026-12-31', '2027-01-01/2027-01-15', '2027-01-16/2027-01-31']);
    // The calendar's last half ends the list (the next would begin in year 10000).
    expect(halfMonthsBetween('9999-12-20', '9999-12-31', 'UTC').map((p) => p.start)).toEqual([
      '9999-12-16',
    ]);
  });
});

describe.each(await testDatabaseKinds())('settlement statements on %s', (kind) => {
  let t: TestApp;
  let acme: Company;
  let beta: Company;
  let ann: Employee;
  let bob: Employee;
  let shop: TestTerminal;
  let other: TestTerminal;
  let admin: SignedInUser;
  let groupHr: SignedInUser;
  let shopAdmin: SignedInUser;
  let shopStaff: SignedInUser;
  let companyAdmin: SignedInUser;
  let closedBefore: SettlementStatement;
  const ids: Record<string, number> = {};

  const as = (who: SignedInUser) => requestsAs(t.app, who.session);

  beforeAll(async () => {
    t = await createTestApp(kind, { APP_TIMEZONE: TZ });
    t.clock.set('2026-03-02T02:00:00Z');
    const deps = t.app.deps;
    acme = await newCompany(deps);
    beta = await newCompany(deps);
    ann = await newEmployee(deps, acme.id, { staffNumber: 'A001' });
    bob = await newEmployee(deps, beta.id, { staffNumber: 'B001' });
    for (const [company, employee] of [
      [acme, ann],
      [beta, bob],
    ] as const) {
      await issueToCompany(deps, null, { company_id: company.id, amount: 1_000 });
      await distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, {
        items: [{ employee_id: employee.id, amount: 1_000 }],
      });
    }
    shop = await newTerminal(deps);
    other = await newTerminal(deps);

    // 1–15 March: three orders at the shop (one part-refunded at once), one at another merchant.
    t.clock.set('2026-03-10T02:00:00Z');
    ids.big = (await order(deps, shop, acme, ann, 100)).id;
    ids.small = (await order(deps, shop, acme, ann, 30)).id;
    await refund(deps, shop, ids.small, 'item_removed', 10);
    await order(deps, other, acme, ann, 40);
    // The last millisecond of the first half (23:59:59.999 in Shanghai) and the first of the second.
    t.clock.set('2026-03-15T15:59:59.999Z');
    ids.last = (await order(deps, shop, beta, bob, 50)).id;
    t.clock.set('2026-03-15T16:00:00.000Z');
    ids.first = (await order(deps, shop, beta, bob, 70)).id;

    // The first half is closed; its statement as read then.
    t.clock.set('2026-03-17T04:00:00Z');
    const res = await as(await signedIn(t, 'admin')).get(
      `/api/v1/settlements/${shop.merchantId}/2026-03-01?page_size=50`,
    );
    expect(res.statusCode, res.body).toBe(200);
    closedBefore = res.json();
    // A refund after the close of an order of the closed half.
    t.clock.set('2026-03-20T04:00:00Z');
    await refund(deps, shop, ids.big, 'cancelled');
    // Sessions are signed in at the clock's last time (they expire when it jumps days).
    admin = await signedIn(t, 'admin');
    groupHr = await signedIn(t, 'super_hr');
    shopAdmin = await signedIn(t, 'merchant_admin', { merchantId: shop.merchantId });
    shopStaff = await signedIn(t, 'merchant_staff', { merchantId: shop.merchantId });
    companyAdmin = await signedIn(t, 'company_admin', { companyId: acme.id });
  });
  afterAll(() => t.close());

  const statementOf = async (who: SignedInUser, start: string) => {
    const res = await as(who).get(`/api/v1/settlements/${shop.merchantId}/${start}?page_size=50`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as SettlementStatement;
  };

  it('counts purchases in the half of their order and a refund in the half it was made', async () => {
    const first = (await statementOf(admin, '2026-03-01')).data.statement;
    expect(first).toMatchObject({
      merchant_id: shop.merchantId,
      period_start: '2026-03-01',
      period_end: '2026-03-15',
      status: 'closed',
      orders: 3,
      refunds: 1,
      purchased_tokens: 180,
      refunded_tokens: 10,
      net_tokens: 170,
    });
    expect(first.companies).toEqual(
      [
        expect.objectContaining({
          company_id: acme.id,
          orders: 2,
          purchased_tokens: 130,
          refunded_tokens: 10,
          net_tokens: 120,
        }),
        expect.objectContaining({
          company_id: beta.id,
          orders: 1,
          purchased_tokens: 50,
          refunded_tokens: 0,
          net_tokens: 50,
        }),
      ].sort((a, b) =>
        a.company_code < b.company_code ? -1 : 1,
      ) as unknown as SettlementPeriod['companies'],
    );

    const second = await statementOf(admin, '2026-03-16');
    expect(second.data.statement).toMatchObject({
      period_end: '2026-03-31',
      status: 'open',
      orders: 1,
      refunds: 1,
      purchased_tokens: 70,
      refunded_tokens: 100,
      net_tokens: -30,
    });
    // The late refund is a line of the second half: nothing bought there, 100 back.
    expect(second.total).toBe(2);
    expect(second.data.orders.find((o) => o.order_id === ids.big)).toMatchObject({
      subtotal: 100,
      purchased_tokens: 0,
      refunded_tokens: 100,
      net_tokens: -100,
      employee_id: 'A001',
      company_id: acme.id,
    });
    expect(second.data.orders.find((o) => o.order_id === ids.first)).toMatchObject({
      purchased_tokens: 70,
      net_tokens: 70,
    });
  });

  it('never changes a closed half: the refund after its close left it as it was', async () => {
    expect(await statementOf(admin, '2026-03-01')).toEqual(closedBefore);
  });

  it('equals the sums of the ledger rows of the period, and of its order lines', async () => {
    for (const [start, from, to] of [
      ['2026-03-01', '2026-03-01T00:00:00+08:00', '2026-03-16T00:00:00+08:00'],
      ['2026-03-16', '2026-03-16T00:00:00+08:00', '2026-04-01T00:00:00+08:00'],
    ] as const) {
      const { data, total } = await statementOf(admin, start);
      const ledger = await queryRows<{
        company_id: unknown;
        event: string;
        n: unknown;
        tokens: unknown;
      }>(
        t.db.database.db,
        sql`SELECT company_id, event, count(*) AS n, sum(amount) AS tokens
              FROM token_transactions
             WHERE merchant_id = ${shop.merchantId}
               AND occurred_at >= ${from}::timestamptz AND occurred_at < ${to}::timestamptz
             GROUP BY company_id, event`,
      );
      const sum = (event: string, companyId?: number) =>
        ledger
          .filter(
            (r) =>
              r.event === event && (companyId === undefined || Number(r.company_id) === companyId),
          )
          .reduce((s, r) => s + Number(r.tokens), 0);
      const count = (event: string) =>
        ledger.filter((r) => r.event === event).reduce((s, r) => s + Number(r.n), 0);
      expect(data.statement.purchased_tokens).toBe(sum('order_purchased'));
      expect(data.statement.refunded_tokens).toBe(sum('order_refunded'));
      expect(data.statement.orders).toBe(count('order_purchased'));
      expect(data.statement.refunds).toBe(count('order_refunded'));
      for (const c of data.statement.companies) {
        expect(c.net_tokens).toBe(
          sum('order_purchased', c.company_id) - sum('order_refunded', c.company_id),
        );
      }
      expect(data.orders).toHaveLength(total);
      expect(data.orders.reduce((s, o) => s + o.net_tokens, 0)).toBe(data.statement.net_tokens);
      expect(data.orders.reduce((s, o) => s + o.purchased_tokens, 0)).toBe(
        data.statement.purchased_tokens,
      );
    }
  });

  it('lists each merchant’s halves newest first, within the range, with their split', async () => {
    const res = await as(admin).get(
      '/api/v1/settlements?from=2026-03-01&to=2026-03-31&page_size=50',
    );
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json() as { data: SettlementPeriod[]; total: number };
    const mine = list.data.filter((p) => p.merchant_id === shop.merchantId);
    expect(mine.map((p) => [p.period_start, p.net_tokens])).toEqual([
      ['2026-03-16', -30],
      ['2026-03-01', 170],
    ]);
    expect(list.data.some((p) => p.merchant_id === other.merchantId)).toBe(true);
    expect(
      list.data.every((p) => !('balance' in p) && !JSON.stringify(p).includes('balance')),
    ).toBe(true);

    const hr = await as(groupHr).get(
      `/api/v1/settlements?merchant_id=${other.merchantId}&from=2026-03-01&to=2026-03-31`,
    );
    expect(hr.json().data).toEqual([
      expect.objectContaining({ merchant_id: other.merchantId, net_tokens: 40 }),
    ]);
    // Without a range: this month and the last, to today (20 March).
    const recent = await as(admin).get(`/api/v1/settlements?merchant_id=${shop.merchantId}`);
    expect(recent.json()).toMatchObject({
      from: '2026-02-01',
      to: '2026-03-20',
      total: 2,
      totals: {
        orders: 4,
        refunds: 2,
        purchased_tokens: 250,
        refunded_tokens: 110,
        net_tokens: 140,
      },
    });
    const paged = await as(admin).get(
      `/api/v1/settlements?merchant_id=${shop.merchantId}&from=2026-03-01&to=2026-03-31&page=2&page_size=10`,
    );
    expect(paged.json()).toMatchObject({ data: [], total: 2 });
  });

  it('shows a merchant admin its own merchant only; other merchants are 404, other roles 403', async () => {
    const list = await as(shopAdmin).get('/api/v1/settlements?from=2026-03-01&to=2026-03-31');
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((p: SettlementPeriod) => p.merchant_id)).toEqual([
      shop.merchantId,
      shop.merchantId,
    ]);
    expect((await statementOf(shopAdmin, '2026-03-01')).data.statement.net_tokens).toBe(170);
    for (const url of [
      `/api/v1/settlements/${other.merchantId}/2026-03-01`,
      `/api/v1/settlements?merchant_id=${other.merchantId}`,
      `/api/v1/settlements/${other.merchantId}/2026-03-01/pdf`,
      `/api/v1/exports/settlements/${other.merchantId}/2026-03-01`,
      `/api/v1/exports/settlements?merchant_id=${other.merchantId}`,
    ]) {
      const res = await as(shopAdmin).get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code).toBe('RECORD_NOT_FOUND');
    }
    const merchants = await as(shopAdmin).get('/api/v1/settlements/merchants');
    expect(merchants.json().data).toEqual([expect.objectContaining({ id: shop.merchantId })]);
    const all = await as(groupHr).get('/api/v1/settlements/merchants');
    expect(all.json().data.map((m: { id: number }) => m.id)).toEqual(
      expect.arrayContaining([shop.merchantId, other.merchantId]),
    );
    const refused = await as(companyAdmin).get('/api/v1/settlements');
    expect(refused.statusCode).toBe(403);
    // DESIGN 8: a cashier charges; the statements (and their exports) are the merchant admin's.
    for (const url of [
      '/api/v1/settlements',
      `/api/v1/settlements/${shop.merchantId}/2026-03-01`,
      `/api/v1/exports/settlements/${shop.merchantId}/2026-03-01`,
    ]) {
      expect((await as(shopStaff).get(url)).statusCode, url).toBe(403);
    }
  });

  it('refuses a period that does not start on the 1st or the 16th, and a range out of order or too long', async () => {
    for (const url of [
      `/api/v1/settlements/${shop.merchantId}/2026-03-02`,
      '/api/v1/settlements?from=2026-03-10&to=2026-03-01',
      '/api/v1/settlements?from=2020-01-01&to=2026-03-01',
    ]) {
      const res = await as(admin).get(url);
      expect(res.statusCode, url).toBe(400);
    }
    // The calendar's last half-month ends in year 10000: read, empty, no 5xx.
    const last = await as(admin).get(`/api/v1/settlements/${shop.merchantId}/9999-12-16`);
    expect(last.statusCode, last.body).toBe(200);
    expect(last.json().data.statement).toMatchObject({ period_end: '9999-12-31', orders: 0 });
    const edge = await as(admin).get('/api/v1/settlements?from=9999-01-01&to=9999-12-31');
    expect(edge.statusCode, edge.body).toBe(200);
  });

  it('exports the list one line per company and a statement one line per order, as CSV', async () => {
    const list = await as(shopAdmin).get(
      '/api/v1/exports/settlements?from=2026-03-01&to=2026-03-31',
    );
    expect(list.statusCode, list.body).toBe(200);
    expect(list.headers['content-type']).toContain('text/csv');
    const lines = parse(list.body, { bom: true, columns: true }) as Record<string, string>[];
    expect(lines.map((l) => [l.period_start, l.company_code, l.net_tokens])).toEqual(
      [
        ['2026-03-16', acme.code, '-100'],
        ['2026-03-16', beta.code, '70'],
        ['2026-03-01', acme.code, '120'],
        ['2026-03-01', beta.code, '50'],
      ].sort((a, b) => (a[0]! === b[0]! ? (a[1]! < b[1]! ? -1 : 1) : a[0]! < b[0]! ? 1 : -1)),
    );
    const statement = await as(shopAdmin).get(
      `/api/v1/exports/settlements/${shop.merchantId}/2026-03-01`,
    );
    expect(statement.statusCode, statement.body).toBe(200);
    const orders = parse(statement.body, { bom: true, columns: true }) as Record<string, string>[];
    expect(orders.map((o) => o.net_tokens)).toEqual(['100', '20', '50']);
    expect(orders[2]).toMatchObject({ employee_id: 'B001', order_time: '2026-03-15 23:59:59' });
  });

  it('prints the statement as a PDF that opens, in English and in Chinese', async () => {
    const en = await as(shopAdmin).get(
      `/api/v1/settlements/${shop.merchantId}/2026-03-01/pdf?lang=en`,
    );
    expect(en.statusCode, en.body).toBe(200);
    expect(en.headers['content-type']).toBe('application/pdf');
    expect(en.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const enText = (await new PDFParse({ data: new Uint8Array(en.rawPayload) }).getText()).text;
    expect(enText).toContain('Settlement statement');
    expect(enText).toContain('2026-03-01 – 2026-03-15');
    expect(enText).toMatch(/Net tokens[\s\S]*\b3\s+1\s+180\s+10\s+170\b/);
    expect(enText).toContain('A001');
    expect(enText).toContain(beta.code);

    const zh = await as(admin).get(`/api/v1/settlements/${shop.merchantId}/2026-03-16/pdf?lang=zh`);
    expect(zh.statusCode).toBe(200);
    const zhText = (await new PDFParse({ data: new Uint8Array(zh.rawPayload) }).getText()).text;
    expect(zhText).toContain('结算单');
    expect(zhText).toContain('净额代币');
    expect(zhText).toMatch(/1\s+1\s+70\s+100\s+-30/);
  });
});
