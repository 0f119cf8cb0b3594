import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Company, Employee, OrderDetail, OrderHistoryList } from '@app/contract';
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
import { encodeOrderCursor } from './order-history.service';

interface Placed {
  id: number;
  company: number;
  employee: number;
  merchant: number;
  terminal: number;
  at: string;
  status: 'ordered' | 'refunded';
}

describe.each(await testDatabaseKinds())('order history on %s', (kind) => {
  let t: TestApp;
  let a: Company;
  let b: Company;
  let ea: Employee;
  let eb: Employee;
  let t1: TestTerminal;
  let t1b: TestTerminal;
  let t2: TestTerminal;
  const placed: Placed[] = [];
  const as: Record<string, TestSession> = {};

  const get = (who: string, url: string) =>
    who === 'anonymous'
      ? t.app.inject({ method: 'GET', url })
      : injectAs(t.app, as[who]!, { method: 'GET', url });
  const list = async (query: string): Promise<OrderHistoryList> => {
    const res = await get('admin', `/api/v1/orders/admin?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as OrderHistoryList;
  };
  /** The expected ids, newest first and ties in order of creation. */
  const newestFirst = (orders: Placed[]) =>
    [...orders].sort((x, y) => y.at.localeCompare(x.at) || x.id - y.id).map((o) => o.id);

  beforeAll(async () => {
    t = await createTestApp(kind);
    const deps = t.app.deps;
    t.clock.set('2026-03-01T08:00:00Z');
    a = await newCompany(deps, { initToken: 10_000 });
    b = await newCompany(deps, { initToken: 10_000 });
    ea = await newEmployee(deps, a.id);
    eb = await newEmployee(deps, b.id);
    t1 = await newTerminal(deps);
    t1b = await newTerminal(deps, t1.merchantId);
    t2 = await newTerminal(deps);
    for (const [company, employee] of [
      [a, ea],
      [b, eb],
    ] as const) {
      await distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, {
        items: [{ employee_id: employee.id, amount: 5_000 }],
      });
    }
    // 14 orders over 7 days, two at each instant (a tie), across companies and terminals.
    const terminals = [t1, t1b, t2];
    for (let i = 0; i < 14; i += 1) {
      const at = `2026-03-${String(2 + Math.floor(i / 2)).padStart(2, '0')}T10:00:00.000Z`;
      t.clock.set(at);
      const [company, employee] = i % 2 === 0 ? [a, ea] : [b, eb];
      const terminal = terminals[i % 3]!;
      const o = await order(deps, terminal, company, employee, 10 + i);
      placed.push({
        id: o.id,
        company: company.id,
        employee: employee.id,
        merchant: terminal.merchantId,
        terminal: terminal.identity.id,
        at,
        status: 'ordered',
      });
    }
    // Order 0 partly refunded (still ordered), orders 3 and 7 fully refunded.
    t.clock.set('2026-03-09T12:00:00Z');
    await refund(deps, t1, placed[0]!.id, 'item_removed', 4);
    await refund(deps, t1, placed[3]!.id, 'cancelled');
    await refund(deps, t1b, placed[7]!.id, 'item_removed', 10 + 7);
    placed[3]!.status = 'refunded';
    placed[7]!.status = 'refunded';

    as.admin = (await signedIn(t, 'admin')).session;
    as.hr = (await signedIn(t, 'super_hr')).session;
    as.adminA = (await signedIn(t, 'company_admin', { companyId: a.id })).session;
    as.employee = (
      await signedIn(t, 'company_employee', { companyId: a.id, employeeId: ea.employee_id })
    ).session;
    as.merchant = (await signedIn(t, 'merchant_admin', { merchantId: t1.merchantId })).session;
  });
  afterAll(() => t.close());

  it('lists every order newest first, ties in order of creation, with names to show', async () => {
    const res = await list('page_size=50');
    expect(res.data.map((o) => o.id)).toEqual(newestFirst(placed));
    expect(res).toMatchObject({ total: 14, total_is_exact: true, next_cursor: null });
    const first = res.data.find((o) => o.id === placed[0]!.id)!;
    expect(first).toMatchObject({
      status: 'ordered',
      subtotal: 10,
      refunded_amount: 4,
      company_id: a.id,
      company_code: a.code,
      company_name: a.name,
      employee_id: ea.employee_id,
      employee_internal_id: ea.id,
      merchant_id: t1.merchantId,
      terminal_id: t1.identity.id,
      order_type: 'dine_in',
      items: [{ name: 'Meal', quantity: 1, unit_tokens: 10 }],
      ordered_at: '2026-03-02T10:00:00.000Z',
      last_refunded_at: '2026-03-09T12:00:00.000Z',
    });
    expect(first.terminal_code).toMatch(/^T/);
    expect(first.merchant_name).toBe('Shop');
  });

  it('filters by status: refunded only when fully refunded', async () => {
    const refunded = await list('status=refunded&page_size=50');
    expect(refunded.data.map((o) => o.id)).toEqual(
      newestFirst(placed.filter((o) => o.status === 'refunded')),
    );
    const ordered = await list('status=ordered&page_size=50');
    expect(ordered.data.map((o) => o.id)).toEqual(
      newestFirst(placed.filter((o) => o.status === 'ordered')),
    );
    expect(ordered.data.every((o) => o.status === 'ordered')).toBe(true);
  });

  it('derives a refund state, partial when some but not all came back, and filters by it', async () => {
    const all = await list('page_size=50');
    const stateOf = (id: number) => all.data.find((o) => o.id === id)!.refund_state;
    // Order 0: 4 of 10 refunded, yet its status stays `ordered` (DESIGN 3.3 invariant 4).
    expect(all.data.find((o) => o.id === placed[0]!.id)).toMatchObject({
      status: 'ordered',
      refund_state: 'partial',
    });
    expect(stateOf(placed[3]!.id)).toBe('full');
    expect(stateOf(placed[7]!.id)).toBe('full');
    expect(stateOf(placed[1]!.id)).toBe('none');

    const partial = await list('refund_state=partial&page_size=50');
    expect(partial.data.map((o) => o.id)).toEqual([placed[0]!.id]);
    expect(partial.total).toBe(1);
    const full = await list('refund_state=full&page_size=50');
    expect(full.data.map((o) => o.id)).toEqual(
      newestFirst(placed.filter((o) => o.status === 'refunded')),
    );
    const none = await list('refund_state=none&page_size=50');
    expect(none.total).toBe(14 - 3);
    expect((await get('admin', '/api/v1/orders/admin?refund_state=some')).statusCode).toBe(400);

    const detail = await get('admin', `/api/v1/orders/admin/${placed[0]!.id}`);
    expect(detail.json().data).toMatchObject({ refund_state: 'partial' });
  });

  it('filters by company, merchant, terminal and employee', async () => {
    const cases: [string, (o: Placed) => boolean][] = [
      [`company_id=${b.id}`, (o) => o.company === b.id],
      [`merchant_id=${t1.merchantId}`, (o) => o.merchant === t1.merchantId],
      [`terminal_id=${t1b.identity.id}`, (o) => o.terminal === t1b.identity.id],
      [`employee_id=${ea.id}`, (o) => o.employee === ea.id],
      [
        `company_id=${a.id}&merchant_id=${t1.merchantId}&status=ordered`,
        (o) => o.company === a.id && o.merchant === t1.merchantId && o.status === 'ordered',
      ],
    ];
    for (const [query, keep] of cases) {
      const res = await list(`${query}&page_size=50`);
      expect(
        res.data.map((o) => o.id),
        query,
      ).toEqual(newestFirst(placed.filter(keep)));
      expect(res.total, query).toBe(placed.filter(keep).length);
    }
  });

  it('finds an order by its number', async () => {
    const all = await list('page_size=50');
    const target = all.data[5]!;
    const res = await list(`order_no=${target.order_no}`);
    expect(res.data.map((o) => o.id)).toEqual([target.id]);
  });

  it('filters by a date range of whole days, both ends included', async () => {
    const res = await list('date_from=2026-03-03&date_to=2026-03-04&page_size=50');
    expect(res.data.map((o) => o.id)).toEqual(
      newestFirst(placed.filter((o) => o.at >= '2026-03-03' && o.at < '2026-03-05')),
    );
    expect(res.total).toBe(4);
    expect((await list('date_from=2026-03-08')).total).toBe(2);
    expect((await list('date_to=2026-03-01')).total).toBe(0);
  });

  it('pages by page and page_size, and by cursor to the same rows', async () => {
    const expected = newestFirst(placed);
    const page1 = await list('page_size=10&page=1');
    const page2 = await list('page_size=10&page=2');
    expect(page1.data.map((o) => o.id)).toEqual(expected.slice(0, 10));
    expect(page2.data.map((o) => o.id)).toEqual(expected.slice(10));
    expect(page1.total).toBe(14);
    expect(page2.next_cursor).toBeNull();
    expect(page1.next_cursor).toEqual(expect.any(String));
    const byCursor = await list(`page_size=10&cursor=${page1.next_cursor}`);
    expect(byCursor.data.map((o) => o.id)).toEqual(expected.slice(10));
    expect(byCursor.next_cursor).toBeNull();
    // After any order, ties included, the cursor continues with exactly the orders after it.
    for (let k = 0; k < expected.length; k += 1) {
      const shown = page1.data[k] ?? page2.data[k - 10]!;
      const cursor = encodeOrderCursor({
        orderedAt: shown.ordered_at.replace('Z', '000Z'),
        id: shown.id,
      });
      const after = await list(`page_size=50&cursor=${cursor}`);
      expect(
        after.data.map((o) => o.id),
        `after #${k}`,
      ).toEqual(expected.slice(k + 1));
    }
  });

  it('shows an order with its items and refunds', async () => {
    const res = await get('hr', `/api/v1/orders/admin/${placed[7]!.id}`);
    expect(res.statusCode).toBe(200);
    const detail = res.json().data as OrderDetail;
    expect(detail).toMatchObject({
      id: placed[7]!.id,
      status: 'refunded',
      subtotal: 17,
      refunded_amount: 17,
      items: [{ name: 'Meal', quantity: 1, unit_tokens: 17 }],
      purchase_transaction_id: expect.any(Number),
      refunds: [
        {
          amount: 17,
          reason: 'item_removed',
          terminal_id: t1b.identity.id,
          occurred_at: '2026-03-09T12:00:00.000Z',
          transaction_id: expect.any(Number),
        },
      ],
    });
    const open = (await get('admin', `/api/v1/orders/admin/${placed[1]!.id}`)).json().data;
    expect(open).toMatchObject({ status: 'ordered', refunds: [] });
    const missing = await get('admin', '/api/v1/orders/admin/999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'ORDER_NOT_FOUND' });
  });

  it('rejects bad filters with the field named', async () => {
    for (const [query, field] of [
      ['status=cancelled', 'status'],
      ['page_size=15', 'page_size'],
      ['date_from=2026-02-30', 'date_from'],
      ['date_from=2026-03-05&date_to=2026-03-04', 'date_to'],
      ['cursor=not-a-cursor', 'cursor'],
      ['company_id=abc', 'company_id'],
    ]) {
      const res = await get('admin', `/api/v1/orders/admin?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toMatchObject({ code: 'QUERY_PARAM_INVALID' });
      expect(res.json().metadata, query).toHaveProperty(field!);
    }
  });

  it('is for admin and Group HR only', async () => {
    for (const who of ['adminA', 'employee', 'merchant']) {
      for (const url of ['/api/v1/orders/admin', `/api/v1/orders/admin/${placed[0]!.id}`]) {
        const res = await get(who, url);
        expect(res.statusCode, `${who} ${url}`).toBe(403);
        expect(res.json()).toMatchObject({ code: 'PERMISSION_DENIED' });
      }
    }
    expect((await get('anonymous', '/api/v1/orders/admin')).statusCode).toBe(401);
    expect((await get('hr', '/api/v1/orders/admin')).statusCode).toBe(200);
  });

  it('leaves the terminal order API where it was', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/orders',
      headers: { authorization: `Bearer ${t2.key}`, 'idempotency-key': 'history-test' },
      payload: {
        company_code: a.code,
        employee_id: ea.employee_id,
        order_type: 'takeaway',
        items: [{ name: 'Tea', quantity: 1, unit_tokens: 1 }],
      },
    });
    expect(res.statusCode).toBe(201);
  });
});
