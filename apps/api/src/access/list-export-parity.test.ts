// One scope rule (issue 13): a list and its export hold exactly the same rows for the same query.
// Every role that may read a list calls it (every page) and its CSV export with the same filters,
// alone and combined, and must get the same status and the same ids in the same order.
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can, ROLES, type Permission, type Role } from '@app/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { injectAs, type TestSession } from '../../test/auth';
import { testDatabaseKinds } from '../../test/databases';
import { signedIn } from '../../test/management';
import { buildProgramme, type Programme } from '../../test/reporting';
import { queryRows } from '../db/client';
import { createEmployee } from '../modules/employees';

interface Pair {
  name: string;
  permission: Permission;
  list: string;
  export: string;
  /** How the list pages: a cursor (`next_cursor`) or page numbers (`total`). */
  paging: 'cursor' | 'page';
  /** The id of a list row, and the CSV column holding it. */
  listId: string;
  csvId: string;
  filters: (p: Programme, orderNo: string) => string[];
}

const PAIRS: Pair[] = [
  {
    name: 'transactions',
    permission: 'tokens.transactions',
    list: '/api/v1/tokens/transactions?limit=7',
    export: '/api/v1/exports/transactions?',
    paging: 'cursor',
    listId: 'id',
    csvId: 'id',
    filters: (p) => [
      '',
      'scope=company',
      'scope=employee',
      `company_id=${p.a.id}`,
      `company_id=${p.b.id}`,
      `employee_id=${p.a1.id}`,
      'event=order_purchased&event=order_refunded',
      'event=employee_issued',
      'type=sent',
      'date_from=2026-02-01',
      'date_to=2026-01-20',
      `scope=employee&company_id=${p.a.id}&type=received&date_from=2026-01-16`,
    ],
  },
  {
    name: 'orders',
    permission: 'orders.admin',
    list: '/api/v1/orders/admin?page_size=10',
    export: '/api/v1/exports/orders?',
    paging: 'page',
    listId: 'id',
    csvId: 'id',
    filters: (p, orderNo) => [
      '',
      'status=refunded',
      `company_id=${p.a.id}`,
      `merchant_id=${p.t1.merchantId}`,
      `terminal_id=${p.t1b.identity.id}`,
      `employee_id=${p.a1.id}`,
      `order_no=${orderNo}`,
      'date_from=2026-02-01',
      `company_id=${p.a.id}&status=ordered&date_to=2026-01-31`,
    ],
  },
  {
    name: 'employees',
    permission: 'employees.read',
    list: '/api/v1/employees?page_size=10',
    export: '/api/v1/exports/employees?',
    paging: 'page',
    listId: 'id',
    csvId: 'id',
    filters: (p) => [
      '',
      `company_id=${p.a.id}`,
      `company_id=${p.b.id}`,
      'status=inactive',
      'search=li',
      `company_id=${p.b.id}&status=active`,
    ],
  },
  {
    name: 'summary report',
    permission: 'summary_report.view',
    list: '/api/v1/reports/summary?page_size=10',
    export: '/api/v1/exports/summary?',
    paging: 'page',
    listId: 'company_id',
    csvId: 'company_id',
    filters: (p) => ['', 'month=2026-01', `company_id=${p.b.id}`, `search=${p.a.code}`],
  },
  {
    name: 'company report',
    permission: 'summary_report.company.view',
    list: '/api/v1/reports/summary/A?page_size=10',
    export: '/api/v1/exports/summary/A?',
    paging: 'page',
    listId: 'id',
    csvId: 'id',
    filters: () => ['', 'month=2026-01', 'status=inactive', 'search=a'],
  },
  {
    // Decision 0036: the admin all, Group HR the company side, a company admin its company.
    name: 'audit log',
    permission: 'audit.read',
    list: '/api/v1/audit-log?page_size=10',
    export: '/api/v1/exports/audit-log?',
    paging: 'page',
    listId: 'id',
    csvId: 'id',
    filters: (p) => [
      '',
      'entity_type=company',
      `entity_type=company&entity_id=${p.a.id}`,
      'entity_type=employee',
      'action=sign_in',
      'action=create&sort=entity_type&order=desc',
      'sort=actor_username',
      'date_from=2020-01-01&date_to=2099-12-31&sort=occurred_at&order=asc',
    ],
  },
];

