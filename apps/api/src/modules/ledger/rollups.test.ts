// The ledger rollups of migration 0010 (decision 0007): appended to ledger_rollup_pending by a
// statement trigger in the ledger row's own transaction, folded into the rollup tables every 32nd
// statement, rebuilt by rebuild_ledger_rollups(), and read through views by the dashboards and
// summary reports. test/invariants.ts compares every view with the ledger after each test; the
// tests here also check what the readers make of them.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Company, Employee } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { testDatabaseKinds } from '../../../test/databases';
import { assertLedgerInvariants } from '../../../test/invariants';
import {
  newCompany,
  newEmployee,
  newTerminal,
  order,
  type TestTerminal,
} from '../../../test/ledger';
import {
  buildProgramme,
  expectedDaily,
  expectedTotals,
  ledgerRows,
  type LedgerRow,
  type Programme,
} from '../../../test/reporting';
import { queryRows } from '../../db/client';
import type { ServiceDeps } from '../../lib/deps';
import { toInt } from '../../lib/numbers';
import { runMonthlyResets } from '../jobs';
import { refundTerminalOrder } from '../orders';
import { findCompanyMonthTotals, findDailyFlows } from '../reports';
import { distributeToEmployees, issueToCompany } from '../tokens';

const ALL = { kind: 'all' } as const;

/** The rollup views' sums, keyed by view and key: what the readers can see. */
async function rollupSums(deps: ServiceDeps): Promise<Map<string, string>> {
  const rows = await queryRows<{ key: string; sums: string }>(
    deps.database.db,
    sql`SELECT 'month ' || period || ' ' || company_id AS key,
               concat_ws(' ', sum(company_issued), sum(monthly_tokens_added), sum(employee_issued),
                         sum(monthly_tokens_reset), sum(order_purchased), sum(order_refunded),
                         sum(company_expired), sum(employee_expired)) AS sums
          FROM ledger_month_totals GROUP BY period, company_id
        UNION ALL
        SELECT 'company ' || period || ' ' || company_id || ' ' || bucket,
               concat_ws(' ', sum(company_issued), sum(monthly_tokens_added), sum(employee_issued),
                         sum(monthly_tokens_reset), sum(order_purchased), sum(order_refunded))
          FROM ledger_company_quarter_hours GROUP BY period, company_id, bucket
        UNION ALL
        SELECT 'all ' || period || ' ' || bucket,
               concat_ws(' ', sum(company_issued), sum(monthly_tokens_added), sum(employee_issued),
                         sum(monthly_tokens_reset), sum(order_purchased), sum(order_refunded))
          FROM ledger_quarter_hours GROUP BY period, bucket`,
  );
  return new Map(rows.map((r) => [r.key, r.sums]));
}

const countOf = async (deps: ServiceDeps, table: string) =>
  toInt(
    (
      await queryRows<{ n: unknown }>(
        deps.database.db,
        sql`SELECT count(*) AS n FROM ${sql.identifier(table)}`,
      )
    )[0]!.n,
  );

const totalsOfRow = (row: Awaited<ReturnType<typeof findCompanyMonthTotals>>[number]) => ({
  tokens_from_admin: row.tokens_from_admin,
  distributed_to_employees: row.distributed_to_employees,
  consumed_by_employees: row.consumed_by_employees,
  company_unused: row.company_unused,
  employee_unused: row.employee_unused,
  purchased: row.purchased,
  refunded: row.refunded,
});

/** A month read as one not under way: each company's token month of that label. */
const pastMonth = (month: string) => ({ month, underWay: false, timeZone: 'Asia/Shanghai' });

/** The reports' totals of every company and month equal the raw ledger's, wallets included. */
async function expectTotalsOfLedger(deps: ServiceDeps, months: string[]) {
  const rows = await ledgerRows(deps.database.db);
  for (const month of months) {
    for (const company of await findCompanyMonthTotals(deps.database.db, ALL, pastMonth(month))) {
      expect(totalsOfRow(company), `${month} company ${company.company_id}`).toEqual(
        expectedTotals(rows, month, (r) => r.companyId === company.company_id),
      );
    }
  }
}

