// Mass assignment and server-side caps (issue 7): on every write route, a field the route does not
// declare (token_balance, type, company_id, …) is refused with BODY_INVALID naming it, at the top
// level and inside items, and nothing is written; JSON that tries to pollute prototypes is refused;
// every page size and every export is capped by the server whatever the client asks.
import crypto from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can, IDEMPOTENCY_KEY_HEADER, type Role } from '@app/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { arbitraryFor, jsonSchemaOf, type JsonSchema } from '../../test/arbitraries';
import { injectAs, type TestSession } from '../../test/auth';
import { testDatabaseKinds } from '../../test/databases';
import { envelopeProblem } from '../../test/http';
import { newMerchant, signedIn } from '../../test/management';
import { buildProgramme, type Programme } from '../../test/reporting';
import { queryRows } from '../db/client';
import type { RouteAccessRule } from '../plugins/auth';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Fields a client must never set where a route does not offer them. */
const FORBIDDEN = [
  'token_balance',
  'available_tokens',
  'type',
  'company_id',
  'merchant_id',
  'id',
  'user_id',
  'password_hash',
  'created_at',
  'is_admin',
];
const NOT_ALLOWED = 'Remove this field';
const ROLES_BY_PREFERENCE: Role[] = [
  'admin',
  'company_admin',
  'super_hr',
  // The routes only they may call: an employee's pay devices, the merchant's till (DESIGN 8).
  'company_employee',
  'merchant_admin',
];

const nameOf = (rule: RouteAccessRule) => `${rule.method} ${rule.url}`;

/**
 * A route's address with its parameters filled from the programme: a merchant's statement is its
 * merchant and the half-month of its January orders (decision 0040); every other id the first
 * company's.
 */
const addressOf = (rule: RouteAccessRule, p: Programme) =>
  rule.url
    .replace(':merchant_id', String(p.t1.merchantId))
    .replace(':period_start', '2026-01-16')
    .replace(/:\w+/g, String(p.a.id));

