// CSRF over every cookie-authenticated write (issue 7): each POST, PUT, PATCH and DELETE route,
// called with a live session cookie and a body that would succeed, is refused with 403
// CSRF_INVALID when X-XSRF-TOKEN is missing, belongs to another session, is made up, or merely
// matches an XSRF-TOKEN cookie the attacker planted; nothing changes, and the session survives.
// The same request with the session's own token gets past the check. And no GET changes any
// session row (DESIGN 4): the token is derived from the session, so a second tab keeps working.
import crypto from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can, type Role } from '@app/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { arbitraryFor, jsonSchemaOf } from '../../test/arbitraries';
import { createUser, injectAs, type TestSession } from '../../test/auth';
import { testDatabaseKinds } from '../../test/databases';
import { multipart } from '../../test/http';
import { newMerchant, signedIn } from '../../test/management';
import { buildProgramme, type Programme } from '../../test/reporting';
import { queryRows } from '../db/client';
import type { RouteAccessRule } from '../plugins/auth';

type Method = 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const ROLES_BY_PREFERENCE: Role[] = [
  'admin',
  'company_admin',
  'super_hr',
  // The routes only they may call: an employee's pay devices, the merchant's till (DESIGN 8).
  'company_employee',
  'merchant_admin',
];
const nameOf = (rule: RouteAccessRule) => `${rule.method} ${rule.url}`;