describe.each(await testDatabaseKinds())('ledger rollups on %s', (kind) => {
  let t: TestApp;
  let deps: ServiceDeps;
  let p: Programme;

  beforeAll(async () => {
    // buildProgramme's times are chosen for Shanghai; the series are read in other zones too.
    t = await createTestApp(kind, { APP_TIMEZONE: 'Asia/Shanghai' });
    deps = t.app.deps;
    p = await buildProgramme(t);
  });
  afterEach(async () => {
    await assertLedgerInvariants(deps.database.db);
  });
  afterAll(() => t.close());

  it("gives each company's month the totals of its ledger rows, employees' held tokens included", async () => {
    // buildProgramme leaves an employee in January (inactive at the reset) refunded in February.
    await expectTotalsOfLedger(deps, ['2025-12', '2026-01', '2026-02', '2026-03']);
    const [a] = await findCompanyMonthTotals(deps.database.db, ALL, pastMonth('2026-01'), {
      companyId: p.a.id,
    });
    expect(a?.tokens_from_admin).toBeGreaterThan(0);
    expect(a?.employee_unused).toBeGreaterThan(0);
  });

  it('groups the daily series by local day in any time zone, half and quarter hours included', async () => {
    // Rows either side of local midnights: 18:15 UTC is 00:00 in Kathmandu (+05:45), 18:30 in
    // Kolkata (+05:30), 03:30 in St John's (−03:30), 15:15 in Eucla (+08:45).
    for (const at of [
      '2026-02-11T18:14:59.999Z',
      '2026-02-11T18:15:00.000Z',
      '2026-02-11T18:29:59.999Z',
      '2026-02-11T18:30:00.000Z',
      '2026-02-12T03:29:59.999Z',
      '2026-02-12T03:30:00.000Z',
      '2026-02-12T15:14:59.999Z',
      '2026-02-12T15:15:00.000Z',
    ]) {
      t.clock.set(at);
      await issueToCompany(deps, null, { company_id: p.a.id, amount: 1 });
      await order(deps, p.t1, p.a, p.a1, 1);
    }
    const rows = await ledgerRows(deps.database.db);
    const inA = (r: LedgerRow) => r.companyId === p.a.id;
    for (const zone of [
      'Asia/Kathmandu',
      'Asia/Kolkata',
      'America/St_Johns',
      'Australia/Eucla',
      'Pacific/Chatham',
      'America/New_York',
      'UTC',
    ]) {
      for (const [slice, include] of [
        [{ kind: 'all' }, () => true],
        [{ kind: 'company', companyId: p.a.id }, inA],
      ] as const) {
        const days = await findDailyFlows(deps.database.db, slice, '2026-02', zone);
        const local = new Intl.DateTimeFormat('en-CA', { timeZone: zone, dateStyle: 'short' });
        const actual = new Map(
          days.map((d) => [
            local.format(d.dayStart),
            {
              tokens_from_admin: d.tokensFromAdmin,
              distributed: d.distributed,
              consumed: d.purchased - d.refunded,
            },
          ]),
        );
        expect(actual, `${zone} ${slice.kind}`).toEqual(
          expectedDaily(rows, '2026-02', zone, include),
        );
      }
    }
  });

  it('appends each statement to the pending rows and folds them on every 32nd', async () => {
    await deps.database.db.execute(sql`SELECT fold_ledger_rollups()`);
    expect(await countOf(deps, 'ledger_rollup_pending')).toBe(0);
    const company = await newCompany(deps);
    let pending = 0;
    let folds = 0;
    for (let i = 1; i <= 70; i += 1) {
      await issueToCompany(deps, null, { company_id: company.id, amount: i });
      const now = await countOf(deps, 'ledger_rollup_pending');
      if (now === 0) folds += 1;
      else expect(now).toBe(pending + 1);
      pending = now;
    }
    // 70 statements: two or three folds, depending on where the statement count stood.
    expect(folds).toBeGreaterThanOrEqual(2);
    expect(pending).toBeLessThan(32);
    const [month] = await queryRows<{ company_issued: unknown }>(
      deps.database.db,
      sql`SELECT sum(company_issued) AS company_issued FROM ledger_month_totals
           WHERE company_id = ${company.id}`,
    );
    expect(toInt(month!.company_issued)).toBe((70 * 71) / 2);
    // Folding moves every pending row and changes no total.
    const before = await rollupSums(deps);
    await deps.database.db.execute(sql`SELECT fold_ledger_rollups()`);
    expect(await countOf(deps, 'ledger_rollup_pending')).toBe(0);
    expect(await rollupSums(deps)).toEqual(before);
  });

  it('is rebuilt from the ledger by rebuild_ledger_rollups(), as after a load with triggers off', async () => {
    const before = await rollupSums(deps);
    expect(before.size).toBeGreaterThan(10);
    await deps.database.db.execute(
      sql`TRUNCATE ledger_rollup_pending, ledger_month_rollup, ledger_company_quarter_hour_rollup,
                   ledger_quarter_hour_rollup`,
    );
    await expect(assertLedgerInvariants(deps.database.db)).rejects.toThrow(
      /7: each rollup view .* equals the sums of its ledger rows/,
    );
    await deps.database.db.execute(sql`SELECT rebuild_ledger_rollups()`);
    expect(await rollupSums(deps)).toEqual(before);
    expect(await countOf(deps, 'ledger_rollup_pending')).toBe(0);
  });

  it('finds out an employee moved to another month with tokens still held there', async () => {
    const held = (
      await queryRows<{ id: unknown; token_month: string }>(
        deps.database.db,
        sql`SELECT id, token_month FROM employees WHERE available_tokens > 0 ORDER BY id LIMIT 1`,
      )
    )[0]!;
    const move = (month: string) =>
      deps.database.db.execute(
        sql`UPDATE employees SET token_month = ${month} WHERE id = ${toInt(held.id)}`,
      );
    await move('2027-01');
    try {
      await expect(assertLedgerInvariants(deps.database.db)).rejects.toThrow(
        /7: a company's employee rows of a token month net to what its employees/,
      );
    } finally {
      await move(held.token_month);
    }
  });
});

