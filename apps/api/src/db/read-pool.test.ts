// DATABASE_READ_URL (issue 15 item 3, decision 0023): reports, dashboards and exports read the
// read pool; sign-in, lists, writes and orders use the primary. The "replica" here is a second
// PostgreSQL database holding other data, so every answer shows which pool it came from, and its
// sessions are read-only, so a write sent to it would fail.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, type Company, type Employee } from '@app/contract';
import { createUser, requestsAs, signIn, type TestSession } from '../../test/auth';
import { TEST_MFA_ENCRYPTION_KEY } from '../../test/app';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../test/databases';
import { assertLedgerInvariants } from '../../test/invariants';
import {
  ledgerDeps,
  newCompany,
  newEmployee,
  newTerminal,
  type TestTerminal,
} from '../../test/ledger';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { ManualClock } from '../lib/clock';
import { distributeToEmployees, issueToCompany } from '../modules/tokens';
import { createDatabase, queryRows, type Database } from './client';

const PASSWORD = 'Read-Pa55word!';

describe.each((await testDatabaseKinds()).filter((k) => k === 'postgres'))(
  'a read pool (DATABASE_READ_URL) on %s',
  () => {
    let primary: TestDatabase;
    let replica: TestDatabase;
    let database: Database;
    let app: FastifyInstance;
    let session: TestSession;
    let onPrimary: Company;
    let onReplica: Company;
    let employee: Employee;
    let terminal: TestTerminal;
    const clock = new ManualClock('2026-03-10T09:00:00Z');

    const ledgerRows = async (db: TestDatabase) =>
      (
        await queryRows<{ n: number }>(
          db.database.db,
          sql`SELECT count(*)::int AS n FROM token_transactions`,
        )
      )[0]!.n;

    beforeAll(async () => {
      primary = await createTestDatabase('postgres');
      replica = await createTestDatabase('postgres');
      const primaryDeps = ledgerDeps(primary, {}, clock);
      const replicaDeps = ledgerDeps(replica, {}, clock);
      onPrimary = await newCompany(primaryDeps, { code: 'PRIMARY1' });
      employee = await newEmployee(primaryDeps, onPrimary.id);
      terminal = await newTerminal(primaryDeps);
      await issueToCompany(primaryDeps, null, { company_id: onPrimary.id, amount: 1_000 });
      await distributeToEmployees(primaryDeps, { kind: 'company', companyId: onPrimary.id }, null, {
        items: [{ employee_id: employee.id, amount: 100 }],
      });
      onReplica = await newCompany(replicaDeps, { code: 'REPLICA1' });
      await issueToCompany(replicaDeps, null, { company_id: onReplica.id, amount: 777 });
      const admin = await createUser(primary.database.db, { type: 'admin', password: PASSWORD });

      const config = loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        SERVE_WEB: 'false',
        DEMO_DATA: 'false',
        MFA_REQUIRED_ROLES: 'none',
        MFA_ENCRYPTION_KEY: TEST_MFA_ENCRYPTION_KEY,
        DATABASE_URL: primary.url!,
        DATABASE_READ_URL: replica.url!,
      });
      database = await createDatabase({
        url: config.DATABASE_URL,
        readUrl: config.DATABASE_READ_URL,
        poolSize: 4,
      });
      app = await buildApp({ config, database, clock, logger: false });
      await app.ready();
      session = await signIn(app, admin.username, PASSWORD);
    }, 120_000);
    afterAll(async () => {
      await app?.close();
      await database?.close();
      await primary?.drop();
      await replica?.drop();
    });

    it('sends reports, dashboards and exports to the read pool', async () => {
      const as = requestsAs(app, session);
      const month = '2026-03';
      const report = await as.get(`/api/v1/reports/summary?month=${month}&page_size=50`);
      expect(report.statusCode, report.body).toBe(200);
      expect(report.body).toContain('REPLICA1');
      expect(report.body).not.toContain('PRIMARY1');

      const dashboard = await as.get(`/api/v1/dashboard/summary?month=${month}`);
      expect(dashboard.statusCode, dashboard.body).toBe(200);
      const companies = dashboard.json().data.companies as { company_id: number }[];
      expect(companies.map((c) => c.company_id)).toEqual([onReplica.id]);
      expect(dashboard.json().data.totals.tokens_from_admin).toBe(777);

      const csv = await as.get(`/api/v1/exports/summary?month=${month}`);
      expect(csv.statusCode, csv.body).toBe(200);
      expect(csv.body).toContain('REPLICA1');
      expect(csv.body).not.toContain('PRIMARY1');

      const transactions = await as.get('/api/v1/exports/transactions');
      expect(transactions.statusCode, transactions.body).toBe(200);
      expect(transactions.body).toContain('777');
    });

    it('keeps sign-in, lists, writes and orders on the primary, which see their own writes', async () => {
      const as = requestsAs(app, session);
      const replicaRowsBefore = await ledgerRows(replica);

      const list = await as.get('/api/v1/companies?page_size=50');
      expect(list.statusCode, list.body).toBe(200);
      expect(list.body).toContain('PRIMARY1');
      expect(list.body).not.toContain('REPLICA1');

      const topUp = await as.post('/api/v1/tokens/topup-token', {
        company_id: onPrimary.id,
        amount: 50,
      });
      expect(topUp.statusCode, topUp.body).toBe(200);
      // Read right after the write: the primary, so the new balance is there at once.
      const after = await as.get(`/api/v1/companies/${onPrimary.id}`);
      expect(after.json().data.token_balance).toBe(1_000 - 100 + 50);

      const order = await app.inject({
        method: 'POST',
        url: '/api/v1/orders',
        headers: {
          authorization: `Bearer ${terminal.key}`,
          [IDEMPOTENCY_KEY_HEADER]: crypto.randomUUID(),
        },
        payload: {
          company_code: onPrimary.code,
          employee_id: employee.employee_id,
          order_type: 'dine_in',
          items: [{ name: 'Noodles', quantity: 1, unit_tokens: 7 }],
        },
      });
      expect(order.statusCode, order.body).toBe(201);

      const transactions = await as.get(
        `/api/v1/tokens/transactions?scope=employee&company_id=${onPrimary.id}&employee_id=${employee.id}`,
      );
      expect(transactions.statusCode, transactions.body).toBe(200);
      expect(transactions.body).toContain('order_purchased');

      // Nothing was written to the replica; everything to the primary, which still balances.
      expect(await ledgerRows(replica)).toBe(replicaRowsBefore);
      await assertLedgerInvariants(primary.database.db);
    });

    it('refuses a write on the read pool itself (read-only sessions)', async () => {
      await expect(database.read.execute(sql`CREATE TABLE nope (id int)`)).rejects.toMatchObject({
        cause: expect.objectContaining({ code: '25006' }),
      });
      // The primary pool writes.
      await database.db.execute(sql`CREATE TEMP TABLE fine (id int)`);
      expect(database.readPoolStats()).not.toBeNull();
      // Both pools are watched: /metrics shows the read pool beside the primary's.
      const metrics = await app.inject({ url: '/metrics' });
      expect(metrics.body).toMatch(/^db_pool_max_connections 4$/m);
      expect(metrics.body).toMatch(/^db_read_pool_max_connections 4$/m);
      expect(metrics.body).toMatch(/^db_read_pool_connections [0-4]$/m);
    });
  },
);

describe('without DATABASE_READ_URL', () => {
  it('reads reports from the primary', async () => {
    const db = await createTestDatabase('pglite');
    try {
      expect(db.database.read).toBe(db.database.db);
      expect(db.database.readPoolStats()).toBeNull();
    } finally {
      await db.drop();
    }
  });
});
