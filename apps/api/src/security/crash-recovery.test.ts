// Crash recovery (issue 7): the real server process, on a fresh PostgreSQL database, is killed with
// SIGKILL while it is writing a 20,000-row CSV import, a distribution to 1,000 employees and a
// monthly reset of a company of 4,000 employees. After each kill nothing is half-applied (all of
// the operation or none of it), the ledger invariants hold, and a restarted server completes the
// operation. The moment to kill is found by polling PostgreSQL for the server's write lock on the
// table being written, not by sleeping.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Company } from '@app/contract';
import { createUser } from '../../test/auth';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../test/databases';
import { assertLedgerInvariants } from '../../test/invariants';
import { ledgerDeps, newCompany } from '../../test/ledger';
import { httpAs, signInOverHttp, type HttpSession } from '../../test/http-session';
import { startServer, until, type ServerProcess } from '../../test/server-process';
import { queryRows } from '../db/client';
import { ManualClock } from '../lib/clock';
import { importEmployees } from '../modules/employee-import';
import { issueToCompany } from '../modules/tokens';

const APP = 'crash-api';
const PASSWORD = 'Crash-Pa55word!';
const IMPORT_ROWS = 20_000;
const DISTRIBUTION_ITEMS = 1_000;
const RESET_EMPLOYEES = 4_000;
const DAY = 86_400_000;

const csvOf = (prefix: string, n: number) =>
  [
    'employee_id,email,name,status',
    ...Array.from({ length: n }, (_, i) => {
      const no = String(i).padStart(5, '0');
      return `${prefix}${no},${prefix.toLowerCase()}${no}@crash.example,"Staff ${no}",active`;
    }),
  ].join('\r\n');