describe.each((await testDatabaseKinds()).filter((k) => k === 'postgres'))(
  'ledger rollups under concurrency on %s',
  () => {
    let t: TestApp;
    let deps: ServiceDeps;

    beforeAll(async () => {
      t = await createTestApp('postgres');
      deps = t.app.deps;
    });
    afterEach(async () => {
      await assertLedgerInvariants(deps.database.db);
    });
    afterAll(() => t.close());

    /** A company with `size` employees holding `each` tokens, and the terminal they order at. */
    async function staffed(size: number, each: number) {
      const company = await newCompany(deps, {
        initToken: size * each * 3,
        resetDay: 21,
        employeeMonthlyTokens: each,
      });
      await issueToCompany(deps, null, { company_id: company.id, amount: size * each * 3 });
      const staff = await Promise.all(
        Array.from({ length: size }, () => newEmployee(deps, company.id)),
      );
      await distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, {
        items: staff.map((e) => ({ employee_id: e.id, amount: each })),
      });
      return { company, staff };
    }

    const settle = async (work: Promise<unknown>[]) => {
      const codes = new Set<string>();
      for (const r of await Promise.allSettled(work)) {
        if (r.status === 'rejected') {
          codes.add(String((r.reason as { code?: unknown }).code ?? (r.reason as Error).message));
        }
      }
      return codes;
    };

    it('lets orders through while another transaction holds a fold open', async () => {
      t.clock.set('2026-03-10T12:00:00Z');
      const { company, staff } = await staffed(40, 100);
      const terminal = await newTerminal(deps);
      // A transaction that wrote a ledger row of the company and folded, so it holds the fold
      // lock and the company's (and the quarter-hour's) rollup rows until it ends.
      const holder = new pg.Client({ connectionString: t.db.url });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        const { rows } = await holder.query<{ balance: string }>(
          'SELECT token_balance AS balance FROM companies WHERE id = $1 FOR NO KEY UPDATE',
          [company.id],
        );
        const balance = Number(rows[0]!.balance);
        await holder.query(
          `INSERT INTO token_transactions (occurred_at, event, company_id, direction, amount,
                                           balance_before, balance_after, period)
           VALUES ($1, 'company_issued', $2, 'received', 1, $3, $4, $5)`,
          [t.clock.now(), company.id, balance, balance + 1, company.token_month],
        );
        await holder.query('SELECT pg_advisory_xact_lock(727010), fold_ledger_rollups()');
        // Were the rollup rows locked for the orders, these would wait for the holder (and the
        // test time out); each statement only appends, and skips the fold it cannot lock.
        const codes = await settle(
          staff.flatMap((e) => [1, 2, 3].map((n) => order(deps, terminal, company, e, n))),
        );
        expect([...codes]).toEqual([]);
        // No fold could run meanwhile: every order's tokens wait in the pending rows (one row
        // per statement, and a batch of orders is one statement).
        const [pending] = await queryRows<{ purchased: unknown }>(
          deps.database.db,
          sql`SELECT sum(order_purchased) AS purchased FROM ledger_rollup_pending
               WHERE company_id = ${company.id}`,
        );
        expect(toInt(pending!.purchased)).toBe(40 * 6);
        await holder.query('COMMIT');
      } finally {
        await holder.end();
      }
      const [row] = await queryRows<{ purchased: unknown }>(
        deps.database.db,
        sql`SELECT sum(order_purchased) AS purchased FROM ledger_month_totals
             WHERE company_id = ${company.id} AND period = ${company.token_month}`,
      );
      expect(toInt(row!.purchased)).toBe(40 * 6);
      await expectTotalsOfLedger(deps, [company.token_month]);
    });

    it('stays exact under simultaneous orders, refunds, distributions and resets of several companies', async () => {
      t.clock.set('2026-03-20T10:00:00Z');
      const programmes = await Promise.all([staffed(12, 60), staffed(12, 60), staffed(6, 60)]);
      const terminal = await newTerminal(deps);
      const placed = await Promise.all(
        programmes.flatMap(({ company, staff }) =>
          staff.map((e) => order(deps, terminal, company, e, 20)),
        ),
      );
      const refundOf = (terminalOf: TestTerminal, id: number, partial: boolean) =>
        refundTerminalOrder(deps, terminalOf.identity, crypto.randomUUID(), id, {
          ...(partial ? { reason: 'item_removed', amount: 5 } : { reason: 'rejected' }),
        });
      const ordersOf = (company: Company, staff: Employee[]) =>
        staff.map((e) => order(deps, terminal, company, e, 3));
      const distributions = (company: Company, staff: Employee[]) =>
        Array.from({ length: 4 }, (_, i) =>
          distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, {
            items: staff.slice(i, i + 3).map((e) => ({ employee_id: e.id, amount: 2 })),
          }),
        );
      t.clock.set('2026-03-21T00:00:00Z');
      const codes = await settle([
        runMonthlyResets(deps),
        ...programmes.flatMap(({ company, staff }) => [
          ...ordersOf(company, staff),
          ...distributions(company, staff),
        ]),
        ...placed.map((o, i) => refundOf(terminal, o.id, i % 2 === 0)),
        runMonthlyResets(deps),
      ]);
      // A distribution or an order may land before the reset renews its employee, or find the
      // wallet emptied by it; nothing else may fail (no deadlock, no lost rollup).
      for (const code of codes) {
        expect(['INSUFFICIENT_TOKENS', 'TOKEN_MONTH_NOT_MATCH']).toContain(code);
      }
      const months = await queryRows<{ token_month: string }>(
        deps.database.db,
        sql`SELECT DISTINCT token_month FROM companies
             WHERE id IN ${programmes.map(({ company }) => company.id)}`,
      );
      expect(months).toEqual([{ token_month: '2026-03' }]);
      await expectTotalsOfLedger(deps, ['2026-02', '2026-03']);
    });
  },
);