describe.each(await testDatabaseKinds())('CSRF on every write on %s', (kind) => {
  let t: TestApp;
  let p: Programme;
  const sessions = new Map<Role, TestSession>();
  let other: TestSession;
  let ids: Record<string, number>;

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
    other = (await signedIn(t, 'admin')).session;
    const merchant = await newMerchant(t);
    const db = t.db.database.db;
    ids = {
      companies: p.a.id,
      employees: p.a2.id,
      merchants: merchant.id,
      terminals: p.t1b.identity.id,
      users: (await createUser(db, { type: 'merchant_admin', merchantId: merchant.id })).id,
      'companies/admin': (await createUser(db, { type: 'company_admin', companyId: p.b.id })).id,
    };
  });
  afterAll(() => t.close());

  const footprint = async () =>
    JSON.stringify(
      await queryRows(
        t.db.database.db,
        sql`SELECT (SELECT count(*) FROM audit_log)::int AS audit,
                   (SELECT count(*) FROM token_transactions)::int AS ledger,
                   (SELECT count(*) FROM sessions)::int AS sessions,
                   (SELECT string_agg(id || status || coalesce(deleted_at::text, ''), ',' ORDER BY id) FROM users) AS users,
                   (SELECT string_agg(id || status || coalesce(deleted_at::text, ''), ',' ORDER BY id) FROM employees) AS employees,
                   (SELECT string_agg(id || status || name, ',' ORDER BY id) FROM companies) AS companies,
                   (SELECT string_agg(id || status || name || api_key_hash, ',' ORDER BY id) FROM terminals) AS terminals`,
      ),
    );

  function idFor(url: string): number {
    const rest = url.replace('/api/v1/', '');
    if (rest.startsWith('companies/admin')) return ids['companies/admin']!;
    return ids[rest.split('/')[0]!] ?? 1;
  }

  /** A request that would go through: real ids in the path, a body the schema accepts. */
  function requestFor(rule: RouteAccessRule) {
    const url = rule.url.replace(/:\w+/g, String(idFor(rule.url)));
    if (rule.url.startsWith('/api/v1/employees/import')) {
      return { url, ...multipart('employee_id,name\nCSRF01,Forged\n') };
    }
    const schema = jsonSchemaOf(rule.schema?.body);
    if (!schema) return { url, headers: {} as Record<string, string> };
    const object = schema.anyOf?.find((s) => s.type === 'object') ?? schema;
    const [payload] = fc.sample(arbitraryFor(object, { hostility: 0, extraKeys: false }), {
      seed: 42,
      numRuns: 1,
    });
    return { url, payload: payload as object, headers: {} as Record<string, string> };
  }

  it('refuses every cookie write without the session’s own X-XSRF-TOKEN, changing nothing', async () => {
    const writes = t.app.accessRules.filter(
      (r) => WRITE_METHODS.has(r.method) && !r.terminal && r.url !== '/api/v1/iam/login',
    );
    expect(writes.length).toBeGreaterThan(30);
    const before = await footprint();
    const failures: string[] = [];
    for (const rule of writes) {
      const role = rule.permission
        ? ROLES_BY_PREFERENCE.find((r) => can(r, rule.permission!))!
        : 'admin';
      const session = sessions.get(role)!;
      const request = requestFor(rule);
      const planted = crypto.randomBytes(32).toString('base64url');
      const attempts: [string, Record<string, string>][] = [
        ['no header', { cookie: session.cookie }],
        ['another session’s token', { cookie: session.cookie, 'x-xsrf-token': other.xsrf }],
        ['a made-up token', { cookie: session.cookie, 'x-xsrf-token': planted }],
        [
          'a planted XSRF-TOKEN cookie echoed',
          {
            cookie: `${session.sessionCookie.name}=${session.sessionCookie.value}; XSRF-TOKEN=${planted}`,
            'x-xsrf-token': planted,
          },
        ],
        ['the token in the wrong header', { cookie: session.cookie, 'x-csrf-token': session.xsrf }],
      ];
      for (const [what, headers] of attempts) {
        const res = await t.app.inject({
          method: rule.method as Method,
          ...request,
          headers: { ...request.headers, ...headers },
        });
        const code = res.statusCode === 403 ? (res.json() as { code?: string }).code : undefined;
        if (code !== 'CSRF_INVALID') {
          failures.push(
            `${nameOf(rule)} with ${what} → ${res.statusCode} ${res.body.slice(0, 120)}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await footprint()).toBe(before);
    // Every session is still alive: a forged sign-out signed nobody out.
    for (const session of [...sessions.values(), other]) {
      expect((await injectAs(t.app, session, { url: '/api/v1/iam/self-info' })).statusCode).toBe(
        200,
      );
    }

    // The control: with the session's own token each of these requests passes the check.
    const passed: string[] = [];
    for (const rule of writes.filter((r) => r.url !== '/api/v1/iam/logout')) {
      // A public write (the second sign-in step) is checked like any other when a session exists.
      const role = rule.permission
        ? ROLES_BY_PREFERENCE.find((r) => can(r, rule.permission!))!
        : 'admin';
      const request = requestFor(rule);
      const res = await injectAs(t.app, sessions.get(role)!, {
        method: rule.method as Method,
        ...request,
      });
      if (!(res.statusCode === 403 && res.json().code === 'CSRF_INVALID'))
        passed.push(nameOf(rule));
    }
    expect(passed).toHaveLength(writes.length - 1);
    expect(await footprint()).not.toBe(before);
  });

  it('changes no session row on any GET, so a second tab’s token keeps working', async () => {
    const session = (await signedIn(t, 'admin')).session;
    const sidOnly = `${session.sessionCookie.name}=${session.sessionCookie.value}`;
    const sessionRows = async () =>
      JSON.stringify(await queryRows(t.db.database.db, sql`SELECT * FROM sessions ORDER BY 1`));
    const gets = t.app.accessRules.filter((r) => r.method === 'GET' && !r.terminal);
    expect(gets.length).toBeGreaterThan(20);

    const before = await sessionRows();
    for (const rule of gets) {
      // Another tab without the XSRF-TOKEN cookie, and this tab with it.
      for (const cookie of [sidOnly, session.cookie]) {
        await t.app.inject({ method: 'GET', url: requestFor(rule).url, headers: { cookie } });
      }
    }
    expect(await sessionRows()).toBe(before);

    // The first tab's token still opens a write (sign-out, CSRF-checked with a live session).
    const res = await injectAs(t.app, session, { method: 'POST', url: '/api/v1/iam/logout' });
    expect(res.statusCode).toBe(200);
    expect((await injectAs(t.app, session, { url: '/api/v1/iam/self-info' })).statusCode).toBe(401);
  });
});