describe.each((await testDatabaseKinds()).filter((k) => k === 'postgres'))(
  'the server killed mid-write on %s',
  () => {
    let db: TestDatabase;
    let monitor: pg.Client;
    let server: ServerProcess | undefined;
    let env: Record<string, string>;
    let users: Record<'admin' | 'importer' | 'distributor', string>;
    let importing: Company;
    let distributing: Company;
    let resetting: Company;

    const count = async (query: ReturnType<typeof sql>) =>
      (await queryRows<{ n: number }>(db.database.db, query))[0]!.n;

    /** Whether the server holds a write lock on `table`, i.e. is inside a writing transaction. */
    const isWriting = async (table: string) =>
      (
        await monitor.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE a.application_name = $1 AND l.granted
              AND l.relation = $2::regclass AND l.mode = 'RowExclusiveLock'`,
          [APP, table],
        )
      ).rows[0]!.n > 0;
    const serverBackends = async () =>
      (
        await monitor.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1',
          [APP],
        )
      ).rows[0]!.n;

    async function start(): Promise<ServerProcess> {
      server = await startServer(env);
      return server;
    }
    const signInAs = (who: keyof typeof users) =>
      signInOverHttp(server!.baseURL, users[who], PASSWORD);

    /**
     * Sends `request`, kills the server with SIGKILL as soon as it writes to `table`, and waits
     * until PostgreSQL has ended the dead server's sessions (rolling back what they left open).
     * Resolves to whether the request was answered before the kill.
     */
    async function killWhileWriting(table: string, request: () => Promise<unknown>) {
      let answered = false;
      const inFlight = request().then(
        () => (answered = true),
        () => undefined,
      );
      await until(`the server to write to ${table}`, () => isWriting(table), 120_000, 5);
      await server!.kill();
      await inFlight;
      await until(
        'PostgreSQL to end the killed server’s sessions',
        async () => (await serverBackends()) === 0,
      );
      return answered;
    }

    beforeAll(async () => {
      db = await createTestDatabase('postgres');
      monitor = new pg.Client({ connectionString: db.url });
      await monitor.connect();
      env = {
        DATABASE_URL: `${db.url!}?application_name=${APP}`,
        LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
        DATABASE_POOL_SIZE: '5',
      };
      // Built through the services, as the API would: two companies of today, one whose month
      // began 40 days ago (so its monthly reset is due), with 4,000 employees to renew.
      const today = ledgerDeps(db, {}, new ManualClock(new Date()));
      const past = ledgerDeps(db, {}, new ManualClock(new Date(Date.now() - 40 * DAY)));
      importing = await newCompany(today);
      distributing = await newCompany(today);
      resetting = await newCompany(past, {
        resetDay: 1,
        initToken: 2 * RESET_EMPLOYEES,
        employeeMonthlyTokens: 1,
      });
      await importEmployees(
        today,
        { kind: 'company', companyId: distributing.id },
        Buffer.from(csvOf('D', DISTRIBUTION_ITEMS)),
      );
      await issueToCompany(today, null, {
        company_id: distributing.id,
        amount: 10 * DISTRIBUTION_ITEMS,
      });
      await importEmployees(
        past,
        { kind: 'company', companyId: resetting.id },
        Buffer.from(csvOf('R', RESET_EMPLOYEES)),
      );
      const admin = await createUser(db.database.db, { type: 'admin', password: PASSWORD });
      const importer = await createUser(db.database.db, {
        type: 'company_admin',
        companyId: importing.id,
        password: PASSWORD,
      });
      const distributor = await createUser(db.database.db, {
        type: 'company_admin',
        companyId: distributing.id,
        password: PASSWORD,
      });
      users = {
        admin: admin.username,
        importer: importer.username,
        distributor: distributor.username,
      };
      await assertLedgerInvariants(db.database.db);
    }, 300_000);
    afterAll(async () => {
      await server?.stop();
      await monitor?.end();
      await db?.drop();
    });

    it('leaves no half of a 20,000-row CSV import, and imports it whole after a restart', async () => {
      await start();
      const session = await signInAs('importer');
      const upload = (s: HttpSession) => {
        const form = new FormData();
        form.append('file', new Blob([csvOf('I', IMPORT_ROWS)], { type: 'text/csv' }), 'big.csv');
        return httpAs(server!.baseURL, s, 'POST', '/api/v1/employees/import', form);
      };
      const employeesOf = () =>
        count(sql`SELECT count(*)::int AS n FROM employees WHERE company_id = ${importing.id}`);
      const audits = () =>
        count(sql`SELECT count(*)::int AS n FROM audit_log
                     WHERE action = 'import' AND (after->>'company_id')::int = ${importing.id}`);

      const answered = await killWhileWriting('employees', () => upload(session));
      expect(answered).toBe(false);
      expect(await employeesOf()).toBe(0);
      expect(await audits()).toBe(0);

      await start();
      const done = await upload(await signInAs('importer'));
      expect(done.status, done.text.slice(0, 300)).toBe(200);
      expect(JSON.parse(done.text).data).toMatchObject({ created: IMPORT_ROWS, rejected: 0 });
      expect(await employeesOf()).toBe(IMPORT_ROWS);
      expect(await audits()).toBe(1);
      await server!.stop();
    }, 300_000);

    it('leaves no part of a distribution to 1,000 employees, and applies it whole after a restart', async () => {
      await start();
      const session = await signInAs('distributor');
      const ids = await queryRows<{ id: number }>(
        db.database.db,
        sql`SELECT id::int FROM employees WHERE company_id = ${distributing.id} ORDER BY id`,
      );
      expect(ids).toHaveLength(DISTRIBUTION_ITEMS);
      const body = { items: ids.map(({ id }) => ({ employee_id: id, amount: 3 })) };
      const distribute = (s: HttpSession) =>
        httpAs(server!.baseURL, s, 'POST', '/api/v1/tokens/topup-token/employees', body);
      const transferRows = () =>
        count(sql`SELECT count(*)::int AS n FROM token_transactions
                     WHERE company_id = ${distributing.id} AND event = 'employee_issued'`);
      const held = () =>
        count(sql`SELECT coalesce(sum(available_tokens), 0)::int AS n FROM employees
                     WHERE company_id = ${distributing.id}`);

      const answered = await killWhileWriting('token_transactions', () => distribute(session));
      expect(answered).toBe(false);
      expect(await transferRows()).toBe(0);
      expect(await held()).toBe(0);
      await assertLedgerInvariants(db.database.db);

      await start();
      const done = await distribute(await signInAs('distributor'));
      expect(done.status, done.text.slice(0, 300)).toBe(200);
      expect(await transferRows()).toBe(2 * DISTRIBUTION_ITEMS);
      expect(await held()).toBe(3 * DISTRIBUTION_ITEMS);
      await assertLedgerInvariants(db.database.db);
      await server!.stop();
    }, 300_000);

    it('leaves every monthly reset of a 4,000-employee company whole or undone, and completes it after a restart', async () => {
      await start();
      const session = await signInAs('admin');
      const resets = () =>
        count(
          sql`SELECT count(*)::int AS n FROM monthly_resets WHERE company_id = ${resetting.id}`,
        );
      const renewals = () =>
        count(sql`SELECT count(*)::int AS n FROM token_transactions
                     WHERE company_id = ${resetting.id} AND event = 'monthly_tokens_reset'
                       AND employee_id IS NOT NULL`);
      const months = () =>
        count(sql`SELECT count(DISTINCT token_month)::int AS n FROM employees
                     WHERE company_id = ${resetting.id}`);
      const before = { resets: await resets(), renewals: await renewals() };
      expect(before.renewals).toBe(0);

      const answered = await killWhileWriting('token_transactions', () =>
        httpAs(server!.baseURL, session, 'POST', '/api/v1/jobs/monthly-reset'),
      );
      expect(answered).toBe(false);
      // Each reset applied is applied to every employee; the one cut off left nothing behind.
      const applied = (await resets()) - before.resets;
      expect(await renewals()).toBe(applied * RESET_EMPLOYEES);
      expect(await months()).toBe(1);
      await assertLedgerInvariants(db.database.db);

      await start();
      const done = await httpAs(
        server!.baseURL,
        await signInAs('admin'),
        'POST',
        '/api/v1/jobs/monthly-reset',
      );
      expect(done.status, done.text.slice(0, 300)).toBe(200);
      const runs = JSON.parse(done.text).data.runs as { company_id: number; status: string }[];
      expect(runs.filter((r) => r.company_id === resetting.id).length).toBeGreaterThan(0);
      expect(runs.every((r) => r.status !== 'failed')).toBe(true);
      const total = await resets();
      // The reset cut off was applied this time.
      expect(total - before.resets).toBeGreaterThan(applied);
      expect(await renewals()).toBe((total - before.resets) * RESET_EMPLOYEES);
      expect(await months()).toBe(1);
      const [company] = await queryRows<{ due: boolean }>(
        db.database.db,
        sql`SELECT next_reset_at <= now() AS due FROM companies WHERE id = ${resetting.id}`,
      );
      expect(company!.due).toBe(false);
      await assertLedgerInvariants(db.database.db);
      await server!.stop();
    }, 300_000);
  },
);
