// How a monthly reset writes (issue 6, migration 0011): each employee once, the whole reset in one
// statement, transfers checked per statement; and what the database does with a renewal row.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../../test/databases';
import { assertLedgerInvariants } from '../../../test/invariants';
import { ledgerDeps, newCompany, newEmployee, type LedgerTestDeps } from '../../../test/ledger';
import { queryRows } from '../../db/client';
import { sqlState, inTransaction } from '../../lib/transaction';
import { getCompany } from '../companies';
import { getEmployee, setEmployeeStatus } from '../employees';
import { runMonthlyResets } from '../jobs';
import { distributeToEmployees } from '../tokens';
import { insertLedgerRows, type NewLedgerRow } from './ledger.repository';
import { timeOrderedUuid } from './postings';
import { resetCompany } from './reset.service';

const ALL = { kind: 'all' } as const;

describe('timeOrderedUuid', () => {
  it('makes version 7 UUIDs that start with the instant and sort by it', () => {
    const at = new Date('2026-11-23T01:27:00.123Z');
    const id = timeOrderedUuid(at);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(id.replace(/-/g, '').slice(0, 12)).toBe(at.getTime().toString(16).padStart(12, '0'));
    expect(timeOrderedUuid(at)).not.toBe(id);
    expect(timeOrderedUuid(new Date(at.getTime() + 1)) > id).toBe(true);
  });
});

