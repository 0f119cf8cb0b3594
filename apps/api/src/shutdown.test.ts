// Graceful shutdown (issue 15, decision 0019), on the real server process and PostgreSQL: an order
// is held in flight by a row lock the test takes on the employee's wallet; SIGTERM then turns
// /readyz 503 and refuses new requests while the order waits; once the lock goes, the order gets
// its normal 201, and the process closes and exits 0. A request that never finishes is cut after
// SHUTDOWN_TIMEOUT_MS: the process still exits (1). The moments are read from PostgreSQL and the
// server's answers, never from sleeping.
import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Company, Employee } from '@app/contract';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../test/databases';
import { assertLedgerInvariants } from '../test/invariants';
import {
  ledgerDeps,
  newCompany,
  newEmployee,
  newTerminal,
  type TestTerminal,
} from '../test/ledger';
import { startServer, until, type ServerProcess } from '../test/server-process';
import { ManualClock } from './lib/clock';
import { distributeToEmployees } from './modules/tokens';

const APP = 'shutdown-api';

const exitOf = (server: ServerProcess) =>
  new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    const { child } = server;
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode });
    } else child.once('exit', (code, signal) => resolve({ code, signal }));
  });

describe.each((await testDatabaseKinds()).filter((k) => k === 'postgres'))(
  'graceful shutdown on %s',
  () => {
    let db: TestDatabase;
    let locker: pg.Client;
    let monitor: pg.Client;
    let company: Company;
    let employee: Employee;
    let terminal: TestTerminal;
    const servers: ServerProcess[] = [];

    const start = async (env: Record<string, string> = {}) => {
      const server = await startServer({
        DATABASE_URL: `${db.url!}?application_name=${APP}`,
        DATABASE_POOL_SIZE: '4',
        // The jobs timer runs, so shutdown has it to stop.
        JOBS_INTERVAL_SECONDS: '1',
        ...env,
      });
      servers.push(server);
      return server;
    };
    const placeOrder = (server: ServerProcess) =>
      fetch(`${server.baseURL}/api/v1/orders`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${terminal.key}`,
          'idempotency-key': crypto.randomUUID(),
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          company_code: company.code,
          employee_id: employee.employee_id,
          order_type: 'takeaway',
          items: [{ name: 'Soup', quantity: 1, unit_tokens: 7 }],
        }),
      });
    /** Whether one of the server's connections waits for a lock (the order, on the wallet). */
    const orderWaitsForLock = async () =>
      (
        await monitor.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE application_name = $1 AND wait_event_type = 'Lock'`,
          [APP],
        )
      ).rows[0]!.n > 0;
    const serverBackends = async () =>
      (
        await monitor.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1',
          [APP],
        )
      ).rows[0]!.n;
    const lockWallet = async () => {
      await locker.query('BEGIN');
      await locker.query('SELECT id FROM employees WHERE id = $1 FOR UPDATE', [employee.id]);
    };

    beforeAll(async () => {
      db = await createTestDatabase('postgres');
      const deps = ledgerDeps(db, {}, new ManualClock(new Date()));
      company = await newCompany(deps, { initToken: 1000 });
      employee = await newEmployee(deps, company.id);
      terminal = await newTerminal(deps);
      await distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, {
        items: [{ employee_id: employee.id, amount: 500 }],
      });
      locker = new pg.Client({ connectionString: db.url });
      monitor = new pg.Client({ connectionString: db.url });
      await locker.connect();
      await monitor.connect();
    });
    afterAll(async () => {
      await Promise.all(servers.map((s) => s.kill()));
      await locker.end();
      await monitor.end();
      await db.drop();
    });

    it('on SIGTERM turns /readyz 503, refuses new work, finishes the order in flight and exits 0', async () => {
      const server = await start({ SHUTDOWN_TIMEOUT_MS: '60000' });
      const exited = exitOf(server);
      await lockWallet();
      const inFlight = placeOrder(server);
      await until('the order to wait for the wallet lock', orderWaitsForLock, 30_000, 10);

      server.child.kill('SIGTERM');
      await until(
        '/readyz to answer 503',
        async () => (await fetch(`${server.baseURL}/readyz`)).status === 503,
        30_000,
        10,
      );
      const ready = await fetch(`${server.baseURL}/readyz`);
      expect(await ready.json()).toEqual({
        status: 'unavailable',
        database: 'up',
        shutting_down: true,
      });
      // A new request is refused with the envelope and told when to come back.
      const refused = await placeOrder(server);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(await refused.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', statusCode: 503 });
      // Still waiting for the order: the process has not gone.
      expect(server.child.exitCode).toBeNull();
      expect(await orderWaitsForLock()).toBe(true);

      await locker.query('ROLLBACK');
      const answer = await inFlight;
      expect(answer.status).toBe(201);
      expect(((await answer.json()) as { data: unknown }).data).toMatchObject({
        status: 'ordered',
        subtotal: 7,
      });

      expect(await exited).toEqual({ code: 0, signal: null });
      expect(server.output()).not.toMatch(/shutdown took too long|shutdown failed/);
      // Its connections are closed, and nothing listens any more.
      await until('the server’s connections to close', async () => (await serverBackends()) === 0);
      await expect(fetch(`${server.baseURL}/readyz`)).rejects.toThrow();
      await assertLedgerInvariants(db.database.db);
    });

    it('cuts what is still running after SHUTDOWN_TIMEOUT_MS and exits anyway', async () => {
      const server = await start({ SHUTDOWN_TIMEOUT_MS: '500' });
      const exited = exitOf(server);
      await lockWallet();
      try {
        const inFlight = placeOrder(server).then(
          (res) => res.status,
          () => 'cut' as const,
        );
        await until('the order to wait for the wallet lock', orderWaitsForLock, 30_000, 10);
        server.child.kill('SIGTERM');
        // The lock is held throughout: only the bound can end the process.
        expect(await exited).toEqual({ code: 1, signal: null });
        expect(server.output()).toContain('shutdown took too long');
        expect(await inFlight).toBe('cut');
      } finally {
        await locker.query('ROLLBACK');
      }
      // PostgreSQL rolled the cut order back with its session: no half-placed order.
      await until('the server’s connections to end', async () => (await serverBackends()) === 0);
      await assertLedgerInvariants(db.database.db);
    });
  },
);
