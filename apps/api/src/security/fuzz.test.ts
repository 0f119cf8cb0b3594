// Property-based fuzzing of every endpoint (issue 7): bodies, query strings and path parameters
// generated from the contract's zod schemas, with hostile values mixed in at every level, sent by
// a role the route admits. Whatever arrives, the answer is a success or a refusal in the error
// envelope, never a 5xx, and the ledger invariants still hold afterwards.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import {
  can,
  dashboardQuerySchema,
  IDEMPOTENCY_KEY_HEADER,
  orderHistoryQuerySchema,
  topupCompanyBodySchema,
  transactionListQuerySchema,
  type Role,
} from '@app/contract';
import { createTestApp, type TestApp } from '../../test/app';
import {
  arbitraryFor,
  CURSOR_EDGES,
  DAY_EDGES,
  edgesFor,
  FUZZ_RUNS,
  HUGE_NUMBER,
  hostileValue,
  jsonSchemaOf,
  MONTH_EDGES,
  queryArbitrary,
  toJsonText,
  type JsonSchema,
} from '../../test/arbitraries';
import { createUser, injectAs, signIn, type TestSession } from '../../test/auth';
import { testDatabaseKinds } from '../../test/databases';
import { envelopeProblem, multipart } from '../../test/http';
import { assertLedgerInvariants } from '../../test/invariants';
import { newCompany, newMerchant, uniqueName } from '../../test/management';
import { buildProgramme, type Programme } from '../../test/reporting';
import type { RouteAccessRule } from '../plugins/auth';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const FUZZ_ROLES: Role[] = [
  'admin',
  'super_hr',
  'company_admin',
  'company_employee',
  'merchant_admin',
  'merchant_staff',
];

/** Path segments that are not ids: encoded so they reach the router as typed. */
const HOSTILE_SEGMENTS = [
  '0',
  '-1',
  '1.5',
  '1e3',
  'abc',
  '9007199254740992',
  '99999999999999999999999',
  '%20',
  '0x1f',
  '%00',
  '%2e%2e',
  '%C0%AF',
  '1%2F2',
  '%D9%A1',
];

const nameOf = (rule: RouteAccessRule) => `${rule.method} ${rule.url}`;

