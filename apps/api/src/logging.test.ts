import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { createUser, injectAs, signIn } from '../test/auth';
import { testDatabaseKinds } from '../test/databases';
import { newCompany, newEmployee } from '../test/ledger';
import { distributeToEmployees, issueToCompany } from './modules/tokens';

/** A pino destination that keeps every line. */
class Capture extends Writable {
  lines: string[] = [];
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void) {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  get text() {
    return this.lines.join('\n');
  }
}

describe.each(await testDatabaseKinds())('structured logs on %s', (kind) => {
  let t: TestApp;
  const capture = new Capture();
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { logger: { stream: capture, level: 'info' } });
  });
  afterAll(() => t.close());

  it('logs a sign-in as JSON without the password, session id or CSRF token', async () => {
    const user = await createUser(t.db.database.db, { type: 'admin', password: 'Secr3t-Pa55!' });
    const session = await signIn(t.app, user.username, 'Secr3t-Pa55!');
    await injectAs(t.app, session, { url: '/api/v1/iam/self-info' });
    await injectAs(t.app, session, { method: 'POST', url: '/api/v1/iam/logout' });
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/iam/login',
      payload: { username: user.username, password: 'Wr0ng-Secret!' },
    });

    // The capture did see the traffic, as JSON lines …
    const entries = capture.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.some((e) => e.msg === 'incoming request')).toBe(true);
    expect(entries.some((e) => e.msg === 'signed in' && e.userId === user.id)).toBe(true);
    expect(
      entries.some((e) => e.msg === 'request refused' && e.code === 'INVALID_CREDENTIALS'),
    ).toBe(true);
    // … and none of the secrets.
    for (const secret of [
      'Secr3t-Pa55!',
      'Wr0ng-Secret!',
      session.sessionCookie.value,
      session.xsrf,
    ]) {
      expect(capture.text).not.toContain(secret);
    }
  });

  it('answers every request with an X-Request-Id, the client’s own when well formed, and logs it', async () => {
    const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const get = (url: string, requestId?: string) =>
      t.app.inject({ url, headers: requestId === undefined ? {} : { 'x-request-id': requestId } });
    // The client's own id comes back on the answer (a refusal here) and is on its log lines.
    const own = await get('/api/v1/iam/self-info', 'till-7/order-42');
    expect(own.statusCode).toBe(401);
    expect(own.headers['x-request-id']).toBe('till-7/order-42');
    const entries = capture.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const logged = entries.filter((e) => e.reqId === 'till-7/order-42');
    expect(logged.map((e) => e.msg)).toEqual(
      expect.arrayContaining(['incoming request', 'request refused', 'request completed']),
    );
    // None sent, or one too long or with characters that could forge a log line: a new UUID.
    const ids = [];
    for (const sent of [undefined, 'x'.repeat(129), 'two words', 'a"b', '']) {
      const answer = await get('/api/v1/iam/self-info', sent);
      expect(answer.headers['x-request-id'], String(sent)).toMatch(UUID);
      ids.push(answer.headers['x-request-id']);
    }
    expect(new Set(ids).size).toBe(ids.length);
    const longest = 'A'.repeat(128);
    expect((await get('/healthz', longest)).headers['x-request-id']).toBe(longest);
    // Beyond the API too: an unknown route and the document.
    expect((await get('/api/v1/no-such-route')).headers['x-request-id']).toMatch(UUID);
    expect((await get('/api/docs/json', 'docs-1')).headers['x-request-id']).toBe('docs-1');
  });

  it('redacts passwords and API keys even in objects logged carelessly', async () => {
    // Fastify's request serializer already drops headers; redaction is the second fence.
    t.app.log.info({ body: { username: 'x', password: 'Careless-Pa55' } }, 'careless body');
    t.app.log.info({ terminal: { code: 'T1', api_key: 'tk_live_secret' } }, 'careless key');
    const lines = capture.lines.filter((l) => l.includes('careless'));
    expect(lines).toHaveLength(2);
    expect(lines.join('\n')).not.toMatch(/Careless-Pa55|tk_live_secret/);
    expect(JSON.parse(lines[0]!).body).toEqual({ username: 'x', password: '[Redacted]' });
  });
});

