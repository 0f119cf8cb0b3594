// The merchant view (DESIGN 2, issue 13): a merchant's staff sees the purchase and refund rows of
// its own terminals' orders, with order, staff number and name, and nothing of any wallet. Each
// merchant role walks every GET route it may call (lists, details, exports, dashboards, reports),
// with its own ids in the path and with each filter, and no answer may carry a balance or an
// unused amount that is not null, nor a ledger row that is not an employee's purchase or refund.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { can, TOKEN_EVENTS, type Role } from '@app/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { jsonSchemaOf } from '../../test/arbitraries';
import { injectAs, type TestSession } from '../../test/auth';
import { testDatabaseKinds } from '../../test/databases';
import { signedIn } from '../../test/management';
import { buildProgramme, type Programme } from '../../test/reporting';
import { queryRows } from '../db/client';
import type { RouteAccessRule } from '../plugins/auth';

const MERCHANT_ROLES = ['merchant_admin', 'merchant_supervisor', 'merchant_staff'] as const;
/** A field that tells something of a wallet: its balance, what is left of it, what is unused. */
const WALLET_FIELD = /balance|unused|available|remaining/i;
/** Fields that match the pattern but tell nothing of a wallet: the caller's own sign-in. */
const NOT_WALLET_FIELDS = new Set(['recovery_codes_remaining']);
/** The only ledger events a merchant may read. */
const MERCHANT_EVENTS = new Set<string>(['order_purchased', 'order_refunded']);
const LEDGER_EVENTS = new Set<string>(TOKEN_EVENTS);

/** Every problem with one JSON answer: a wallet field with a value, a ledger row not of an order. */
function jsonProblems(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => jsonProblems(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  const record = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const [key, field] of Object.entries(record)) {
    if (
      WALLET_FIELD.test(key) &&
      !NOT_WALLET_FIELDS.has(key) &&
      field !== null &&
      typeof field !== 'object'
    ) {
      problems.push(`${path}.${key} = ${JSON.stringify(field)}`);
    }
  }
  const event = record.event;
  if (typeof event === 'string' && LEDGER_EVENTS.has(event) && 'direction' in record) {
    if (!MERCHANT_EVENTS.has(event)) problems.push(`${path} is a ${event} row`);
    if (record.employee_id == null) problems.push(`${path} is a company-wallet row`);
  }
  return [
    ...problems,
    ...Object.entries(record).flatMap(([k, v]) => jsonProblems(v, `${path}.${k}`)),
  ];
}

/** Every problem with one CSV answer: a wallet column, a row of a type a merchant may not read. */
function csvProblems(body: string): string[] {
  const [header = [], ...rows] = parse(body, { bom: true }) as string[][];
  const problems = header.filter((c) => WALLET_FIELD.test(c)).map((c) => `column ${c}`);
  const eventColumn = header.indexOf('event');
  const employeeColumn = header.indexOf('employee_id');
  for (const row of eventColumn >= 0 ? rows : []) {
    const event = row[eventColumn] ?? '';
    if (LEDGER_EVENTS.has(event) && !MERCHANT_EVENTS.has(event)) problems.push(`a ${event} row`);
    if (employeeColumn >= 0 && !row[employeeColumn]) problems.push(`a company-wallet row`);
  }
  return problems;
}