describe.each(await testDatabaseKinds())('fuzzing every endpoint on %s', (kind) => {
  let t: TestApp;
  let p: Programme;
  const sessions = new Map<Role, TestSession>();
  const credentials = new Map<Role, { username: string; password: string }>();
  /** Ids the fuzz may change or delete, per path base; never the fuzzing users' own. */
  let pools: Record<string, number[]>;

  beforeAll(async () => {
    // West of UTC, the end of 9999-12-31 falls in year 10000: the hardest case for a day filter.
    t = await createTestApp(kind, { APP_TIMEZONE: 'America/Los_Angeles' });
    p = await buildProgramme(t);
    const db = t.db.database.db;
    const make = async (role: Role, extra: Parameters<typeof createUser>[1]) => {
      const user = await createUser(db, extra);
      credentials.set(role, { username: user.username, password: user.password });
      return user;
    };
    await make('admin', { type: 'admin' });
    await make('super_hr', { type: 'super_hr' });
    await make('company_admin', { type: 'company_admin', companyId: p.a.id });
    await make('company_employee', {
      type: 'company_employee',
      companyId: p.a.id,
      employeeId: p.a1.employee_id,
    });
    await make('merchant_admin', { type: 'merchant_admin', merchantId: p.t1.merchantId });
    await make('merchant_staff', { type: 'merchant_staff', merchantId: p.t1.merchantId });
    const spareCompany = await newCompany(t);
    const spareMerchant = await newMerchant(t);
    const spareUser = await createUser(db, {
      type: 'merchant_admin',
      merchantId: spareMerchant.id,
    });
    const spareHr = await createUser(db, { type: 'super_hr', ...uniqueName('hr') });
    const spareCompanyAdmin = await createUser(db, {
      type: 'company_admin',
      companyId: spareCompany.id,
    });
    pools = {
      companies: [p.a.id, p.b.id, spareCompany.id],
      reports: [p.a.id, p.b.id],
      exports: [p.a.id, p.b.id],
      employees: [p.a2.id, p.b1.id, p.b2.id],
      merchants: [p.t2.merchantId, spareMerchant.id],
      terminals: [p.t2.identity.id, p.t1b.identity.id],
      users: [spareUser.id, spareHr.id],
      'companies/admin': [spareCompanyAdmin.id],
      orders: Object.values(p.orders),
    };
  });
  afterAll(() => t.close());

  /** Signs every fuzzing role in again whose session the fuzz has ended (or that has none yet). */
  async function refreshSessions(): Promise<void> {
    for (const role of FUZZ_ROLES) {
      const known = sessions.get(role);
      if (known) {
        const me = await injectAs(t.app, known, { url: '/api/v1/iam/self-info' });
        if (me.statusCode === 200) continue;
      }
      const { username, password } = credentials.get(role)!;
      sessions.set(role, await signIn(t.app, username, password));
    }
  }

  function poolFor(url: string): number[] {
    const rest = url.replace('/api/v1/', '');
    if (rest.startsWith('companies/admin')) return pools['companies/admin']!;
    if (rest.startsWith('orders')) return pools.orders!;
    return pools[rest.split('/')[0]!] ?? [];
  }

  const segment = (pool: number[]) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...(pool.length ? pool : [1])).map(String) },
      { weight: 1, arbitrary: fc.integer({ min: 10_000, max: 2 ** 31 }).map(String) },
      { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) },
    );

  const csvCell = fc.oneof(
    fc.string({ maxLength: 12 }),
    hostileValue.map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))),
  );
  const csvFile = fc.oneof(
    fc
      .array(fc.array(csvCell, { minLength: 1, maxLength: 5 }), { minLength: 0, maxLength: 6 })
      .map((rows) =>
        ['employee_id,email,name,status', ...rows.map((cells) => cells.join(','))].join('\r\n'),
      ),
    fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
    fc.string({ unit: 'binary', maxLength: 200 }),
  );

  /** One generated request for a route, as the caller it picks would send it. */
  function requestArbitrary(rule: RouteAccessRule) {
    const params = [...rule.url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
    const bodySchema = jsonSchemaOf(rule.schema?.body);
    const querySchema = jsonSchemaOf(rule.schema?.querystring);
    const roles = rule.permission ? FUZZ_ROLES.filter((r) => can(r, rule.permission!)) : [];
    const isImport = rule.url.startsWith('/api/v1/employees/import') && rule.method === 'POST';
    const body: fc.Arbitrary<unknown> = isImport
      ? csvFile
      : bodySchema
        ? arbitraryFor(bodySchema as JsonSchema)
        : fc.option(hostileValue, { freq: 2 });
    return fc.record({
      segments: fc.tuple(...params.map(() => segment(poolFor(rule.url))), fc.constant('')),
      query: queryArbitrary(querySchema),
      body,
      role: roles.length ? fc.constantFrom(...roles) : fc.constant(null),
      idempotencyKey: fc.oneof(fc.uuid(), fc.stringMatching(/^[\x21-\x7e]{0,250}$/)),
    });
  }

  async function send(
    rule: RouteAccessRule,
    generated: {
      segments: string[];
      query: string;
      body: unknown;
      role: Role | null;
      idempotencyKey: string;
    },
  ) {
    let i = 0;
    const path = rule.url.replace(/:(\w+)/g, () => generated.segments[i++]!);
    const url = generated.query ? `${path}?${generated.query}` : path;
    const method = rule.method as Method;
    const hasBody = method !== 'GET' && method !== 'DELETE';
    const isImport = rule.url.startsWith('/api/v1/employees/import');
    const payload =
      hasBody && generated.body !== undefined
        ? isImport && typeof generated.body !== 'object'
          ? multipart(generated.body as string)
          : isImport && Buffer.isBuffer(generated.body)
            ? multipart(generated.body)
            : {
                payload: toJsonText(generated.body),
                headers: { 'content-type': 'application/json' },
              }
        : { headers: {} };
    if (rule.terminal) {
      return t.app.inject({
        method,
        url,
        ...payload,
        headers: {
          ...payload.headers,
          authorization: `Bearer ${p.t1.key}`,
          [IDEMPOTENCY_KEY_HEADER]: generated.idempotencyKey,
        },
      });
    }
    if (!generated.role) return t.app.inject({ method, url, ...payload });
    return injectAs(t.app, sessions.get(generated.role)!, { method, url, ...payload });
  }

  it('answers every generated request with a success or an enveloped refusal, never a 5xx', async () => {
    const rules = t.app.accessRules
      .filter((r) => r.method !== 'HEAD')
      .sort((x, y) => rank(x) - rank(y));
    expect(rules.length).toBeGreaterThan(50);
    const failures: string[] = [];
    let sent = 0;
    for (const rule of rules) {
      await refreshSessions();
      let problem: string | null = null;
      try {
        await fc.assert(
          fc.asyncProperty(requestArbitrary(rule), async (generated) => {
            const res = await send(rule, generated);
            sent += 1;
            problem = envelopeProblem(res) ?? leak(res);
            if (problem) throw new Error(problem);
          }),
          { numRuns: FUZZ_RUNS, endOnFailure: true },
        );
      } catch (error) {
        // The answer that broke the contract, then fast-check's seed and counterexample.
        const report = (error as Error).message.split('\n').slice(0, 3).join(' ');
        failures.push(`${nameOf(rule)}: ${problem ?? ''} | ${report.slice(0, 1500)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(rules.length * FUZZ_RUNS);
    await assertLedgerInvariants(t.db.database.db);
  }, 240_000);

  it('meets every date, month, cursor and number edge in every such field of every route, as each role it admits', async () => {
    const rules = t.app.accessRules
      .filter((r) => r.method !== 'HEAD' && !r.url.startsWith('/api/v1/employees/import'))
      .sort((x, y) => rank(x) - rank(y));
    const failures: string[] = [];
    const reached = new Set<string>();
    for (const rule of rules) {
      await refreshSessions();
      const roles = rule.permission ? FUZZ_ROLES.filter((r) => can(r, rule.permission!)) : [];
      const query = jsonSchemaOf(rule.schema?.querystring)?.properties ?? {};
      const bodySchema = jsonSchemaOf(rule.schema?.body);
      const body = bodySchema?.properties ?? {};
      // A well-formed body to carry each edge, so an edge can reach the service.
      const base = bodySchema
        ? (fc.sample(arbitraryFor(bodySchema, { hostility: 0, extraKeys: false }), {
            numRuns: 1,
            seed: 14,
          })[0] as Record<string, unknown>)
        : {};
      const params = [...rule.url.matchAll(/:(\w+)/g)].map(() => String(poolFor(rule.url)[0] ?? 1));
      const edges = [
        ...Object.entries(query).flatMap(([key, s]) =>
          edgesFor(s).map((edge) => ({ query: { [key]: edge }, body: undefined })),
        ),
        ...Object.entries(body).flatMap(([key, s]) =>
          edgesFor(s).map((edge) => ({ query: {}, body: { ...base, [key]: edge } })),
        ),
      ];
      for (const [i, edge] of edges.entries()) {
        const [key, value] = Object.entries(edge.query)[0] ?? Object.entries(edge.body ?? {})[0]!;
        reached.add(String(value));
        const generated = {
          segments: [...params, ''],
          query: Object.entries(edge.query)
            .map(([k, v]) => `${k}=${encodeURIComponent(v === HUGE_NUMBER ? '1e400' : String(v))}`)
            .join('&'),
          body: edge.body,
          role: roles.length ? roles[i % roles.length]! : null,
          idempotencyKey: crypto.randomUUID(),
        };
        const res = await send(rule, generated);
        const problem = envelopeProblem(res) ?? leak(res);
        if (problem) failures.push(`${nameOf(rule)} ${key}=${String(value)}: ${problem}`);
      }
    }
    expect(failures).toEqual([]);
    // The edges of issue 14 were all sent somewhere.
    for (const edge of ['9999-12-31', '0000-01-01', '2026-02-31', '9999-12', HUGE_NUMBER]) {
      expect(reached, edge).toContain(edge);
    }
    await assertLedgerInvariants(t.db.database.db);
  }, 120_000);
});

describe('the fuzz generators', () => {
  it('produce the date, month, cursor and number edges in the fields that take them', () => {
    const seen = (schema: unknown, edges: readonly unknown[]) => {
      const samples = fc
        .sample(queryArbitrary(jsonSchemaOf(schema)), { numRuns: 3_000, seed: 14 })
        .join('&');
      return edges.filter((e) => samples.includes(encodeURIComponent(String(e))));
    };
    expect(seen(transactionListQuerySchema, DAY_EDGES)).toEqual(
      expect.arrayContaining(['9999-12-31', '0000-01-01', '1969-12-31', '2026-02-31']),
    );
    expect(seen(dashboardQuerySchema, MONTH_EDGES)).toEqual(expect.arrayContaining(['9999-12']));
    expect(seen(transactionListQuerySchema, CURSOR_EDGES).length).toBeGreaterThan(5);
    expect(seen(orderHistoryQuerySchema, CURSOR_EDGES).length).toBeGreaterThan(5);
    const bodies = fc
      .sample(arbitraryFor(jsonSchemaOf(topupCompanyBodySchema)!), { numRuns: 2_000, seed: 14 })
      .map(toJsonText);
    expect(bodies.some((b) => /"amount":1e400/.test(b))).toBe(true);
  });
});

/** A refusal that shows the server's insides: a stack frame, SQL, a source path. */
function leak(res: { statusCode: number; body: string }): string | null {
  if (res.statusCode < 400) return null;
  return /Failed query|\n\s+at |node_modules|\.ts:\d+|\bSELECT\b.+\bFROM\b|syntax error at/i.test(
    res.body,
  )
    ? `leaks internals: ${res.statusCode} ${res.body.slice(0, 300)}`
    : null;
}

/** Creations and edits first (so reads meet what they made), then reads, then retirements. */
function rank(rule: RouteAccessRule): number {
  if (rule.method === 'DELETE') return 3;
  if (rule.url.endsWith('/status') || rule.url.includes('rotate-key')) return 2;
  if (rule.method === 'GET') return 1;
  return 0;
}