describe.each(await testDatabaseKinds())('secrets in the logs at trace level on %s', (kind) => {
  let t: TestApp;
  const capture = new Capture();
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { logger: { stream: capture, level: 'trace' } });
  });
  afterAll(() => t.close());

  it('logs no password, session id, CSRF token or terminal key through a whole order flow', async () => {
    const deps = t.app.deps;
    const company = await newCompany(deps, { initToken: 0 });
    const employee = await newEmployee(deps, company.id);
    await issueToCompany(deps, null, { company_id: company.id, amount: 100 });
    await distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, {
      items: [{ employee_id: employee.id, amount: 100 }],
    });
    const admin = await createUser(t.db.database.db, { type: 'admin', password: 'Adm1n-Secret!' });
    const session = await signIn(t.app, admin.username, 'Adm1n-Secret!');
    const as = (method: 'POST' | 'PUT', url: string, payload: object) =>
      injectAs(t.app, session, { method, url, payload });

    // Terminal keys appear in answers (creation, rotation) and in Authorization headers.
    const merchant = (await as('POST', '/api/v1/merchants', { code: 'LOGM1', name: 'Shop' })).json()
      .data as { id: number };
    const created = (
      await as('POST', '/api/v1/terminals', {
        merchant_id: merchant.id,
        code: 'LOGT1',
        name: 'Till',
      })
    ).json().data as { id: number; api_key: string };
    const rotated = (await as('POST', `/api/v1/terminals/${created.id}/rotate-key`, {})).json()
      .data as { api_key: string };
    const wrongKey = `tk_${'W'.repeat(43)}`;
    const order = (key: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/orders',
        headers: { authorization: `Bearer ${key}`, 'idempotency-key': `log-${key.slice(-6)}` },
        payload: {
          company_code: company.code,
          employee_id: employee.employee_id,
          order_type: 'dine_in',
          items: [{ name: 'Tea', quantity: 1, unit_tokens: 5 }],
        },
      });
    expect((await order(created.api_key)).statusCode).toBe(401);
    expect((await order(wrongKey)).statusCode).toBe(401);
    const placed = await order(rotated.api_key);
    expect(placed.statusCode).toBe(201);
    const refund = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${placed.json().data.id}/refund`,
      headers: { authorization: `Bearer ${rotated.api_key}`, 'idempotency-key': 'log-refund' },
      payload: { reason: 'cancelled' },
    });
    expect(refund.statusCode).toBe(200);

    // Passwords travel in bodies: a new user, a changed password, a company admin.
    const user = await as('POST', '/api/v1/users', {
      username: 'log.user',
      email: 'log.user@example.com',
      password: 'N3w-User-Secret!',
      type: 'merchant_admin',
      status: 'active',
      merchant_id: merchant.id,
    });
    expect(user.statusCode).toBe(201);
    const changed = await as('PUT', `/api/v1/users/${user.json().data.user_id}`, {
      username: 'log.user',
      email: 'log.user@example.com',
      status: 'active',
      password: 'Ch4nged-Secret!',
      confirm_password: 'Ch4nged-Secret!',
    });
    expect(changed.statusCode).toBe(200);
    const companyAdmin = await as('POST', '/api/v1/companies/admin', {
      company_id: company.id,
      username: 'log.cadmin',
      email: 'log.cadmin@example.com',
      password: 'C0mpany-Secret!',
      status: 'active',
    });
    expect(companyAdmin.statusCode).toBe(201);
    await injectAs(t.app, session, { method: 'POST', url: '/api/v1/iam/logout' });

    expect(capture.lines.length).toBeGreaterThan(20);
    expect(capture.text).toContain('"url":"/api/v1/orders"');
    for (const secret of [
      'Adm1n-Secret!',
      'N3w-User-Secret!',
      'Ch4nged-Secret!',
      'C0mpany-Secret!',
      session.sessionCookie.value,
      session.xsrf,
      created.api_key,
      rotated.api_key,
      wrongKey,
    ]) {
      expect(capture.text).not.toContain(secret);
    }
  });
});
