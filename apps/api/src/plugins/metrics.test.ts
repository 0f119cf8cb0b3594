import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Company, Employee } from '@app/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { testDatabaseKinds } from '../../test/databases';
import { newCompany, newEmployee, newTerminal, type TestTerminal } from '../../test/ledger';
import { runMonthlyResets } from '../modules/jobs';
import { distributeToEmployees } from '../modules/tokens';

/** The value of one sample of the Prometheus text, or undefined when it is not there. */
function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

const scrape = async (t: TestApp, headers: Record<string, string> = {}) => {
  const res = await t.app.inject({ url: '/metrics', headers });
  expect(res.statusCode).toBe(200);
  return res.body;
};

const INDEX = '<!doctype html><html><body><div id="root"></div></body></html>';

describe.each(await testDatabaseKinds())('GET /metrics on %s', (kind) => {
  let t: TestApp;
  let other: TestApp;
  let dist: string;
  let company: Company;
  let employee: Employee;
  let terminal: TestTerminal;

  const orderBody = () => ({
    company_code: company.code,
    employee_id: employee.employee_id,
    order_type: 'takeaway',
    items: [{ name: 'Noodles', quantity: 1, unit_tokens: 10 }],
  });
  const terminalPost = (app: TestApp, url: string, payload: object, key: string) =>
    app.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${terminal.key}`, 'idempotency-key': key },
      payload,
    });

  beforeAll(async () => {
    // With the web app served, so that /metrics is seen not to fall through to index.html.
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
    fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
    t = await createTestApp(kind, { SERVE_WEB: 'true', WEB_DIST_DIR: dist });
    other = await createTestApp(kind);
    const deps = t.app.deps;
    company = await newCompany(deps, { initToken: 1000 });
    employee = await newEmployee(deps, company.id);
    terminal = await newTerminal(deps);
    await distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, {
      items: [{ employee_id: employee.id, amount: 500 }],
    });
  });
  afterAll(async () => {
    await t.close();
    await other.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('answers Prometheus text with process metrics, not the web app, with security headers', async () => {
    const res = await t.app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.body).not.toContain('<html');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(sample(res.body, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(res.body, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(res.body).toContain('# TYPE http_request_duration_seconds histogram');
    expect(res.body).toContain('# TYPE ledger_orders_placed_total counter');
  });

  it('shows the database pool on PostgreSQL and no pool on PGlite', async () => {
    const text = await scrape(t);
    if (kind === 'postgres') {
      expect(sample(text, 'db_pool_max_connections')).toBe(30);
      expect(sample(text, 'db_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'db_pool_waiting_requests')).toBe(0);
    } else {
      expect(sample(text, 'db_pool_connections')).toBeUndefined();
    }
  });

  it('labels request durations by route pattern and status, never by raw URL', async () => {
    const id = 987654;
    expect((await t.app.inject({ url: `/api/v1/employees/${id}` })).statusCode).toBe(401);
    expect((await t.app.inject({ url: `/api/v1/no-such-thing-${id}` })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/client/route/${id}` })).statusCode).toBe(200);
    const text = await scrape(t);
    expect(text).not.toContain(String(id));
    const count = (route: string, status: string, method = 'GET') =>
      sample(text, 'http_request_duration_seconds_count', { method, route, status_code: status });
    expect(count('/api/v1/employees/:id', '401')).toBe(1);
    // An unknown API path and the SPA's fallback share the one label of unmatched requests.
    expect(count('unmatched', '404')).toBe(1);
    expect(count('unmatched', '200')).toBe(1);
    expect(
      sample(text, 'http_request_duration_seconds_bucket', {
        route: '/api/v1/employees/:id',
        status_code: '401',
        le: '+Inf',
      }),
    ).toBe(1);
  });

  it('counts orders and refunds made through the terminal API, once per idempotency key', async () => {
    const before = await scrape(t);
    expect(sample(before, 'ledger_orders_placed_total')).toBe(0);
    const key = crypto.randomUUID();
    const placed = await terminalPost(t, '/api/v1/orders', orderBody(), key);
    expect(placed.statusCode).toBe(201);
    // The retry is answered from its key: no second order, no second count.
    expect((await terminalPost(t, '/api/v1/orders', orderBody(), key)).statusCode).toBe(201);
    const orderId = placed.json().data.id as number;
    const refunded = await terminalPost(
      t,
      `/api/v1/orders/${orderId}/refund`,
      { reason: 'cancelled' },
      crypto.randomUUID(),
    );
    expect(refunded.statusCode).toBe(200);
    const after = await scrape(t);
    expect(sample(after, 'ledger_orders_placed_total')).toBe(1);
    expect(sample(after, 'ledger_refunds_total', { reason: 'cancelled' })).toBe(1);
    expect(
      sample(after, 'http_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/v1/orders/:id/refund',
        status_code: '200',
      }),
    ).toBe(1);
    // Each app has its own registry: the other app counted nothing.
    expect(sample(await scrape(other), 'ledger_orders_placed_total')).toBe(0);
  });

  it('counts monthly resets and job runs', async () => {
    t.clock.set('2026-02-02T08:00:00Z');
    const runs = await runMonthlyResets(t.app.deps);
    expect(runs.filter((r) => r.status === 'applied')).toHaveLength(1);
    const text = await scrape(t);
    expect(sample(text, 'ledger_monthly_resets_total', { status: 'applied' })).toBe(1);
    expect(sample(text, 'jobs_runs_total', { job: 'monthly_reset', outcome: 'ok' })).toBe(1);
  });
});

describe.each(await testDatabaseKinds())('GET /metrics settings on %s', (kind) => {
  const TOKEN = 'metrics-token-0123456789';
  let guarded: TestApp;
  let off: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
    fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
    guarded = await createTestApp(kind, { METRICS_TOKEN: TOKEN });
    off = await createTestApp(kind, {
      METRICS_ENABLED: 'false',
      SERVE_WEB: 'true',
      WEB_DIST_DIR: dist,
    });
  });
  afterAll(async () => {
    await guarded.close();
    await off.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('wants the bearer token when METRICS_TOKEN is set', async () => {
    for (const authorization of [
      undefined,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      TOKEN,
    ]) {
      const res = await guarded.app.inject({
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED', statusCode: 401 });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    }
    const text = await scrape(guarded, { authorization: `Bearer ${TOKEN}` });
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it('answers 404 (JSON, not the web app) with METRICS_ENABLED=false', async () => {
    const res = await off.app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
    // And no request durations are recorded.
    expect((await off.app.deps.metrics.httpRequestDuration.get()).values).toEqual([]);
  });
});
