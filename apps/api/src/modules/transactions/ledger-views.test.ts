import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Company, Employee, PlacedOrder, TokenTransaction } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { injectAs, type TestSession } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import {
  newCompany,
  newEmployee,
  newTerminal,
  order,
  refund,
  type TestTerminal,
} from '../../../test/ledger';
import { signedIn } from '../../../test/management';
import { distributeToEmployees } from '../tokens';

/** Splits a CSV export (BOM, CRLF) into its header and rows of cells; no cell here is quoted. */
const csvOf = (raw: Buffer) => {
  const [header, ...rows] = raw
    .subarray(3)
    .toString('utf8')
    .split('\r\n')
    .filter((line) => line !== '')
    .map((line) => line.split(','));
  return {
    header: header!,
    rows: rows.map((cells) => Object.fromEntries(header!.map((h, i) => [h, cells[i]]))),
  };
};

describe.each(await testDatabaseKinds())('ledger views an auditor trusts on %s', (kind) => {
  let t: TestApp;
  let a: Company;
  let b: Company;
  let ea: Employee;
  let eb: Employee;
  let till: TestTerminal;
  let partly: PlacedOrder;
  const as: Record<string, TestSession> = {};

  const rowsOf = async (who: string, query: string): Promise<TokenTransaction[]> => {
    const res = await injectAs(t.app, as[who]!, {
      method: 'GET',
      url: `/api/v1/tokens/transactions?limit=100&${query}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as TokenTransaction[];
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    const deps = t.app.deps;
    t.clock.set('2026-03-01T08:00:00Z');
    a = await newCompany(deps, { initToken: 1_000 });
    b = await newCompany(deps, { initToken: 2_000 });
    ea = await newEmployee(deps, a.id);
    eb = await newEmployee(deps, b.id);
    till = await newTerminal(deps);
    for (const [company, employee] of [
      [a, ea],
      [b, eb],
    ] as const) {
      await distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, {
        items: [{ employee_id: employee.id, amount: 100 }],
      });
    }
    partly = await order(deps, till, a, ea, 70);
    await refund(deps, till, partly.id, 'item_removed', 23);
    as.admin = (await signedIn(t, 'admin')).session;
    as.hr = (await signedIn(t, 'super_hr')).session;
    as.adminA = (await signedIn(t, 'company_admin', { companyId: a.id })).session;
    as.merchant = (await signedIn(t, 'merchant_staff', { merchantId: till.merchantId })).session;
  });
  afterAll(() => t.close());

  it('names the company of every row, so a list spanning companies says whose row it is', async () => {
    for (const who of ['admin', 'hr']) {
      const rows = await rowsOf(who, 'scope=company');
      const codes = new Set(rows.map((r) => r.company_code));
      expect(codes.has(a.code) && codes.has(b.code), who).toBe(true);
      for (const row of rows) {
        expect(row.company_code).toBe(row.company_id === a.id ? a.code : b.code);
        expect(row.company_name).toBe('Test company');
      }
    }
  });

  it('gives each side of a transfer its counterparty: the employee, and the company row', async () => {
    const companySide = (await rowsOf('adminA', 'scope=company&event=employee_issued'))[0]!;
    const employeeSide = (await rowsOf('adminA', 'scope=employee&event=employee_issued'))[0]!;
    expect(companySide).toMatchObject({
      employee_id: null,
      counterparty_transaction_id: employeeSide.id,
      counterparty_employee_id: ea.id,
      counterparty_employee_number: ea.employee_id,
      counterparty_employee_name: ea.name,
    });
    expect(employeeSide).toMatchObject({
      employee_number: ea.employee_id,
      counterparty_transaction_id: companySide.id,
      counterparty_employee_id: null,
      company_code: a.code,
    });
    // Rows that are not transfers have none.
    const others = (await rowsOf('admin', `scope=company&company_id=${a.id}`)).filter(
      (r) => r.transfer_id === null,
    );
    expect(others.length).toBeGreaterThan(0);
    for (const row of others) expect(row.counterparty_transaction_id).toBeNull();
  });

  it('names the merchant of an order row and says the order is partially refunded', async () => {
    const rows = await rowsOf(
      'adminA',
      'scope=employee&event=order_purchased&event=order_refunded',
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toMatchObject({
        order_id: partly.id,
        merchant_id: till.merchantId,
        merchant_name: 'Shop',
        order_status: 'ordered',
        order_subtotal: 70,
        order_refunded_amount: 23,
        order_refund_state: 'partial',
      });
      expect(row.merchant_code).toMatch(/^M/);
    }
    const transfer = (await rowsOf('adminA', 'scope=employee&event=employee_issued'))[0]!;
    expect(transfer).toMatchObject({ order_refund_state: null, merchant_code: null });
  });

  it('still shows a merchant no balance, with its rows named', async () => {
    const rows = await rowsOf('merchant', '');
    expect(rows.map((r) => r.event).sort()).toEqual(['order_purchased', 'order_refunded']);
    for (const row of rows) {
      expect(row.balance_before).toBeNull();
      expect(row.balance_after).toBeNull();
      expect(row).toMatchObject({ company_code: a.code, order_refund_state: 'partial' });
    }
    const res = await injectAs(t.app, as.merchant!, {
      method: 'GET',
      url: '/api/v1/exports/transactions',
    });
    expect(csvOf(res.rawPayload).header).not.toContain('balance_before');
  });

  it('exports the company and merchant columns, enum cells in the caller’s language', async () => {
    const url = `/api/v1/exports/transactions?scope=employee&company_id=${a.id}`;
    const english = await injectAs(t.app, as.admin!, { method: 'GET', url });
    expect(english.statusCode, english.body).toBe(200);
    const en = csvOf(english.rawPayload);
    for (const column of [
      'company_code',
      'company_name',
      'merchant_code',
      'merchant_name',
      'refund_state',
    ]) {
      expect(en.header).toContain(column);
    }
    const purchase = en.rows.find((r) => r.event === 'Order purchased')!;
    expect(purchase).toMatchObject({
      company_code: a.code,
      merchant_name: 'Shop',
      direction: 'Sent',
      order_type: 'Dine in',
      order_status: 'Ordered',
      refund_state: 'Partially refunded',
    });
    expect(en.rows.find((r) => r.event === 'Order refunded')).toMatchObject({
      refund_reason: 'Item removed',
    });

    for (const zh of [
      await injectAs(t.app, as.admin!, {
        method: 'GET',
        url,
        headers: { 'accept-language': 'zh-CN,zh;q=0.9' },
      }),
      await injectAs(t.app, as.admin!, { method: 'GET', url: `${url}&lang=zh` }),
    ]) {
      expect(zh.statusCode, zh.body).toBe(200);
      const { header, rows } = csvOf(zh.rawPayload);
      // Headers stay the English field names scripts read; the cells are in Chinese.
      expect(header).toEqual(en.header);
      expect(rows.find((r) => r.event === '订单消费')).toMatchObject({
        direction: '发出',
        order_type: '堂食',
        order_status: '已下单',
        refund_state: '部分退款',
      });
    }
  });

  it('exports orders with their refund state and translated enums', async () => {
    const res = await injectAs(t.app, as.admin!, {
      method: 'GET',
      url: '/api/v1/exports/orders?refund_state=partial&lang=zh',
    });
    expect(res.statusCode, res.body).toBe(200);
    const { rows } = csvOf(res.rawPayload);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      order_no: partly.order_no,
      status: '已下单',
      refund_state: '部分退款',
      order_type: '堂食',
    });
  });
});
