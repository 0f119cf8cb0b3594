import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app';
import { createUser, injectAs, signIn, type TestSession } from '../../../test/auth';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../../test/databases';
import { assertLedgerInvariants } from '../../../test/invariants';
import {
  ledgerDeps,
  newCompany,
  newEmployee,
  newTerminal,
  order,
  refund,
  walletRows,
  type LedgerTestDeps,
} from '../../../test/ledger';
import type { MonthlyResetRun } from '@app/contract';
import { buildApp } from '../../app';
import { createDatabase, queryRows, type Executor } from '../../db/client';
import { getCompany } from '../companies';
import { getEmployee } from '../employees';
import { distributeToEmployees } from '../tokens';
import { runMonthlyResets } from './jobs.service';

const ALL = { kind: 'all' } as const;
const count = async (executor: Executor, table: string, where = 'true') =>
  (
    await queryRows<{ n: number }>(
      executor,
      sql.raw(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`),
    )
  )[0]!.n;

describe.each(await testDatabaseKinds())('monthly reset on %s', (kind) => {
  let db: TestDatabase;
  let deps: LedgerTestDeps;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    deps = ledgerDeps(db);
  });
  afterEach(async () => {
    await assertLedgerInvariants(deps.database.db);
  });
  afterAll(() => db.drop());

  it('resets on day 31 at the end of February and of April, and on the 31st where it exists', async () => {
    deps.clock.set('2026-01-31T10:00:00Z');
    const company = await newCompany(deps, { initToken: 100, resetDay: 31 });
    expect(company).toMatchObject({
      token_month: '2026-01',
      next_reset_at: '2026-02-28T00:00:00.000Z',
    });
    const step = async (now: string) => {
      deps.clock.set(now);
      await runMonthlyResets(deps);
      return getCompany(deps, ALL, company.id);
    };
    expect(await step('2026-02-27T23:59:59.999Z')).toMatchObject({ token_month: '2026-01' });
    expect(await step('2026-02-28T00:00:00Z')).toMatchObject({
      token_month: '2026-02',
      next_reset_at: '2026-03-31T00:00:00.000Z',
    });
    expect(await step('2026-03-31T00:00:00Z')).toMatchObject({
      token_month: '2026-03',
      next_reset_at: '2026-04-30T00:00:00.000Z',
    });
    expect(await step('2026-04-29T12:00:00Z')).toMatchObject({ token_month: '2026-03' });
    expect(await step('2026-04-30T00:00:00Z')).toMatchObject({
      token_month: '2026-04',
      next_reset_at: '2026-05-31T00:00:00.000Z',
      token_balance: 100,
    });
    const periods = await queryRows<{ period: string; scheduled_at: Date }>(
      deps.database.db,
      sql`SELECT period, scheduled_at FROM monthly_resets WHERE company_id = ${company.id} ORDER BY period`,
    );
    expect(periods.map((p) => [p.period, new Date(p.scheduled_at).toISOString()])).toEqual([
      ['2026-02', '2026-02-28T00:00:00.000Z'],
      ['2026-03', '2026-03-31T00:00:00.000Z'],
      ['2026-04', '2026-04-30T00:00:00.000Z'],
    ]);
  });

  it('resets on 29 February in a leap year', async () => {
    deps.clock.set('2028-02-01T00:00:00Z');
    const company = await newCompany(deps, { resetDay: 31 });
    expect(company.next_reset_at).toBe('2028-02-29T00:00:00.000Z');
  });

  it('leaves nothing applied when a reset fails halfway, and completes it on retry', async () => {
    deps.clock.set('2026-06-10T00:00:00Z');
    const company = await newCompany(deps, {
      initToken: 1000,
      resetDay: 15,
      employeeMonthlyTokens: 50,
    });
    const bystander = await newCompany(deps, { initToken: 10, resetDay: 15 });
    const staff = [await newEmployee(deps, company.id), await newEmployee(deps, company.id)];
    await distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, {
      items: staff.map((e) => ({ employee_id: e.id, amount: 100 })),
    });
    const mine = `company_id IN (${company.id}, ${bystander.id})`;
    const rowsBefore = await count(deps.database.db, 'token_transactions', mine);

    deps.clock.set('2026-06-15T00:00:00Z');
    for (const failAt of ['company_renewed', 'employees_renewed', 'ledger_written'] as const) {
      const runs = await runMonthlyResets(deps, {
        hooks: {
          afterStep: (step, companyId) => {
            if (companyId === company.id && step === failAt) throw new Error(`crash after ${step}`);
          },
        },
      });
      expect(runs).toContainEqual({ company_id: company.id, period: '2026-06', status: 'failed' });
      // Only the bystander's reset (expiry and allocation: two rows) was written, the first time.
      expect(await count(deps.database.db, 'token_transactions', mine)).toBe(rowsBefore + 2);
      expect(await count(deps.database.db, 'monthly_resets', mine)).toBe(1);
      expect(await getCompany(deps, ALL, company.id)).toMatchObject({
        token_month: '2026-05',
        token_balance: 800,
      });
      for (const e of staff) {
        expect(await getEmployee(deps, ALL, e.id)).toMatchObject({
          available_tokens: 100,
          token_month: '2026-05',
        });
      }
      // The other company due at the same moment was not held back.
      expect((await getCompany(deps, ALL, bystander.id)).token_month).toBe('2026-06');
      await assertLedgerInvariants(deps.database.db);
    }

    expect(await runMonthlyResets(deps)).toContainEqual({
      company_id: company.id,
      period: '2026-06',
      status: 'applied',
    });
    expect(await getCompany(deps, ALL, company.id)).toMatchObject({
      token_month: '2026-06',
      token_balance: 900,
    });
    expect(await getEmployee(deps, ALL, staff[0]!.id)).toMatchObject({ available_tokens: 50 });
  });

  it('opens months at midnight in APP_TIMEZONE', async () => {
    const shanghai = ledgerDeps(db, { APP_TIMEZONE: 'Asia/Shanghai' });
    shanghai.clock.set('2026-01-20T00:00:00Z');
    const company = await newCompany(shanghai, { initToken: 5, resetDay: 1 });
    expect(company.next_reset_at).toBe('2026-01-31T16:00:00.000Z');
    shanghai.clock.set('2026-01-31T15:59:59.999Z');
    expect((await runMonthlyResets(shanghai)).filter((r) => r.company_id === company.id)).toEqual(
      [],
    );
    shanghai.clock.set('2026-01-31T16:00:00Z');
    expect((await runMonthlyResets(shanghai)).filter((r) => r.company_id === company.id)).toEqual([
      { company_id: company.id, period: '2026-02', status: 'applied' },
    ]);
  });
});

describe.each((await testDatabaseKinds()).filter((k) => k === 'postgres'))(
  'two instances on one %s database',
  () => {
    it('apply each reset exactly once, however often both run it, by timer or by hand', async () => {
      const db = await createTestDatabase('postgres');
      const second = await createDatabase({ url: db.url, poolSize: 6 });
      try {
        const one = ledgerDeps(db);
        const two = { ...one, database: second };
        one.clock.set('2026-07-20T00:00:00Z');
        const companies = await Promise.all(
          Array.from({ length: 6 }, () =>
            newCompany(one, { initToken: 100, resetDay: 1, employeeMonthlyTokens: 10 }),
          ),
        );
        for (const c of companies) {
          for (let i = 0; i < 3; i += 1) await newEmployee(one, c.id);
        }
        one.clock.set('2026-08-01T00:00:00Z');
        // Two API instances, each with its own pool, sharing the database (and so the session).
        const apps = [
          await buildApp({ ...one, logger: false }),
          await buildApp({ ...two, logger: false }),
        ];
        const admin = await createUser(one.database.db, { type: 'admin' });
        const session = await signIn(apps[0]!, admin.username, admin.password);
        const trigger = (index: number) =>
          injectAs(apps[index]!, session, { method: 'POST', url: '/api/v1/jobs/monthly-reset' });
        const results = await Promise.all([
          trigger(0),
          trigger(1),
          runMonthlyResets(one),
          runMonthlyResets(two),
          trigger(1),
          trigger(0),
        ]);
        await Promise.all(apps.map((app) => app.close()));
        const runs = results.flatMap((r) =>
          Array.isArray(r) ? r : (r.json().data.runs as MonthlyResetRun[]),
        );
        expect(runs.every((r) => r.status === 'applied' || r.status === 'already_applied')).toBe(
          true,
        );
        const applied = runs.filter((r) => r.status === 'applied');
        expect(applied.map((r) => `${r.company_id}/${r.period}`).sort()).toEqual(
          companies.map((c) => `${c.id}/2026-08`).sort(),
        );
        expect(await count(one.database.db, 'monthly_resets')).toBe(6);
        for (const c of companies) {
          expect(await getCompany(two, ALL, c.id)).toMatchObject({
            token_month: '2026-08',
            token_balance: 70,
          });
        }
        await assertLedgerInvariants(one.database.db);
      } finally {
        await second.close();
        await db.drop();
      }
    });
  },
);

describe.each(await testDatabaseKinds())('job endpoints on %s', (kind) => {
  let t: TestApp;
  let adminUser: { username: string; password: string };
  let companyAdmin: TestSession;
  /** Signs in anew: moving the clock ends earlier sessions. */
  const asAdmin = () => signIn(t.app, adminUser.username, adminUser.password);

  beforeAll(async () => {
    t = await createTestApp(kind, { AUTO_ARCHIVE_AFTER_HOURS: '24' });
    adminUser = await createUser(t.app.deps.database.db, { type: 'admin' });
    const company = await newCompany(t.app.deps);
    const ca = await createUser(t.app.deps.database.db, {
      type: 'company_admin',
      companyId: company.id,
    });
    companyAdmin = await signIn(t.app, ca.username, ca.password);
  });
  afterEach(async () => {
    await assertLedgerInvariants(t.app.deps.database.db);
  });
  afterAll(() => t.close());

  it('lets only those with jobs.run trigger the jobs', async () => {
    for (const url of ['/api/v1/jobs/monthly-reset', '/api/v1/jobs/auto-archive']) {
      expect((await t.app.inject({ method: 'POST', url })).statusCode).toBe(401);
      const denied = await injectAs(t.app, companyAdmin, { method: 'POST', url });
      expect(denied.statusCode).toBe(403);
      expect(denied.json()).toMatchObject({ code: 'PERMISSION_DENIED' });
    }
  });

  it('runs the due resets when an admin asks', async () => {
    t.clock.set('2026-09-10T00:00:00Z');
    const company = await newCompany(t.app.deps, { initToken: 30, resetDay: 12 });
    t.clock.set('2026-09-12T00:00:01Z');
    const admin = await asAdmin();
    const res = await injectAs(t.app, admin, { method: 'POST', url: '/api/v1/jobs/monthly-reset' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.runs).toContainEqual({
      company_id: company.id,
      period: '2026-09',
      status: 'applied',
    });
    const again = await injectAs(t.app, admin, {
      method: 'POST',
      url: '/api/v1/jobs/monthly-reset',
    });
    expect(again.json().data.runs).toEqual([]);
  });

  it('auto-archives orders still open after AUTO_ARCHIVE_AFTER_HOURS, refunding what is left', async () => {
    const deps = t.app.deps;
    t.clock.set('2026-10-01T12:00:00Z');
    const company = await newCompany(deps, { initToken: 100, resetDay: 1 });
    const e = await newEmployee(deps, company.id);
    const terminal = await newTerminal(deps);
    await distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, {
      items: [{ employee_id: e.id, amount: 100 }],
    });
    const open = await order(deps, terminal, company, e, 30);
    const partly = await order(deps, terminal, company, e, 20);
    await refund(deps, terminal, partly.id, 'item_removed', 5);
    const closed = await order(deps, terminal, company, e, 10);
    await refund(deps, terminal, closed.id, 'cancelled');
    t.clock.set('2026-10-01T13:00:00Z');
    const young = await order(deps, terminal, company, e, 1);

    t.clock.set('2026-10-02T12:00:00Z');
    const admin = await asAdmin();
    const archive = () =>
      injectAs(t.app, admin, { method: 'POST', url: '/api/v1/jobs/auto-archive' });
    const res = await archive();
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ archived_order_ids: [], older_than_hours: 24 });
    t.clock.set('2026-10-02T12:00:00.001Z');
    expect((await archive()).json().data.archived_order_ids).toEqual([open.id, partly.id]);
    expect((await archive()).json().data.archived_order_ids).toEqual([]);
    const rows = (await walletRows(deps.database.db, company.id, e.id)).filter(
      (r) => r.refundReason === 'auto_archived',
    );
    expect(rows.map((r) => [r.orderId, r.amount, r.terminalId, r.actorUserId])).toEqual([
      [open.id, 30, terminal.identity.id, null],
      [partly.id, 15, terminal.identity.id, null],
    ]);
    // An admin may ask for another age for one run.
    const now = await injectAs(t.app, admin, {
      method: 'POST',
      url: '/api/v1/jobs/auto-archive',
      payload: { older_than_hours: 1 },
    });
    expect(now.json().data).toEqual({ archived_order_ids: [young.id], older_than_hours: 1 });
    expect(await getEmployee(deps, ALL, e.id)).toMatchObject({ available_tokens: 100 });
  });
});