describe.each(await testDatabaseKinds())('mass assignment and caps on %s', (kind) => {
  let t: TestApp;
  let p: Programme;
  const sessions = new Map<Role, TestSession>();

  beforeAll(async () => {
    t = await createTestApp(kind, { APP_TIMEZONE: 'Asia/Shanghai' });
    p = await buildProgramme(t);
    sessions.set('admin', (await signedIn(t, 'admin')).session);
    sessions.set('super_hr', (await signedIn(t, 'super_hr')).session);
    sessions.set(
      'company_admin',
      (await signedIn(t, 'company_admin', { companyId: p.a.id })).session,
    );
    sessions.set(
      'company_employee',
      (await signedIn(t, 'company_employee', { companyId: p.a.id, employeeId: p.a2.employee_id }))
        .session,
    );
    sessions.set(
      'merchant_admin',
      (await signedIn(t, 'merchant_admin', { merchantId: p.t1.merchantId })).session,
    );
  });
  afterAll(() => t.close());

  /** Everything a write could touch, to compare before and after. */
  const footprint = async () =>
    JSON.stringify(
      await queryRows(
        t.db.database.db,
        sql`SELECT (SELECT count(*) FROM audit_log)::int AS audit,
                   (SELECT count(*) FROM token_transactions)::int AS ledger,
                   (SELECT count(*) FROM users)::int AS users,
                   (SELECT count(*) FROM employees)::int AS employees,
                   (SELECT count(*) FROM companies)::int AS companies,
                   (SELECT count(*) FROM merchants)::int AS merchants,
                   (SELECT count(*) FROM terminals)::int AS terminals,
                   (SELECT count(*) FROM orders)::int AS orders,
                   (SELECT string_agg(token_balance::text || status, ',' ORDER BY id) FROM companies) AS c,
                   (SELECT string_agg(available_tokens::text || status, ',' ORDER BY id) FROM employees) AS e`,
      ),
    );

  /**
   * A body the route's schema accepts (deterministic), to add one forbidden field to: the route's
   * documented example where it has one, else a sample of its schema.
   */
  function validBody(schema: JsonSchema): Record<string, unknown> {
    const { example } = schema as { example?: unknown };
    if (example && typeof example === 'object' && !Array.isArray(example)) {
      return structuredClone(example) as Record<string, unknown>;
    }
    const [sample] = fc.sample(arbitraryFor(schema, { hostility: 0, extraKeys: false }), {
      seed: 7,
      numRuns: 1,
    });
    return (sample ?? {}) as Record<string, unknown>;
  }

  function call(rule: RouteAccessRule, payload: object) {
    const url = rule.url.replace(/:\w+/g, String(p.orders.o6));
    const method = rule.method as Method;
    if (rule.terminal) {
      return t.app.inject({
        method,
        url,
        payload,
        headers: {
          authorization: `Bearer ${p.t1.key}`,
          [IDEMPOTENCY_KEY_HEADER]: crypto.randomUUID(),
        },
      });
    }
    const role = ROLES_BY_PREFERENCE.find((r) => rule.permission && can(r, rule.permission));
    if (!role) return t.app.inject({ method, url, payload });
    return injectAs(t.app, sessions.get(role)!, { method, url, payload });
  }

  it('refuses a field a write route does not declare with BODY_INVALID naming it, writing nothing', async () => {
    const before = await footprint();
    const writes = t.app.accessRules.filter(
      (r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && jsonSchemaOf(r.schema?.body),
    );
    expect(writes.length).toBeGreaterThan(20);
    const failures: string[] = [];
    let checked = 0;
    for (const rule of writes) {
      const schema = jsonSchemaOf(rule.schema?.body)!;
      const object = schema.anyOf?.find((s) => s.type === 'object') ?? schema;
      const declared = new Set(Object.keys(object.properties ?? {}));
      const base = validBody(object);
      for (const field of FORBIDDEN.filter((f) => !declared.has(f))) {
        const res = await call(rule, { ...base, [field]: field === 'type' ? 'admin' : 1 });
        checked += 1;
        const body = res.json() as { code?: string; metadata?: Record<string, string> };
        if (res.statusCode !== 400 || body.code !== 'BODY_INVALID') {
          failures.push(`${nameOf(rule)} + ${field} → ${res.statusCode} ${res.body.slice(0, 150)}`);
        } else if (body.metadata?.[field] !== NOT_ALLOWED) {
          failures.push(`${nameOf(rule)} + ${field}: metadata ${JSON.stringify(body.metadata)}`);
        }
      }
      // Inside a list of items too.
      const items = object.properties?.items?.items;
      if (items && Array.isArray(base.items) && base.items.length > 0) {
        const nested = { ...base, items: [{ ...base.items[0], token_balance: 1 }] };
        const res = await call(rule, nested);
        checked += 1;
        if (res.json().metadata?.['items.0.token_balance'] !== NOT_ALLOWED) {
          failures.push(`${nameOf(rule)} items.0.token_balance → ${res.body.slice(0, 150)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(150);
    expect(await footprint()).toBe(before);
  });

  it('refuses JSON that tries to pollute prototypes, and no object is polluted', async () => {
    const admin = sessions.get('admin')!;
    for (const payload of [
      `{"company_id":${p.a.id},"amount":1,"__proto__":{"type":"admin"}}`,
      `{"company_id":${p.a.id},"amount":1,"constructor":{"prototype":{"type":"admin"}}}`,
      `{"items":[{"employee_id":${p.a1.id},"amount":1,"__proto__":{"amount":-5}}]}`,
    ]) {
      const res = await injectAs(t.app, admin, {
        method: 'POST',
        url: '/api/v1/tokens/topup-token',
        payload,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json().code, payload).toBe('BODY_INVALID');
    }
    expect(({} as Record<string, unknown>).type).toBeUndefined();
    const query = await injectAs(t.app, admin, {
      url: '/api/v1/companies?__proto__[type]=admin&constructor[prototype][type]=admin',
    });
    expect(query.statusCode).toBeLessThan(500);
    expect(({} as Record<string, unknown>).type).toBeUndefined();
  });

  it('caps the page size of every paged list at 50, refusing anything else', async () => {
    // More merchants than the biggest page.
    for (let i = 0; i < 55; i += 1) await newMerchant(t);
    const lists = t.app.accessRules.filter((r) => {
      const query = jsonSchemaOf(r.schema?.querystring);
      return r.method === 'GET' && query?.properties?.page_size !== undefined;
    });
    expect(lists.length).toBeGreaterThan(10);
    const failures: string[] = [];
    for (const rule of lists) {
      const url = addressOf(rule, p);
      const role = ROLES_BY_PREFERENCE.find((r) => can(r, rule.permission!))!;
      for (const size of ['51', '100', '1000', '1000000', '0', '-1', '10.5', '1e3']) {
        const res = await injectAs(t.app, sessions.get(role)!, {
          url: `${url}?page_size=${size}`,
        });
        const body = res.json() as { code?: string; metadata?: Record<string, string> };
        if (
          res.statusCode !== 400 ||
          body.code !== 'QUERY_PARAM_INVALID' ||
          !body.metadata?.page_size
        ) {
          failures.push(
            `${nameOf(rule)} page_size=${size} → ${res.statusCode} ${res.body.slice(0, 100)}`,
          );
        }
      }
      const fifty = await injectAs(t.app, sessions.get(role)!, { url: `${url}?page_size=50` });
      if (fifty.statusCode !== 200 || (fifty.json().data as unknown[]).length > 50) {
        failures.push(`${nameOf(rule)} page_size=50 → ${fifty.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
    const merchants = await injectAs(t.app, sessions.get('admin')!, {
      url: '/api/v1/merchants?page_size=50',
    });
    expect(merchants.json().data).toHaveLength(50);
    expect(merchants.json().total).toBeGreaterThan(55);
  });

  it('caps the cursor-paged ledger at 100 rows a page', async () => {
    const admin = sessions.get('admin')!;
    for (const limit of ['101', '100000', '0', '-5', '2.5']) {
      const res = await injectAs(t.app, admin, {
        url: `/api/v1/tokens/transactions?limit=${limit}`,
      });
      expect(res.statusCode, limit).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'QUERY_PARAM_INVALID',
        metadata: { limit: expect.any(String) },
      });
    }
    const ok = await injectAs(t.app, admin, { url: '/api/v1/tokens/transactions?limit=100' });
    expect(ok.statusCode).toBe(200);
    expect((ok.json().data as unknown[]).length).toBeLessThanOrEqual(100);
  });
});

describe.each(await testDatabaseKinds())('export caps on %s', (kind) => {
  let t: TestApp;
  let p: Programme;
  let admin: TestSession;

  beforeAll(async () => {
    t = await createTestApp(kind, { APP_TIMEZONE: 'Asia/Shanghai', EXPORT_MAX_ROWS: '1' });
    p = await buildProgramme(t);
    admin = (await signedIn(t, 'admin')).session;
  });
  afterAll(() => t.close());

  it('refuses every export larger than EXPORT_MAX_ROWS before sending any CSV', async () => {
    const exports = t.app.accessRules.filter(
      (r) => r.method === 'GET' && r.url.startsWith('/api/v1/exports/'),
    );
    expect(exports).toHaveLength(8);
    for (const rule of exports) {
      // Every export of the programme holds at least two rows: two companies, their employees,
      // the audit rows of making them, a merchant's orders of a half-month, …
      const path = addressOf(rule, p);
      const url = path.includes('/summary') ? `${path}?month=2026-01` : path;
      const res = await injectAs(t.app, admin, { url });
      expect(res.statusCode, url).toBe(422);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      expect(res.json(), url).toMatchObject({ code: 'EXPORT_TOO_LARGE' });
      expect(envelopeProblem(res)).toBeNull();
    }
  });
});