describe.each(await testDatabaseKinds())('lists and their exports on %s', (kind) => {
  let t: TestApp;
  let p: Programme;
  let orderNo: string;
  const sessions = {} as Record<Role, TestSession>;

  beforeAll(async () => {
    t = await createTestApp(kind, { APP_TIMEZONE: 'Asia/Shanghai' });
    p = await buildProgramme(t);
    // More employees than a page, so the lists page.
    for (let i = 0; i < 12; i += 1) {
      await createEmployee(
        t.app.deps,
        { kind: 'company', companyId: p.a.id },
        { employee_id: `X${i}`, name: `Extra ${i}`, status: 'active' },
      );
    }
    const [o1] = await queryRows<{ order_no: string }>(
      t.db.database.db,
      sql`SELECT order_no FROM orders WHERE id = ${p.orders.o1}`,
    );
    orderNo = o1!.order_no;
    const tenant: Record<Role, object> = {
      admin: {},
      super_hr: {},
      company_admin: { companyId: p.a.id },
      company_employee: { companyId: p.a.id, employeeId: p.a1.employee_id },
      merchant_admin: { merchantId: p.t1.merchantId },
      merchant_supervisor: { merchantId: p.t1.merchantId },
      merchant_staff: { merchantId: p.t1.merchantId },
    };
    for (const role of ROLES) sessions[role] = (await signedIn(t, role, tenant[role])).session;
  });
  afterAll(() => t.close());

  /** Every row id of a list, following its pages; or its error status. */
  async function listIds(role: Role, pair: Pair, url: string): Promise<number[] | number> {
    const ids: number[] = [];
    for (let page = 1, cursor: string | null = null; ; page += 1) {
      const pageUrl =
        pair.paging === 'cursor'
          ? `${url}${cursor ? `&cursor=${cursor}` : ''}`
          : `${url}&page=${page}`;
      const res = await injectAs(t.app, sessions[role], { url: pageUrl });
      if (res.statusCode !== 200) return res.statusCode;
      const body = res.json() as {
        data: Record<string, number>[];
        next_cursor?: string | null;
        total?: number;
      };
      ids.push(...body.data.map((row) => row[pair.listId]!));
      if (pair.paging === 'cursor' ? !body.next_cursor : ids.length >= body.total!) return ids;
      if (body.data.length === 0) throw new Error(`${pageUrl}: an empty page before the total`);
      cursor = body.next_cursor ?? null;
    }
  }

  async function exportIds(role: Role, pair: Pair, url: string): Promise<number[] | number> {
    const res = await injectAs(t.app, sessions[role], { url });
    if (res.statusCode !== 200) return res.statusCode;
    const rows = parse(res.body, { bom: true, columns: true }) as Record<string, string>[];
    return rows.map((row) => Number(row[pair.csvId]));
  }

  it.each(PAIRS.map((pair) => [pair.name, pair] as const))(
    '%s: the export holds the list’s rows, in its order, for every role and filter',
    async (_name, pair) => {
      let compared = 0;
      let nonEmpty = 0;
      for (const role of ROLES.filter((r) => can(r, pair.permission))) {
        for (const companyId of pair.list.includes('/A?') ? [p.a.id, p.b.id] : [0]) {
          const path = (url: string) => url.replace('/A?', `/${companyId}?`);
          for (const filter of pair.filters(p, orderNo)) {
            const listed = await listIds(role, pair, `${path(pair.list)}&${filter}`);
            const exported = await exportIds(role, pair, `${path(pair.export)}${filter}`);
            expect(exported, `${role} ${pair.name} ${companyId || ''} ?${filter}`).toEqual(listed);
            compared += 1;
            if (Array.isArray(listed) && listed.length > 0) nonEmpty += 1;
          }
        }
      }
      // The comparison is not vacuous: most queries return rows.
      expect(compared).toBeGreaterThan(3);
      expect(nonEmpty).toBeGreaterThan(compared / 3);
    },
  );
});
