import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createDatabase, type Database } from '../db/client';
import { createTestApp, type TestApp } from '../../test/app';
import { createUser, injectAs, signIn, type TestSession } from '../../test/auth';
import { testDatabaseKinds } from '../../test/databases';
import { currentUser, requirePermission } from './auth';

/** Test-only routes exercising each access rule. */
function registerProbeRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/v1/probe/admin-only',
    { preHandler: requirePermission('users.manage') },
    async (request) => ({ data: { user_id: currentUser(request).id } }),
  );
  r.post(
    '/api/v1/probe/write',
    {
      preHandler: [requirePermission('iam.self')],
      schema: { body: z.strictObject({ amount: z.number().int() }) },
    },
    async (request) => ({ data: { amount: request.body.amount } }),
  );
  r.post('/api/v1/probe/public', { config: { public: true } }, async (request) => ({
    data: { signed_in: request.user !== null },
  }));
  r.post('/api/v1/probe/terminal', { config: { auth: 'terminal' } }, async (request) => ({
    data: { signed_in: request.user !== null },
  }));
}

describe.each(await testDatabaseKinds())('access rules on %s', (kind) => {
  let t: TestApp;
  let admin: TestSession;
  let groupHr: TestSession;
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { beforeReady: registerProbeRoutes });
    const a = await createUser(t.db.database.db, { type: 'admin' });
    const h = await createUser(t.db.database.db, { type: 'super_hr' });
    admin = await signIn(t.app, a.username, a.password);
    groupHr = await signIn(t.app, h.username, h.password);
  });
  afterAll(() => t.close());

  describe('requirePermission', () => {
    it('answers 401 UNAUTHORIZED without a session', async () => {
      const res = await t.app.inject({ url: '/api/v1/probe/admin-only' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED', error: 'Unauthorized' });
    });

    it('answers 401 to a made-up session cookie', async () => {
      const res = await t.app.inject({
        url: '/api/v1/probe/admin-only',
        headers: { cookie: `sid=${'x'.repeat(43)}` },
      });
      expect(res.statusCode).toBe(401);
    });

    it('answers 403 PERMISSION_DENIED to a role the permission table does not list', async () => {
      const res = await injectAs(t.app, groupHr, { url: '/api/v1/probe/admin-only' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({
        code: 'PERMISSION_DENIED',
        message: 'You do not have permission to perform this action.',
      });
    });

    it('lets a listed role through', async () => {
      const res = await injectAs(t.app, admin, { url: '/api/v1/probe/admin-only' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: { user_id: admin.user.user_id } });
    });

    it('guards the HEAD route Fastify adds for a GET', async () => {
      const res = await t.app.inject({ method: 'HEAD', url: '/api/v1/probe/admin-only' });
      expect(res.statusCode).toBe(401);
    });

    it('refuses an anonymous caller before validating its body', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/probe/write',
        payload: { nonsense: true },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).not.toHaveProperty('metadata');
    });
  });

  describe('CSRF', () => {
    const write = (headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/api/v1/probe/write', headers, payload: { amount: 5 } });

    it('refuses a cookie-authenticated POST without X-XSRF-TOKEN', async () => {
      const res = await write({ cookie: admin.cookie });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({
        code: 'CSRF_INVALID',
        message: 'Your security token is missing or invalid. Please refresh the page.',
      });
    });

    it("refuses another session's token and a made-up one", async () => {
      expect((await write({ cookie: admin.cookie, 'x-xsrf-token': groupHr.xsrf })).statusCode).toBe(
        403,
      );
      expect((await write({ cookie: admin.cookie, 'x-xsrf-token': 'abc' })).statusCode).toBe(403);
    });

    it("accepts the session's own token", async () => {
      const res = await write({ cookie: admin.cookie, 'x-xsrf-token': admin.xsrf });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: { amount: 5 } });
    });

    it('applies to a public route when a session cookie is presented', async () => {
      const call = (headers: Record<string, string>) =>
        t.app.inject({ method: 'POST', url: '/api/v1/probe/public', headers });
      expect((await call({ cookie: admin.cookie })).statusCode).toBe(403);
      expect((await call({ cookie: admin.cookie, 'x-xsrf-token': admin.xsrf })).json()).toEqual({
        data: { signed_in: true },
      });
      expect((await call({})).json()).toEqual({ data: { signed_in: false } });
    });

    it('leaves terminal routes to their own authentication: a cookie neither helps nor trips CSRF', async () => {
      // The terminal-auth plugin answers (no API key → 401); the session plugin stays out of it.
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/probe/terminal',
        headers: { cookie: admin.cookie },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    });
  });
});

describe('deny by default', () => {
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await createDatabase({});
  });
  afterAll(() => database.close());

  const build = async () => {
    const config = loadConfig({ NODE_ENV: 'test', SERVE_WEB: 'false', DEMO_DATA: 'false' });
    app = await buildApp({ config, database, logger: false });
    return app;
  };

  it('refuses to start with an /api/v1 route that declares no access rule', async () => {
    await build();
    const start = async () => {
      await app.register(
        async (scope) => {
          scope.get('/forgotten', async () => ({ data: 'secret' }));
        },
        { prefix: '/api/v1/widgets' },
      );
      await app.ready();
    };
    await expect(start()).rejects.toThrow(/GET \/api\/v1\/widgets\/forgotten has no access rule/);
    await app.close().catch(() => undefined);
  });

  it('starts when every /api/v1 route is guarded, public or a terminal route', async () => {
    await build();
    await app.register(async (scope) => {
      scope.get('/api/v1/widgets', { preHandler: requirePermission('iam.self') }, async () => 1);
      scope.get('/api/v1/open', { config: { public: true } }, async () => 1);
      scope.post('/api/v1/till', { config: { auth: 'terminal' } }, async () => 1);
      scope.get('/elsewhere', async () => 1);
    });
    await expect(app.ready()).resolves.toBeDefined();
    await app.close();
  });
});
