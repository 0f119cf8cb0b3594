import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Company, Employee, OrderHistoryList } from '@app/contract';
import { orderSortedCursor } from '@app/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { createUser, requestsAs } from '../../test/auth';
import { testDatabaseKinds } from '../../test/databases';
import { newTerminal, order } from '../../test/ledger';
import { signedIn } from '../../test/management';
import { createCompany } from '../modules/companies';
import { createEmployee } from '../modules/employees';
import { createMerchant } from '../modules/merchants';
import { distributeToEmployees } from '../modules/tokens';

interface Listed {
  id: number;
}

/** Issue 19: the sortable lists sort on the server, by an allow-listed column, ties by id. */
describe.each(await testDatabaseKinds())('sorted lists on %s', (kind) => {
  let t: TestApp;
  let admin: ReturnType<typeof requestsAs>;
  let companyAdmin: ReturnType<typeof requestsAs>;
  let company: Company;
  const companies: Company[] = [];
  const employees: Employee[] = [];
  const orders: { id: number; subtotal: number; order_no: string }[] = [];

  const ok = async <T>(url: string, as = admin): Promise<T> => {
    const res = await as.get(url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as T;
  };
  const ids = (rows: Listed[]) => rows.map((row) => row.id);

  beforeAll(async () => {
    t = await createTestApp(kind);
    const deps = t.app.deps;
    t.clock.set('2026-03-01T08:00:00Z');
    // Names out of case order, two equal ones (a tie the id must break).
    for (const [code, name, initToken] of [
      ['SRTA', 'bravo sortco', 300],
      ['SRTB', 'Alpha sortco', 100],
      ['SRTC', 'Charlie sortco', 200],
      ['SRTD', 'alpha sortco', 100],
      ['SRTE', 'Delta sortco', 50],
    ] as const) {
      companies.push(
        await createCompany(deps, null, {
          code,
          name,
          status: 'active',
          monthly_reset_day: 1,
          init_token: initToken,
          employee_monthly_tokens: 0,
        }),
      );
    }
    company = companies[0]!;
    for (const [staff, name] of [
      ['E3', 'Zoe'],
      ['E1', null],
      ['E2', 'adam'],
      ['E4', 'Mia'],
    ] as const) {
      employees.push(
        await createEmployee(
          deps,
          { kind: 'company', companyId: company.id },
          { employee_id: staff, status: 'active', ...(name ? { name } : {}) },
        ),
      );
    }
    await distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, {
      items: [
        { employee_id: employees[0]!.id, amount: 40 },
        { employee_id: employees[1]!.id, amount: 200 },
        { employee_id: employees[2]!.id, amount: 40 },
        { employee_id: employees[3]!.id, amount: 10 },
      ],
    });
    for (const [code, name] of [
      ['MSRTB', 'Noodle sortco'],
      ['MSRTA', 'bakery sortco'],
      ['MSRTC', 'Coffee sortco'],
    ] as const) {
      await createMerchant(deps, { code, name, status: 'active' });
    }
    for (const username of ['sort.carol', 'Sort.alice', 'sort.bob']) {
      await createUser(t.db.database.db, { type: 'super_hr', username });
    }
    // Eleven orders, subtotals with ties (3 × 5, 4 × 7), to page across ties with a cursor.
    const terminal = await newTerminal(deps);
    for (const [i, amount] of [7, 5, 9, 7, 5, 1, 7, 5, 7, 12, 3].entries()) {
      t.clock.set(`2026-03-02T10:${String(i).padStart(2, '0')}:00Z`);
      const placed = await order(deps, terminal, company, employees[1]!, amount);
      orders.push({ id: placed.id, subtotal: amount, order_no: placed.order_no });
    }
    t.clock.set('2026-03-03T08:00:00Z');
    admin = requestsAs(t.app, (await signedIn(t, 'admin')).session);
    companyAdmin = requestsAs(
      t.app,
      (await signedIn(t, 'company_admin', { companyId: company.id })).session,
    );
  });
  afterAll(() => t.close());

  it('sorts companies by name ignoring case, ties by id, and reverses for desc', async () => {
    const asc = await ok<{ data: Company[] }>('/api/v1/companies?search=sortco&sort=name');
    const alphas = companies.filter((c) => c.name.toLowerCase() === 'alpha sortco');
    expect(ids(asc.data)).toEqual([
      ...ids(alphas).sort((a, b) => a - b),
      companies[0]!.id,
      companies[2]!.id,
      companies[4]!.id,
    ]);
    const desc = await ok<{ data: Company[] }>(
      '/api/v1/companies?search=sortco&sort=name&order=desc',
    );
    expect(ids(desc.data)).toEqual(ids(asc.data).reverse());
  });

  it('sorts companies by a number column and pages without a gap or a repeat', async () => {
    const seen: number[] = [];
    for (const page of [1, 2, 3]) {
      const res = await ok<{ data: Company[]; total: number }>(
        `/api/v1/companies?search=sortco&sort=init_token&order=desc&page_size=10&page=${page}`,
      );
      // Pages of 10 over 5 rows: one page, then empty ones.
      seen.push(...ids(res.data));
      expect(res.total).toBe(5);
    }
    const expected = [...companies]
      .sort((a, b) => b.init_token - a.init_token || b.id - a.id)
      .map((c) => c.id);
    expect(seen).toEqual(expected);
  });

  it('sorts employees by balance and by name, empty names last either way', async () => {
    const byBalance = await ok<{ data: Employee[] }>(
      '/api/v1/employees?sort=available_tokens&order=desc',
      companyAdmin,
    );
    expect(byBalance.data.map((e) => [e.employee_id, e.available_tokens])).toEqual([
      ['E1', 132],
      ['E2', 40],
      ['E3', 40],
      ['E4', 10],
    ]);
    const byName = await ok<{ data: Employee[] }>('/api/v1/employees?sort=name', companyAdmin);
    expect(byName.data.map((e) => e.name)).toEqual(['adam', 'Mia', 'Zoe', null]);
    const byNameDesc = await ok<{ data: Employee[] }>(
      '/api/v1/employees?sort=name&order=desc',
      companyAdmin,
    );
    expect(byNameDesc.data.map((e) => e.name)).toEqual(['Zoe', 'Mia', 'adam', null]);
  });

  it('sorts merchants by code and users by username', async () => {
    const merchants = await ok<{ data: { code: string }[] }>(
      '/api/v1/merchants?search=sortco&sort=code',
    );
    expect(merchants.data.map((m) => m.code)).toEqual(['MSRTA', 'MSRTB', 'MSRTC']);
    const users = await ok<{ data: { username: string }[] }>(
      '/api/v1/users?search=sort.&sort=username&order=desc',
    );
    expect(users.data.map((u) => u.username)).toEqual(['sort.carol', 'sort.bob', 'Sort.alice']);
  });

  it('refuses a column outside the allow-list, or an unknown order, with the 400 envelope', async () => {
    for (const url of [
      '/api/v1/companies?sort=password_hash',
      '/api/v1/companies?sort=name&order=sideways',
      '/api/v1/employees?sort=id;drop',
      '/api/v1/merchants?sort=deleted_at',
      '/api/v1/users?sort=password',
      '/api/v1/orders/admin?sort=employee_name',
    ]) {
      const res = await (url.startsWith('/api/v1/employees') ? companyAdmin : admin).get(url);
      expect(res.statusCode, url).toBe(400);
      const body = res.json() as { code: string; metadata: Record<string, string> };
      expect(body.code, url).toBe('QUERY_PARAM_INVALID');
      expect(Object.keys(body.metadata), url).toEqual([url.includes('order=') ? 'order' : 'sort']);
    }
  });

  it.each(['asc', 'desc'] as const)(
    'pages the order history by subtotal %s with a cursor, across ties, without a gap or a repeat',
    async (direction) => {
      const expected = [...orders]
        .sort((a, b) =>
          direction === 'asc'
            ? a.subtotal - b.subtotal || a.id - b.id
            : b.subtotal - a.subtotal || b.id - a.id,
        )
        .map((o) => o.id);
      const seen: number[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const list: OrderHistoryList = await ok<OrderHistoryList>(
          `/api/v1/orders/admin?sort=subtotal&order=${direction}&page_size=10${
            cursor ? `&cursor=${cursor}` : ''
          }`,
        );
        seen.push(...ids(list.data));
        cursor = list.next_cursor;
        pages += 1;
      } while (cursor && pages < 10);
      expect(pages).toBe(2);
      expect(seen).toEqual(expected);
      // Offset pages agree with the cursor.
      const second = await ok<OrderHistoryList>(
        `/api/v1/orders/admin?sort=subtotal&order=${direction}&page_size=10&page=2`,
      );
      expect(ids(second.data)).toEqual(expected.slice(10));
    },
  );

  it('pages the order history by order number with a cursor', async () => {
    const expected = [...orders]
      .sort((a, b) => (a.order_no < b.order_no ? 1 : a.order_no > b.order_no ? -1 : b.id - a.id))
      .map((o) => o.id);
    const first = await ok<OrderHistoryList>(
      '/api/v1/orders/admin?sort=order_no&order=desc&page_size=10',
    );
    const second = await ok<OrderHistoryList>(
      `/api/v1/orders/admin?sort=order_no&order=desc&page_size=10&cursor=${first.next_cursor}`,
    );
    expect([...ids(first.data), ...ids(second.data)]).toEqual(expected);
    expect(second.next_cursor).toBeNull();
  });

  it('refuses a cursor made for another sort, or the default cursor under a sort', async () => {
    const bySubtotal = await ok<OrderHistoryList>(
      '/api/v1/orders/admin?sort=subtotal&page_size=10',
    );
    const plain = await ok<OrderHistoryList>('/api/v1/orders/admin?page_size=10');
    const forged = orderSortedCursor.encode(['subtotal', 'asc', 'not a number', 1]);
    for (const query of [
      `sort=order_no&cursor=${bySubtotal.next_cursor}`,
      `sort=subtotal&order=desc&cursor=${bySubtotal.next_cursor}`,
      `cursor=${bySubtotal.next_cursor}`,
      `sort=subtotal&cursor=${plain.next_cursor}`,
      `sort=subtotal&cursor=${forged}`,
    ]) {
      const res = await admin.get(`/api/v1/orders/admin?page_size=10&${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toMatchObject({
        code: 'QUERY_PARAM_INVALID',
        metadata: { cursor: expect.any(String) },
      });
    }
    // The default order's cursor still pages the default order, and its equal sort.
    const next = await admin.get(
      `/api/v1/orders/admin?page_size=10&sort=ordered_at&order=desc&cursor=${plain.next_cursor}`,
    );
    expect(next.statusCode, next.body).toBe(200);
  });
});
