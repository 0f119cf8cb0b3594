// The role × endpoint matrix (issue 4), generated from the routes the app registers and the
// contract's permission table: every /api/v1 route is called by no one and by each of the seven
// roles, and must answer what PERMISSIONS says. A route added later joins the matrix by itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can, PERMISSIONS, ROLES, type Role } from '@app/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { injectAs } from '../../test/auth';
import { testDatabaseKinds } from '../../test/databases';
import { oneOfEachRole, type SignedInUser } from '../../test/management';
import type { RouteAccessRule } from '../plugins/auth';

/** The only routes anyone may call without a session. Adding one means adding it here. */
const PUBLIC_ROUTES = [
  'POST /api/v1/iam/login',
  'POST /api/v1/iam/login/mfa',
  'POST /api/v1/iam/logout',
  // The one-time set-password link of an invitation (decision 0025).
  'POST /api/v1/iam/invitations/lookup',
  'POST /api/v1/iam/invitations/accept',
  // OIDC sign-in (decision 0086): the sign-in page's lookup, the start and the provider's return.
  'GET /api/v1/iam/oidc/providers',
  'HEAD /api/v1/iam/oidc/providers',
  'GET /api/v1/iam/oidc/:provider_id/start',
  'HEAD /api/v1/iam/oidc/:provider_id/start',
  'GET /api/v1/iam/oidc/callback',
  'HEAD /api/v1/iam/oidc/callback',
];
/** The terminal API: an API key and nothing else. */
const TERMINAL_ROUTES = [
  'POST /api/v1/orders',
  'POST /api/v1/orders/:id/refund',
  // DESIGN 7 and 8: the dry run, and a till's lost answer found again.
  'POST /api/v1/orders/check',
  'GET /api/v1/orders',
  'GET /api/v1/orders/:id',
  'HEAD /api/v1/orders',
  'HEAD /api/v1/orders/:id',
];

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A URL for the route: every path parameter an id that does not exist (so nothing is changed). */
const urlOf = (rule: RouteAccessRule) => rule.url.replace(/:\w+/g, '987654');
/** The error code of a JSON answer (a CSV export or a HEAD answer has none). */
const codeOf = (res: { headers: Record<string, unknown>; body: string }): string | undefined =>
  String(res.headers['content-type'] ?? '').includes('json') && res.body
    ? (JSON.parse(res.body) as { code?: string }).code
    : undefined;
const nameOf = (rule: RouteAccessRule) => `${rule.method} ${rule.url}`;
const request = (rule: RouteAccessRule) => ({
  method: rule.method as Method,
  url: urlOf(rule),
  ...(BODY_METHODS.has(rule.method) ? { payload: {} } : {}),
});

describe.each(await testDatabaseKinds())('role × endpoint matrix on %s', (kind) => {
  let t: TestApp;
  let users: Record<Role, SignedInUser>;
  let rules: RouteAccessRule[];

  beforeAll(async () => {
    t = await createTestApp(kind);
    users = await oneOfEachRole(t);
    rules = t.app.accessRules;
  });
  afterAll(() => t.close());

  it('knows every /api/v1 route, each with exactly one access rule', () => {
    expect(rules.length).toBeGreaterThan(50);
    for (const rule of rules) {
      const kinds = [rule.permission !== null, rule.public, rule.terminal].filter(Boolean);
      expect(kinds, nameOf(rule)).toHaveLength(1);
      if (rule.permission) expect(PERMISSIONS, nameOf(rule)).toHaveProperty([rule.permission]);
    }
    expect(
      rules
        .filter((r) => r.public)
        .map(nameOf)
        .sort(),
    ).toEqual([...PUBLIC_ROUTES].sort());
    expect(
      rules
        .filter((r) => r.terminal)
        .map(nameOf)
        .sort(),
    ).toEqual([...TERMINAL_ROUTES].sort());
  });

  it('covers every route the OpenAPI document lists', () => {
    const known = new Set(rules.map(nameOf));
    const paths = (t.app.swagger() as { paths: Record<string, Record<string, unknown>> }).paths;
    const documented = Object.entries(paths)
      .filter(([path]) => path.startsWith('/api/v1'))
      .flatMap(([path, methods]) =>
        Object.keys(methods).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
      );
    expect(documented.length).toBeGreaterThan(40);
    for (const route of documented) expect(known, route).toContain(route);
  });

  it('is wired into the deny-by-default hook: a route without a rule stops the app', async () => {
    await expect(
      createTestApp(
        kind,
        {},
        {
          beforeReady: (app) => {
            app.get('/api/v1/zz-unguarded', async () => ({ ok: true }));
          },
        },
      ),
    ).rejects.toThrow(/has no access rule/);
  });

  it('answers 401 to anonymous callers of every non-public route', async () => {
    const failures: string[] = [];
    for (const rule of rules.filter((r) => !r.public)) {
      const res = await t.app.inject(request(rule));
      if (res.statusCode !== 401) failures.push(`${nameOf(rule)} → ${res.statusCode}`);
      else if (rule.method !== 'HEAD' && codeOf(res) !== 'UNAUTHORIZED') {
        failures.push(`${nameOf(rule)} → ${codeOf(res)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it.each(ROLES)('answers the permission table for %s on every guarded route', async (role) => {
    const { session } = users[role];
    const failures: string[] = [];
    for (const rule of rules.filter((r) => r.permission !== null)) {
      const res = await injectAs(t.app, session, request(rule));
      const code = codeOf(res);
      if (can(role, rule.permission!)) {
        // Allowed: past the guard. The route may still say 400, 404 (out of scope) and so on.
        if (res.statusCode === 401 || res.statusCode === 403 || res.statusCode >= 500) {
          failures.push(`${nameOf(rule)} → ${res.statusCode} ${code ?? ''} (allowed)`);
        }
      } else if (res.statusCode !== 403 || (code !== undefined && code !== 'PERMISSION_DENIED')) {
        failures.push(`${nameOf(rule)} → ${res.statusCode} ${code ?? ''} (denied)`);
      }
    }
    expect(failures).toEqual([]);
  });

  it.each(ROLES)('refuses terminal routes to %s’s session without a terminal key', async (role) => {
    for (const rule of rules.filter((r) => r.terminal)) {
      const res = await injectAs(t.app, users[role].session, request(rule));
      expect(res.statusCode, nameOf(rule)).toBe(401);
      // A HEAD answer has no body to read the code from.
      if (rule.method !== 'HEAD') expect(res.json().code).toBe('UNAUTHORIZED');
    }
  });

  it('uses every API permission of the contract on some route', () => {
    const used = new Set(rules.map((r) => r.permission));
    const screens = (p: string) => p.endsWith('.view');
    const unused = Object.keys(PERMISSIONS).filter((p) => !screens(p) && !used.has(p as never));
    expect(unused).toEqual([]);
  });
});