describe.each(await testDatabaseKinds())('monthly reset writes on %s', (kind) => {
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

  /** Runs `fn` while a trigger records every UPDATE of an employee row, and returns the count per employee. */
  async function countEmployeeWrites(fn: () => Promise<unknown>): Promise<Map<number, number>> {
    const executor = deps.database.db;
    await deps.database.exec(`
      CREATE TABLE test_employee_writes (employee_id bigint NOT NULL);
      CREATE FUNCTION test_employee_writes() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO test_employee_writes VALUES (NEW.id);
        RETURN NULL;
      END $$;
      CREATE TRIGGER test_employee_writes AFTER UPDATE ON employees
        FOR EACH ROW EXECUTE FUNCTION test_employee_writes();`);
    try {
      await fn();
      const rows = await queryRows<{ employee_id: unknown; n: unknown }>(
        executor,
        sql`SELECT employee_id, count(*) AS n FROM test_employee_writes GROUP BY employee_id`,
      );
      return new Map(rows.map((r) => [Number(r.employee_id), Number(r.n)]));
    } finally {
      await deps.database.exec(`
        DROP TRIGGER test_employee_writes ON employees;
        DROP FUNCTION test_employee_writes();
        DROP TABLE test_employee_writes;`);
    }
  }

  it('writes each employee once: its expiry, its renewal and its new month in one update', async () => {
    deps.clock.set('2026-03-10T00:00:00Z');
    const company = await newCompany(deps, {
      initToken: 1000,
      resetDay: 15,
      employeeMonthlyTokens: 100,
    });
    const scope = { kind: 'company', companyId: company.id } as const;
    const holding = await newEmployee(deps, company.id);
    const empty = await newEmployee(deps, company.id, { monthlyTokens: 250 });
    const idle = await newEmployee(deps, company.id);
    const unpaid = await newEmployee(deps, company.id, { monthlyTokens: 0 });
    await distributeToEmployees(deps, scope, null, {
      items: [
        { employee_id: holding.id, amount: 300 },
        { employee_id: idle.id, amount: 50 },
        { employee_id: unpaid.id, amount: 20 },
      ],
    });
    await setEmployeeStatus(deps, scope, idle.id, 'inactive');

    deps.clock.set('2026-03-15T00:00:00Z');
    const writes = await countEmployeeWrites(() => runMonthlyResets(deps));
    expect(Object.fromEntries(writes)).toEqual({
      [holding.id]: 1,
      [empty.id]: 1,
      [idle.id]: 1,
      // Renewed without an amount there is no renewal row: its month is moved by its own update.
      [unpaid.id]: 2,
    });
    expect(await getEmployee(deps, ALL, holding.id)).toMatchObject({
      available_tokens: 100,
      token_month: '2026-03',
      updated_at: '2026-03-15T00:00:00.000Z',
    });
    expect(await getEmployee(deps, ALL, empty.id)).toMatchObject({
      available_tokens: 250,
      token_month: '2026-03',
    });
    expect(await getEmployee(deps, ALL, idle.id)).toMatchObject({
      available_tokens: 0,
      token_month: '2026-02',
    });
    expect(await getEmployee(deps, ALL, unpaid.id)).toMatchObject({
      available_tokens: 0,
      token_month: '2026-03',
    });
    expect(await getCompany(deps, ALL, company.id)).toMatchObject({
      token_balance: 650,
      token_month: '2026-03',
    });
    const [reset] = await queryRows<{ expired: unknown; allocated: unknown; renewed: unknown }>(
      deps.database.db,
      sql`SELECT expired_employee_tokens AS expired, allocated_tokens AS allocated,
                 renewed_employees AS renewed
            FROM monthly_resets WHERE company_id = ${company.id}`,
    );
    expect(reset).toEqual({ expired: 370, allocated: 350, renewed: 3 });
    // The rows are built in the database (decision 0029): each expiry in the month the balance
    // was held, even for the employee moved without a renewal row; each transfer id a version 7
    // UUID of the reset's instant, as timeOrderedUuid makes them, none twice.
    const rows = await queryRows<{ event: string; employee_id: unknown; period: string }>(
      deps.database.db,
      sql`SELECT event, employee_id, period, transfer_id FROM token_transactions
           WHERE company_id = ${company.id} AND occurred_at = '2026-03-15T00:00:00Z'
             AND employee_id IS NOT NULL ORDER BY seq`,
    );
    expect(rows.map((r) => [r.event, Number(r.employee_id), r.period])).toEqual([
      ['employee_expired', holding.id, '2026-02'],
      ['employee_expired', idle.id, '2026-02'],
      ['employee_expired', unpaid.id, '2026-02'],
      ['monthly_tokens_reset', holding.id, '2026-03'],
      ['monthly_tokens_reset', empty.id, '2026-03'],
    ]);
    const transfers = await queryRows<{ transfer_id: string }>(
      deps.database.db,
      sql`SELECT DISTINCT transfer_id::text FROM token_transactions
           WHERE company_id = ${company.id} AND event = 'monthly_tokens_reset'`,
    );
    const prefix = timeOrderedUuid(new Date('2026-03-15T00:00:00Z')).slice(0, 15);
    expect(transfers).toHaveLength(2);
    for (const { transfer_id: id } of transfers) {
      expect(id.slice(0, 15)).toBe(prefix);
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  it('lifts the statement limit, meant for requests, for the reset’s transaction', async () => {
    const company = await newCompany(deps);
    const limit = await inTransaction(deps.database, async (tx) => {
      await resetCompany(tx, { companyId: company.id, at: deps.clock.now(), timeZone: 'UTC' });
      const [row] = await queryRows<{ limit: string }>(
        tx,
        sql`SELECT current_setting('statement_timeout') AS limit`,
      );
      return row!.limit;
    });
    expect(limit).toBe('10min');
  });

  describe('the database', () => {
    let companyId: number;
    let employeeId: number;
    const at = "date_trunc('milliseconds', now())";
    /** The company's and the employee's row of a transfer, as VALUES tuples. */
    const sent = (event: string, from: number, amount: number, period: string, id: string) =>
      `(${at}, '${event}', ${companyId}, NULL, 'sent', ${amount}, ${from}, ${from - amount}, '${period}', '${id}')`;
    const received = (event: string, to: number, amount: number, period: string, id: string) =>
      `(${at}, '${event}', ${companyId}, ${employeeId}, 'received', ${amount}, ${to}, ${to + amount}, '${period}', '${id}')`;
    const insert = (...values: string[]) =>
      sql.raw(`INSERT INTO token_transactions (occurred_at, event, company_id, employee_id,
         direction, amount, balance_before, balance_after, period, transfer_id)
       VALUES ${values.join(', ')}`);
    const balances = async () => ({
      company: (await getCompany(deps, ALL, companyId)).token_balance,
      employee: (await getEmployee(deps, ALL, employeeId)).available_tokens,
    });

    beforeAll(async () => {
      deps.clock.set('2026-01-15T08:00:00Z');
      companyId = (await newCompany(deps, { initToken: 100 })).id;
      employeeId = (await newEmployee(deps, companyId)).id;
    });

    it('takes an employee into the month of its renewal row', async () => {
      const id = crypto.randomUUID();
      await deps.database.db.execute(
        insert(
          sent('monthly_tokens_reset', 100, 10, '2026-02', id),
          received('monthly_tokens_reset', 0, 10, '2026-02', id),
        ),
      );
      expect(await getEmployee(deps, ALL, employeeId)).toMatchObject({
        available_tokens: 10,
        token_month: '2026-02',
      });
    });

    it('refuses a transfer not written whole by one statement, or unbalanced', async () => {
      const before = await balances();
      const id = crypto.randomUUID();
      const split = () =>
        deps.database.db.transaction(async (tx) => {
          await tx.execute(insert(sent('employee_issued', before.company, 1, '2026-02', id)));
          await tx.execute(insert(received('employee_issued', before.employee, 1, '2026-02', id)));
        });
      expect(await failureOf(split)).toBe('23514');
      const uneven = () =>
        deps.database.db.execute(
          insert(
            sent('employee_issued', before.company, 1, '2026-02', id),
            received('employee_issued', before.employee, 2, '2026-02', id),
          ),
        );
      expect(await failureOf(uneven)).toBe('23514');
      expect(await balances()).toEqual(before);
    });

    it('keeps the two rows of a transfer in one statement when rows go in chunks', async () => {
      // 1 + 2 × 2,500 rows: the first chunk of 5,000 would end between the rows of the last transfer.
      const [company] = await queryRows<{ balance: unknown; month: string }>(
        deps.database.db,
        sql`SELECT token_balance AS balance, token_month AS month FROM companies WHERE id = ${companyId}`,
      );
      const staff = await queryRows<{ id: unknown }>(
        deps.database.db,
        sql`INSERT INTO employees (company_id, employee_id, status, token_month, created_at, updated_at)
            SELECT ${companyId}, 'CH' || n, 'active', ${company!.month}, now(), now()
              FROM generate_series(1, 2500) AS n
            RETURNING id`,
      );
      const when = deps.clock.now();
      let balance = Number(company!.balance);
      const row = (r: Omit<NewLedgerRow, 'occurredAt' | 'companyId' | 'period'>): NewLedgerRow => ({
        occurredAt: when,
        companyId,
        period: company!.month,
        ...r,
      });
      const rows = [
        row({
          event: 'company_issued',
          direction: 'received',
          amount: 2500,
          balanceBefore: balance,
          balanceAfter: balance + 2500,
        }),
      ];
      balance += 2500;
      for (const e of staff) {
        const transferId = timeOrderedUuid(when);
        const common = { event: 'employee_issued', amount: 1, transferId } as const;
        rows.push(
          row({ ...common, direction: 'sent', balanceBefore: balance, balanceAfter: balance - 1 }),
          row({
            ...common,
            employeeId: Number(e.id),
            direction: 'received',
            balanceBefore: 0,
            balanceAfter: 1,
          }),
        );
        balance -= 1;
      }
      const ids = await inTransaction(deps.database, (tx) => insertLedgerRows(tx, rows));
      expect(ids).toHaveLength(5001);
      expect((await balances()).company).toBe(balance);
    });
  });
});

/** The SQLSTATE `run` fails with ('' when it succeeds). */
async function failureOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return '';
  } catch (error) {
    return sqlState(error) ?? String(error);
  }
}
