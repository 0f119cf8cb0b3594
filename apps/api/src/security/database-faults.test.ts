// Database faults (issue 7), on a PostgreSQL cluster of the test's own (never the shared one):
// PostgreSQL stopped while the API serves → every request fails cleanly with 503 in the envelope,
// /readyz says so, and service resumes by itself when it is back; a query stuck behind a lock is
// cut off by the statement timeout (504) instead of holding its connection, and the pool never
// grows past its size. No secret reaches the logs on the way.
import crypto from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, type Company, type Employee } from '@app/contract';
import { createUser, injectAs, signIn, type TestSession } from '../../test/auth';
import { envelopeProblem } from '../../test/http';
import { assertLedgerInvariants } from '../../test/invariants';
import { newCompany, newEmployee, newTerminal, type TestTerminal } from '../../test/ledger';
import {
  privatePostgresUnavailable,
  startPrivatePostgres,
  type PrivatePostgres,
} from '../../test/private-postgres';
import { until } from '../../test/server-process';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createDatabase, type Database } from '../db/client';
import { migrate } from '../db/migrate';
import { ManualClock } from '../lib/clock';
import { distributeToEmployees, issueToCompany } from '../modules/tokens';

// Skips where no cluster can be made, except under REQUIRE_POSTGRES=1, where it fails.
const unavailable = privatePostgresUnavailable();

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void) {
    this.text += chunk.toString('utf8');
    done();
  }
}