describe.each(await testDatabaseKinds())('the merchant view on %s', (kind) => {
  let t: TestApp;
  let p: Programme;
  let sessions: Record<(typeof MERCHANT_ROLES)[number], TestSession>;
  let ownOrders: number[];

  beforeAll(async () => {
    t = await createTestApp(kind, { APP_TIMEZONE: 'Asia/Shanghai' });
    p = await buildProgramme(t);
    ownOrders = (
      await queryRows<{ id: number }>(
        t.db.database.db,
        sql`SELECT id::int FROM orders WHERE merchant_id = ${p.t1.merchantId} ORDER BY id`,
      )
    ).map((o) => o.id);
    sessions = {
      merchant_admin: (await signedIn(t, 'merchant_admin', { merchantId: p.t1.merchantId }))
        .session,
      merchant_supervisor: (
        await signedIn(t, 'merchant_supervisor', { merchantId: p.t1.merchantId })
      ).session,
      merchant_staff: (await signedIn(t, 'merchant_staff', { merchantId: p.t1.merchantId }))
        .session,
    };
  });
  afterAll(() => t.close());

  /** The URLs a merchant tries on a route: its own ids in the path, each filter alone. */
  function urls(rule: RouteAccessRule): string[] {
    const ids = [p.t1.merchantId, p.t1.identity.id, p.t1b.identity.id, ...ownOrders];
    const paths = rule.url.includes(':')
      ? ids.map((id) => rule.url.replace(/:\w+/g, String(id)))
      : [rule.url];
    const accepted = Object.keys(jsonSchemaOf(rule.schema?.querystring)?.properties ?? {});
    const filters: Record<string, string[]> = {
      scope: ['company', 'employee'],
      month: ['2026-01', '2026-02'],
      event: ['order_purchased', 'company_issued', 'employee_issued', 'monthly_tokens_reset'],
      type: ['received', 'sent'],
      company_id: [String(p.a.id), String(p.b.id)],
      employee_id: [String(p.a1.id), p.a1.employee_id],
      status: ['ordered', 'refunded'],
    };
    const queries = [
      '',
      ...Object.entries(filters)
        .filter(([key]) => accepted.includes(key))
        .flatMap(([key, values]) => values.map((v) => `${key}=${encodeURIComponent(v)}`)),
    ];
    return paths.flatMap((path) => queries.map((q) => (q ? `${path}?${q}` : path)));
  }

  it.each(MERCHANT_ROLES)(
    'shows %s no balance, no unused amount and no wallet row on any endpoint it may call',
    async (role: Role) => {
      const session = sessions[role as (typeof MERCHANT_ROLES)[number]];
      const reads = t.app.accessRules.filter(
        (r) => r.method === 'GET' && r.permission && can(role, r.permission),
      );
      const failures: string[] = [];
      const answered = new Set<string>();
      let csvRows = 0;
      for (const rule of reads) {
        for (const url of urls(rule)) {
          const res = await injectAs(t.app, session, { url });
          expect(res.statusCode, url).toBeLessThan(500);
          if (res.statusCode !== 200) continue;
          answered.add(`${rule.method} ${rule.url}`);
          const type = String(res.headers['content-type'] ?? '');
          if (type.includes('json')) {
            failures.push(...jsonProblems(res.json()).map((f) => `${url}: ${f}`));
          } else if (type.includes('csv')) {
            csvRows += res.body.split(/\r?\n/).filter(Boolean).length - 1;
            failures.push(...csvProblems(res.body).map((f) => `${url}: ${f}`));
          }
        }
      }
      expect(failures).toEqual([]);
      // The walk reached the ledger, its export, the dashboard and the reports, with rows in them.
      for (const route of [
        'GET /api/v1/tokens/transactions',
        'GET /api/v1/exports/transactions',
        'GET /api/v1/dashboard',
      ]) {
        expect(answered, route).toContain(route);
      }
      expect(answered.size).toBeGreaterThanOrEqual(5);
      expect(csvRows).toBeGreaterThan(0);
    },
  );

  it('gives a merchant its own orders’ rows, with order, staff number and name, and null balances', async () => {
    const res = await injectAs(t.app, sessions.merchant_staff, {
      url: '/api/v1/tokens/transactions?limit=100',
    });
    expect(res.statusCode).toBe(200);
    const rows = res.json().data as Array<Record<string, unknown>>;
    // Merchant 1 took o1, o3, o4 and o6 (and refunded o1 in part and o3 in full).
    expect(rows.filter((r) => r.event === 'order_purchased')).toHaveLength(4);
    expect(rows.filter((r) => r.event === 'order_refunded')).toHaveLength(2);
    for (const row of rows) {
      expect(row.balance_before ?? null).toBeNull();
      expect(row.balance_after ?? null).toBeNull();
      expect(row.order_no).toEqual(expect.any(String));
      expect(row.employee_number).toEqual(expect.any(String));
    }
    expect(rows.map((r) => r.employee_name)).toContain('Alice');
    // The same walker finds a balance in what the company admin sees: it is not blind.
    const admin = (await signedIn(t, 'company_admin', { companyId: p.a.id })).session;
    const adminRows = await injectAs(t.app, admin, { url: '/api/v1/tokens/transactions' });
    expect(jsonProblems(adminRows.json()).length).toBeGreaterThan(0);
    const adminCsv = await injectAs(t.app, admin, { url: '/api/v1/exports/transactions' });
    expect(csvProblems(adminCsv.body).length).toBeGreaterThan(0);
  });
});
