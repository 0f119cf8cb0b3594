// Cross-tenant probing over every readable endpoint (issue 7), extending ../access/: each
// tenant-scoped role (company admin, employee, the three merchant roles) calls every GET route it
// may call, with every path id and every query filter pointed at another tenant, and no answer may
// carry anything of that tenant. Then the writes a company admin can aim elsewhere, and the
// terminal API: another merchant's orders and another terminal's idempotency keys.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can, IDEMPOTENCY_KEY_HEADER, type Role } from '@app/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { jsonSchemaOf } from '../../test/arbitraries';
import { injectAs, type TestSession } from '../../test/auth';
import { testDatabaseKinds } from '../../test/databases';
import { envelopeProblem, multipart } from '../../test/http';
import { assertLedgerInvariants } from '../../test/invariants';
import { signedIn } from '../../test/management';
import { buildProgramme, type Programme } from '../../test/reporting';
import { queryRows } from '../db/client';
import type { RouteAccessRule } from '../plugins/auth';

interface Prober {
  role: Role;
  session: TestSession;
  /** Strings that only the other tenants' records contain. */
  foreign: string[];
  /** Ids of the other tenants' records, for path parameters. */
  foreignIds: number[];
  /** Query filter values pointing at the other tenants. */
  filters: Record<string, string[]>;
}

const nameOf = (rule: RouteAccessRule) => `${rule.method} ${rule.url}`;