describe.skipIf(unavailable !== null)('database faults on a private PostgreSQL', () => {
  let cluster: PrivatePostgres;
  let database: Database;
  let app: FastifyInstance;
  let session: TestSession;
  let company: Company;
  let employee: Employee;
  let terminal: TestTerminal;
  const logs = new Capture();
  const PASSWORD = 'Fault-Pa55word!';

  beforeAll(async () => {
    cluster = await startPrivatePostgres();
    const admin = new pg.Client({ connectionString: cluster.url() });
    await admin.connect();
    await admin.query('CREATE DATABASE app');
    await admin.end();
    const config = loadConfig({
      NODE_ENV: 'test',
      SERVE_WEB: 'false',
      DEMO_DATA: 'false',
      MFA_REQUIRED_ROLES: 'none',
      DATABASE_URL: cluster.url('app'),
      DATABASE_POOL_SIZE: '4',
      DATABASE_STATEMENT_TIMEOUT_MS: '1500',
    });
    database = await createDatabase({
      url: cluster.url('app', 'api-under-test'),
      poolSize: config.DATABASE_POOL_SIZE,
      statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    });
    await migrate(database);
    const clock = new ManualClock('2026-03-10T09:00:00Z');
    app = await buildApp({ config, database, clock, logger: { stream: logs, level: 'info' } });
    await app.ready();
    const deps = app.deps;
    company = await newCompany(deps, { initToken: 0 });
    employee = await newEmployee(deps, company.id);
    terminal = await newTerminal(deps);
    await issueToCompany(deps, null, { company_id: company.id, amount: 1_000 });
    await distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, {
      items: [{ employee_id: employee.id, amount: 500 }],
    });
    const user = await createUser(database.db, { type: 'admin', password: PASSWORD });
    session = await signIn(app, user.username, PASSWORD);
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await database?.close().catch(() => undefined);
    await cluster?.destroy();
  });

  const order = () =>
    app.inject({
      method: 'POST',
      url: '/api/v1/orders',
      headers: {
        authorization: `Bearer ${terminal.key}`,
        [IDEMPOTENCY_KEY_HEADER]: crypto.randomUUID(),
      },
      payload: {
        company_code: company.code,
        employee_id: employee.employee_id,
        order_type: 'dine_in',
        items: [{ name: 'Soup', quantity: 1, unit_tokens: 3 }],
      },
    });
  /** One request of every kind: a read, an admin write, a terminal order, a sign-in. */
  const everyKind = async () => ({
    read: await injectAs(app, session, { url: '/api/v1/companies' }),
    write: await injectAs(app, session, {
      method: 'POST',
      url: '/api/v1/tokens/topup-token',
      payload: { company_id: company.id, amount: 10 },
    }),
    order: await order(),
    signIn: await app.inject({
      method: 'POST',
      url: '/api/v1/iam/login',
      payload: { username: 'someone', password: PASSWORD },
    }),
  });

  it('answers 503 while PostgreSQL is down, says so on /readyz, and resumes by itself', async () => {
    const up = await everyKind();
    expect(up.read.statusCode).toBe(200);
    expect(up.write.statusCode).toBe(200);
    expect(up.order.statusCode).toBe(201);
    expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);

    await cluster.stop();
    for (let round = 0; round < 2; round += 1) {
      for (const [what, res] of Object.entries(await everyKind())) {
        expect(res.statusCode, `${what}: ${res.body}`).toBe(503);
        expect(res.json().code, what).toBe('DATABASE_UNAVAILABLE');
        // Clients are told when to come back (a failover takes seconds).
        expect(Number(res.headers['retry-after']), what).toBeGreaterThanOrEqual(1);
        expect(envelopeProblem(res, ['DATABASE_UNAVAILABLE']), what).toBeNull();
      }
    }
    const ready = await app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', database: 'down' });
    // Liveness does not depend on the database: the process itself is fine.
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);

    await cluster.start();
    await until('/readyz to answer 200', async () => {
      return (await app.inject({ url: '/readyz' })).statusCode === 200;
    });
    // The same session, the same key: everything works again without a restart of the API.
    const back = await everyKind();
    expect(back.read.statusCode).toBe(200);
    expect(back.write.statusCode).toBe(200);
    expect(back.order.statusCode).toBe(201);
    expect(back.signIn.statusCode).toBe(401);
    await assertLedgerInvariants(database.db);
    // The outage was logged as errors, without a secret in them.
    expect(logs.text).toMatch(/"level":50/);
    for (const secret of [PASSWORD, session.sessionCookie.value, session.xsrf, terminal.key]) {
      expect(logs.text).not.toContain(secret);
    }
  }, 240_000);

  it('answers a write reaching a read-only server (a demoted primary) 503, and reads go on', async () => {
    // What a write meets when a balancer still points at a primary Patroni just demoted: 25006.
    const admin = new pg.Client({ connectionString: cluster.url('app') });
    await admin.connect();
    try {
      await admin.query('ALTER SYSTEM SET default_transaction_read_only = on');
      await admin.query('SELECT pg_reload_conf()');
      await until('the pool to see read-only sessions', async () => {
        const res = await order();
        return res.statusCode === 503;
      });
      const { write, order: placed, read } = await everyKind();
      for (const [what, res] of Object.entries({ write, order: placed })) {
        expect(res.statusCode, `${what}: ${res.body}`).toBe(503);
        expect(res.json().code, what).toBe('DATABASE_UNAVAILABLE');
        expect(Number(res.headers['retry-after']), what).toBeGreaterThanOrEqual(1);
      }
      expect(read.statusCode).toBe(200);
    } finally {
      await admin.query('ALTER SYSTEM RESET default_transaction_read_only');
      await admin.query('SELECT pg_reload_conf()');
      await admin.end();
    }
    await until('writes to work again', async () => (await order()).statusCode === 201);
    await assertLedgerInvariants(database.db);
  }, 120_000);

  it('cuts a query stuck behind a lock off at the statement timeout (504), within the pool size', async () => {
    const locker = new pg.Client({ connectionString: cluster.url('app') });
    await locker.connect();
    const monitor = new pg.Client({ connectionString: cluster.url('app') });
    await monitor.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE companies IN ACCESS EXCLUSIVE MODE');
      // Twice the pool: the later ones wait for a connection the timeout frees.
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => injectAs(app, session, { url: '/api/v1/companies' })),
      );
      const codes = answers.map((res) => (res.json() as { code?: string }).code);
      for (const res of answers) {
        expect([503, 504], res.body).toContain(res.statusCode);
        expect(envelopeProblem(res, ['TIMEOUT', 'DATABASE_UNAVAILABLE'])).toBeNull();
      }
      expect(codes.filter((c) => c === 'TIMEOUT').length).toBeGreaterThanOrEqual(4);
      // Nothing of ours is still waiting on the lock, and we never held more than the pool.
      const { rows } = await monitor.query<{ active: number; total: number }>(
        `SELECT count(*) FILTER (WHERE state = 'active')::int AS active, count(*)::int AS total
             FROM pg_stat_activity WHERE application_name = 'api-under-test'`,
      );
      expect(rows[0]!.active).toBe(0);
      expect(rows[0]!.total).toBeLessThanOrEqual(4);
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
      await monitor.end();
    }
    const after = await injectAs(app, session, { url: '/api/v1/companies' });
    expect(after.statusCode).toBe(200);
  }, 120_000);
});