describe.each(await testDatabaseKinds())('cross-tenant probing on %s', (kind) => {
  let t: TestApp;
  let p: Programme;
  let probers: Prober[];
  let orderNo: Record<number, string>;
  let terminalCode: Record<number, string>;
  let merchantCode: Record<number, string>;

  const terminalPost = (key: string, url: string, payload: object, idempotencyKey: string) =>
    t.app.inject({
      method: 'POST',
      url,
      payload,
      headers: { authorization: `Bearer ${key}`, [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
    });

  beforeAll(async () => {
    t = await createTestApp(kind, { APP_TIMEZONE: 'Asia/Shanghai' });
    p = await buildProgramme(t);
    const db = t.db.database.db;
    orderNo = Object.fromEntries(
      (
        await queryRows<{ id: number; order_no: string }>(
          db,
          sql`SELECT id::int, order_no FROM orders`,
        )
      ).map((o) => [o.id, o.order_no]),
    );
    terminalCode = Object.fromEntries(
      (
        await queryRows<{ id: number; code: string }>(db, sql`SELECT id::int, code FROM terminals`)
      ).map((r) => [r.id, r.code]),
    );
    merchantCode = Object.fromEntries(
      (
        await queryRows<{ id: number; code: string }>(db, sql`SELECT id::int, code FROM merchants`)
      ).map((r) => [r.id, r.code]),
    );
    const m2 = p.t2.merchantId;
    const t2 = p.t2.identity.id;
    // Company B as seen from company A: its code, its staff numbers and names.
    const companyB = [
      p.b.code,
      p.b1.employee_id,
      p.b2.employee_id,
      'Chen',
      'Dana',
      orderNo[p.orders.o4]!,
      orderNo[p.orders.o5]!,
    ];
    const companyFilters = {
      company_id: [String(p.b.id)],
      employee_id: [String(p.b1.id), p.b1.employee_id],
      search: [p.b.code, 'Chen'],
      order_no: [orderNo[p.orders.o4]!, orderNo[p.orders.o5]!],
    };
    // Merchant 2 as seen from merchant 1: its code, its terminal and the orders taken there.
    const merchant2 = [
      merchantCode[m2]!,
      terminalCode[t2]!,
      orderNo[p.orders.o2]!,
      orderNo[p.orders.o5]!,
    ];
    const merchantFilters = {
      merchant_id: [String(m2)],
      terminal_id: [String(t2)],
      order_no: [orderNo[p.orders.o2]!, orderNo[p.orders.o5]!],
    };
    const merchantUser = async (role: Role): Promise<Prober> => ({
      role,
      session: (await signedIn(t, role, { merchantId: p.t1.merchantId })).session,
      foreign: merchant2,
      foreignIds: [m2, t2, p.orders.o2, p.orders.o5],
      filters: merchantFilters,
    });
    probers = [
      {
        role: 'company_admin',
        session: (await signedIn(t, 'company_admin', { companyId: p.a.id })).session,
        foreign: companyB,
        foreignIds: [p.b.id, p.b1.id, p.b2.id, p.orders.o4, p.orders.o5],
        filters: companyFilters,
      },
      {
        role: 'company_employee',
        session: (
          await signedIn(t, 'company_employee', { companyId: p.a.id, employeeId: p.a1.employee_id })
        ).session,
        // An employee sees its own wallet only: its colleague is as foreign as company B.
        foreign: [...companyB, p.a2.employee_id, 'Bob', orderNo[p.orders.o3]!],
        foreignIds: [p.b.id, p.b1.id, p.a2.id, p.orders.o3, p.orders.o4],
        filters: {
          ...companyFilters,
          employee_id: [...companyFilters.employee_id, String(p.a2.id), p.a2.employee_id],
          search: [...companyFilters.search, 'Bob'],
        },
      },
      await merchantUser('merchant_admin'),
      await merchantUser('merchant_supervisor'),
      await merchantUser('merchant_staff'),
    ];
  });
  afterAll(() => t.close());

  /** Every URL a prober tries on a route: each foreign id in the path, each foreign filter alone and all at once. */
  function probeUrls(rule: RouteAccessRule, prober: Prober): string[] {
    const paths = rule.url.includes(':')
      ? prober.foreignIds.map((id) => rule.url.replace(/:\w+/g, String(id)))
      : [rule.url];
    const accepted = Object.keys(jsonSchemaOf(rule.schema?.querystring)?.properties ?? {});
    const pairs = Object.entries(prober.filters)
      .filter(([key]) => accepted.includes(key))
      .flatMap(([key, values]) => values.map((v) => `${key}=${encodeURIComponent(v)}`));
    const months = accepted.includes('month') ? ['month=2026-01', 'month=2026-02'] : [''];
    const queries = ['', ...pairs, pairs.join('&')].flatMap((q) =>
      months.map((m) => [q, m].filter(Boolean).join('&')),
    );
    return paths.flatMap((path) => [...new Set(queries)].map((q) => (q ? `${path}?${q}` : path)));
  }

  it('shows no tenant anything of another through any readable endpoint, path id or filter', async () => {
    const reads = t.app.accessRules.filter((r) => r.method === 'GET' && r.permission);
    const failures: string[] = [];
    let probes = 0;
    let answered = 0;
    for (const prober of probers) {
      for (const rule of reads.filter((r) => can(prober.role, r.permission!))) {
        for (const url of probeUrls(rule, prober)) {
          const res = await injectAs(t.app, prober.session, { url });
          probes += 1;
          const problem = envelopeProblem(res);
          if (problem) failures.push(`${prober.role} ${url}: ${problem}`);
          if (res.statusCode === 200) answered += 1;
          const leaked = prober.foreign.filter((marker) => res.body.includes(marker));
          if (leaked.length > 0) {
            failures.push(`${prober.role} ${nameOf(rule)} ${url} shows ${leaked.join(', ')}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(probes).toBeGreaterThan(100);
    // Many probes are answered (filtered to the caller's own data), not merely refused.
    expect(answered).toBeGreaterThan(probes / 3);
  });

  it('sees its own tenant through the same endpoints (the markers are real)', async () => {
    // A company admin of B and merchant 2's admin see exactly what the probes looked for.
    const adminB = (await signedIn(t, 'company_admin', { companyId: p.b.id })).session;
    const employees = await injectAs(t.app, adminB, { url: '/api/v1/exports/employees' });
    for (const marker of [p.b1.employee_id, p.b2.employee_id, 'Chen', 'Dana']) {
      expect(employees.body).toContain(marker);
    }
    const m2 = (await signedIn(t, 'merchant_admin', { merchantId: p.t2.merchantId })).session;
    const rows = await injectAs(t.app, m2, { url: '/api/v1/exports/transactions' });
    expect(rows.body).toContain(orderNo[p.orders.o5]!);
  });

  describe('the terminal API', () => {
    it('answers a refund of another merchant’s order exactly as one of an order that does not exist', async () => {
      const probe = (orderId: number) =>
        terminalPost(
          p.t2.key,
          `/api/v1/orders/${orderId}/refund`,
          { reason: 'cancelled' },
          crypto.randomUUID(),
        );
      const foreign = await probe(p.orders.o6);
      const missing = await probe(987_654_321);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual(missing.json());
      expect(Object.values(orderNo).every((no) => no.length >= 6)).toBe(true);
      expect(foreign.json().code).toBe('ORDER_NOT_FOUND');
      // Its own merchant's order is found: o5, taken at t2, was refunded already.
      const own = await probe(p.orders.o5);
      expect(own.json().code).toBe('ORDER_ALREADY_REFUNDED');
    });

    it('keeps idempotency keys per terminal: another terminal’s key replays nothing of its answer', async () => {
      const key = crypto.randomUUID();
      const body = {
        company_code: p.a.code,
        employee_id: p.a1.employee_id,
        order_type: 'dine_in',
        items: [{ name: 'Tea', quantity: 1, unit_tokens: 1 }],
      };
      const first = await terminalPost(p.t1.key, '/api/v1/orders', body, key);
      expect(first.statusCode).toBe(201);
      const replay = await terminalPost(p.t1.key, '/api/v1/orders', body, key);
      expect(replay.json()).toEqual(first.json());
      // Merchant 2's terminal presenting the same key gets an order of its own, not t1's answer.
      const other = await terminalPost(p.t2.key, '/api/v1/orders', body, key);
      expect(other.statusCode).toBe(201);
      expect(other.json().data.id).not.toBe(first.json().data.id);
      expect(other.json().data.terminal_id).toBe(p.t2.identity.id);
      expect(other.json().data.merchant_id).toBe(p.t2.merchantId);
      // And t2 cannot refund t1's order with t1's refund key either.
      const refundKey = crypto.randomUUID();
      const refundUrl = `/api/v1/orders/${first.json().data.id}/refund`;
      expect(
        (await terminalPost(p.t1.key, refundUrl, { reason: 'cancelled' }, refundKey)).statusCode,
      ).toBe(200);
      const stolen = await terminalPost(p.t2.key, refundUrl, { reason: 'cancelled' }, refundKey);
      expect(stolen.statusCode).toBe(404);
      expect(stolen.json().code).toBe('ORDER_NOT_FOUND');
      await assertLedgerInvariants(t.db.database.db);
    });
  });

  // Last: an import (with deactivate_missing) may deactivate the company's own employees.
  it('does not let a company admin create or import into another company', async () => {
    const adminA = probers[0]!.session;
    const countIn = async (companyId: number) =>
      (
        await queryRows<{ n: number }>(
          t.db.database.db,
          sql`SELECT count(*)::int AS n FROM employees WHERE company_id = ${companyId}`,
        )
      )[0]!.n;
    const inB = await countIn(p.b.id);
    const inA = await countIn(p.a.id);
    const create = await injectAs(t.app, adminA, {
      method: 'POST',
      url: '/api/v1/employees',
      payload: { company_id: p.b.id, employee_id: 'PLANTED1', status: 'active' },
    });
    expect(create.statusCode).toBe(404);
    expect(create.json().code).toBe('RECORD_NOT_FOUND');
    // A company_id form field beside the file is ignored: the session decides the company.
    const imported = await injectAs(t.app, adminA, {
      method: 'POST',
      url: '/api/v1/employees/import',
      ...multipart('employee_id,name\nPLANTED2,Planted\n', {
        fields: { company_id: String(p.b.id) },
      }),
    });
    expect(imported.statusCode).toBeLessThan(500);
    expect(await countIn(p.b.id)).toBe(inB);
    if (imported.statusCode === 200) expect(await countIn(p.a.id)).toBeGreaterThanOrEqual(inA);
    const planted = await queryRows(
      t.db.database.db,
      sql`SELECT id FROM employees WHERE company_id = ${p.b.id} AND employee_id LIKE 'PLANTED%'`,
    );
    expect(planted).toEqual([]);
  });
});
