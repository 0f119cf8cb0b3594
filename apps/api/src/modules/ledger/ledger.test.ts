import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../../test/databases';
import { createUser } from '../../../test/auth';
import { assertLedgerInvariants } from '../../../test/invariants';
import {
  codeOf,
  ledgerDeps,
  newCompany,
  newEmployee,
  newTerminal,
  order,
  refund,
  walletRows,
  type LedgerTestDeps,
} from '../../../test/ledger';
import { queryRows } from '../../db/client';
import { getCompany } from '../companies';
import { getEmployee, renewEmployee, setEmployeeStatus } from '../employees';
import { runMonthlyResets } from '../jobs';
import { distributeToEmployees, issueToCompany } from '../tokens';
import { setCompanyStatus } from '../companies';

const ALL = { kind: 'all' } as const;

describe.each(await testDatabaseKinds())('ledger events on %s', (kind) => {
  let db: TestDatabase;
  let deps: LedgerTestDeps;
  const count = async () =>
    (
      await queryRows<{ n: number }>(
        deps.database.db,
        'SELECT count(*)::int AS n FROM token_transactions',
      )
    )[0]!.n;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    deps = ledgerDeps(db);
  });
  afterEach(async () => {
    await assertLedgerInvariants(deps.database.db);
  });
  afterAll(() => db.drop());

  it('credits a new company its init_token for its first month (monthly_tokens_added)', async () => {
    deps.clock.set('2026-01-15T08:00:00Z');
    const company = await newCompany(deps, { initToken: 1000, resetDay: 1 });
    expect(company).toMatchObject({ token_balance: 1000, token_month: '2026-01' });
    expect(company.next_reset_at).toBe('2026-02-01T00:00:00.000Z');
    const [row] = await walletRows(deps.database.db, company.id, null);
    expect(row).toMatchObject({
      event: 'monthly_tokens_added',
      direction: 'received',
      amount: 1000,
      balanceBefore: 0,
      balanceAfter: 1000,
      period: '2026-01',
      employeeId: null,
      orderId: null,
      transferId: null,
    });
    expect(row!.occurredAt.toISOString()).toBe('2026-01-15T08:00:00.000Z');
  });

  it('names the token month by the reset that opened it (reset day 25, created on the 15th)', async () => {
    deps.clock.set('2026-01-15T08:00:00Z');
    const company = await newCompany(deps, { resetDay: 25 });
    expect(company.token_month).toBe('2025-12');
    expect(company.next_reset_at).toBe('2026-01-25T00:00:00.000Z');
  });

  it('issues tokens to a company (company_issued) and chains its rows', async () => {
    const company = await newCompany(deps, { initToken: 100 });
    const result = await issueToCompany(deps, null, {
      company_id: company.id,
      amount: 250,
      note: 'budget',
    });
    expect(result).toMatchObject({ company_id: company.id, amount: 250, token_balance: 350 });
    const rows = await walletRows(deps.database.db, company.id, null);
    expect(
      rows.map((r) => [r.event, r.direction, r.amount, r.balanceBefore, r.balanceAfter]),
    ).toEqual([
      ['monthly_tokens_added', 'received', 100, 0, 100],
      ['company_issued', 'received', 250, 100, 350],
    ]);
    expect(rows[1]).toMatchObject({ id: result.transaction_id, note: 'budget', period: '2026-01' });
  });

  it('refuses to issue to an inactive or unknown company', async () => {
    const company = await newCompany(deps, { status: 'inactive' });
    expect(await codeOf(issueToCompany(deps, null, { company_id: company.id, amount: 5 }))).toBe(
      'COMPANY_INACTIVE',
    );
    expect(await codeOf(issueToCompany(deps, null, { company_id: 999_999, amount: 5 }))).toBe(
      'RECORD_NOT_FOUND',
    );
  });

  it('distributes to employees as transfers: company sent, employee received, one transfer_id', async () => {
    const company = await newCompany(deps, { initToken: 1000 });
    const a = await newEmployee(deps, company.id);
    const b = await newEmployee(deps, company.id);
    const scope = { kind: 'company', companyId: company.id } as const;
    // Items out of id order: rows still follow the order wallets are locked in.
    const result = await distributeToEmployees(deps, scope, null, {
      items: [
        { employee_id: b.id, amount: 200 },
        { employee_id: a.id, amount: 300 },
      ],
    });
    expect(result).toMatchObject({ company_id: company.id, total: 500, token_balance: 500 });

    const companyRows = await walletRows(deps.database.db, company.id, null);
    expect(
      companyRows
        .slice(1)
        .map((r) => [r.event, r.direction, r.amount, r.balanceBefore, r.balanceAfter]),
    ).toEqual([
      ['employee_issued', 'sent', 300, 1000, 700],
      ['employee_issued', 'sent', 200, 700, 500],
    ]);
    const [aRow] = await walletRows(deps.database.db, company.id, a.id);
    const [bRow] = await walletRows(deps.database.db, company.id, b.id);
    expect(aRow).toMatchObject({
      event: 'employee_issued',
      direction: 'received',
      amount: 300,
      balanceBefore: 0,
      balanceAfter: 300,
      period: '2026-01',
    });
    expect(bRow).toMatchObject({ amount: 200, balanceAfter: 200 });
    expect(aRow!.transferId).toBe(companyRows[1]!.transferId);
    expect(bRow!.transferId).toBe(companyRows[2]!.transferId);
    expect(aRow!.transferId).not.toBe(bRow!.transferId);
    expect(await getEmployee(deps, scope, a.id)).toMatchObject({
      available_tokens: 300,
      issued_tokens: 300,
      consumed_tokens: 0,
    });
  });

  it('refuses a distribution beyond the company balance and writes nothing', async () => {
    const company = await newCompany(deps, { initToken: 100 });
    const a = await newEmployee(deps, company.id);
    const b = await newEmployee(deps, company.id);
    const scope = { kind: 'company', companyId: company.id } as const;
    const before = await count();
    expect(
      await codeOf(
        distributeToEmployees(deps, scope, null, {
          items: [
            { employee_id: a.id, amount: 60 },
            { employee_id: b.id, amount: 41 },
          ],
        }),
      ),
    ).toBe('TOTAL_EXCEEDS_AVAILABLE');
    expect(await count()).toBe(before);
    expect((await getCompany(deps, ALL, company.id)).token_balance).toBe(100);
  });

  it('writes a distribution’s audit row with its ledger rows, and neither when it is refused', async () => {
    const company = await newCompany(deps, { initToken: 500 });
    const a = await newEmployee(deps, company.id);
    const b = await newEmployee(deps, company.id);
    const user = await createUser(deps.database.db, { type: 'admin' });
    const scope = { kind: 'company', companyId: company.id } as const;
    const audits = () =>
      queryRows<{ actor: number; before: unknown; after: unknown; ip: string | null }>(
        deps.database.db,
        sql`SELECT actor_user_id::int AS actor, before, after, ip FROM audit_log
             WHERE action = 'distribute' AND entity_type = 'company'
               AND entity_id = ${String(company.id)} ORDER BY id`,
      );
    // Given in the other order: the rows, the answer and the audit follow employee ids.
    const result = await distributeToEmployees(
      deps,
      scope,
      { userId: user.id, ip: '203.0.113.9' },
      {
        items: [
          { employee_id: b.id, amount: 20 },
          { employee_id: a.id, amount: 30 },
        ],
        note: 'lunch week',
      },
    );
    expect(result).toMatchObject({ company_id: company.id, total: 50, token_balance: 450 });
    expect(result.items.map((i) => [i.employee_id, i.amount, i.available_tokens])).toEqual([
      [a.id, 30, 30],
      [b.id, 20, 20],
    ]);
    const [aRow] = await walletRows(deps.database.db, company.id, a.id);
    expect(aRow).toMatchObject({ note: 'lunch week', actorUserId: user.id });
    expect(result.items[0]!.transfer_id).toBe(aRow!.transferId);
    expect(await audits()).toEqual([
      {
        actor: user.id,
        before: { token_balance: 500 },
        after: {
          token_balance: 450,
          total: 50,
          people: 2,
          note: 'lunch week',
          items: [
            { employee_id: a.id, amount: 30 },
            { employee_id: b.id, amount: 20 },
          ],
        },
        ip: '203.0.113.9',
      },
    ]);

    // Refused: no ledger row and no audit row.
    const before = await count();
    expect(
      await codeOf(
        distributeToEmployees(deps, scope, user.id, {
          items: [{ employee_id: a.id, amount: 451 }],
        }),
      ),
    ).toBe('TOTAL_EXCEEDS_AVAILABLE');
    expect(await count()).toBe(before);
    expect(await audits()).toHaveLength(1);
  });

  it('refuses with AMOUNT_TOO_LARGE a distribution that would take a balance past 2^53 - 1', async () => {
    const company = await newCompany(deps, { initToken: 0 });
    const a = await newEmployee(deps, company.id);
    const b = await newEmployee(deps, company.id);
    const scope = { kind: 'company', companyId: company.id } as const;
    await issueToCompany(deps, null, { company_id: company.id, amount: Number.MAX_SAFE_INTEGER });
    await distributeToEmployees(deps, scope, null, {
      items: [{ employee_id: b.id, amount: Number.MAX_SAFE_INTEGER - 10 }],
    });
    await issueToCompany(deps, null, { company_id: company.id, amount: 100 });
    const before = await count();
    // b would reach 2^53 - 1 + 1; the company (110) has enough for both.
    const refused = distributeToEmployees(deps, scope, null, {
      items: [
        { employee_id: a.id, amount: 1 },
        { employee_id: b.id, amount: 11 },
      ],
    });
    await expect(refused).rejects.toMatchObject({
      code: 'AMOUNT_TOO_LARGE',
      metadata: { items: 'v.balance_cap' },
    });
    expect(await count()).toBe(before);
    // At the cap exactly, it goes through.
    await distributeToEmployees(deps, scope, null, { items: [{ employee_id: b.id, amount: 10 }] });
    expect((await getEmployee(deps, scope, b.id)).available_tokens).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses a distribution naming another company’s, an inactive or an unrenewed employee', async () => {
    const company = await newCompany(deps, { initToken: 100 });
    const other = await newCompany(deps, { initToken: 100 });
    const stranger = await newEmployee(deps, other.id);
    const idle = await newEmployee(deps, company.id, { status: 'inactive' });
    const scope = { kind: 'company', companyId: company.id } as const;
    const before = await count();
    const give = (employeeId: number) =>
      distributeToEmployees(deps, scope, null, { items: [{ employee_id: employeeId, amount: 1 }] });
    expect(await codeOf(give(stranger.id))).toBe('RECORD_NOT_FOUND');
    expect(await codeOf(give(idle.id))).toBe('USER_INACTIVE');
    expect(
      await codeOf(
        distributeToEmployees(deps, scope, null, {
          company_id: other.id,
          items: [{ employee_id: stranger.id, amount: 1 }],
        }),
      ),
    ).toBe('RECORD_NOT_FOUND');
    expect(await count()).toBe(before);
  });

  it('pays an order (order_purchased) linked to the order, terminal and merchant', async () => {
    const company = await newCompany(deps, { initToken: 100 });
    const e = await newEmployee(deps, company.id);
    const terminal = await newTerminal(deps);
    await distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, {
      items: [{ employee_id: e.id, amount: 80 }],
    });
    const placed = await order(deps, terminal, company, e, 30);
    expect(placed).toMatchObject({
      status: 'ordered',
      subtotal: 30,
      refunded_amount: 0,
      available_tokens: 50,
      company_code: company.code,
      employee_id: e.employee_id,
      terminal_id: terminal.identity.id,
      merchant_id: terminal.merchantId,
    });
    expect(placed.order_no).toMatch(/^ORD\d{10}$/);
    const rows = await walletRows(deps.database.db, company.id, e.id);
    expect(rows[1]).toMatchObject({
      event: 'order_purchased',
      direction: 'sent',
      amount: 30,
      balanceBefore: 80,
      balanceAfter: 50,
      period: '2026-01',
      orderId: placed.id,
      terminalId: terminal.identity.id,
      merchantId: terminal.merchantId,
      refundReason: null,
    });
    expect(await getEmployee(deps, ALL, e.id)).toMatchObject({
      consumed_tokens: 30,
      issued_tokens: 80,
    });
  });

  it('refuses orders beyond the balance, for unknown payees and for inactive parties', async () => {
    const company = await newCompany(deps, { initToken: 100 });
    const e = await newEmployee(deps, company.id);
    const terminal = await newTerminal(deps);
    await distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, {
      items: [{ employee_id: e.id, amount: 10 }],
    });
    const before = await count();
    expect(await codeOf(order(deps, terminal, company, e, 11))).toBe('INSUFFICIENT_TOKENS');
    expect(await codeOf(order(deps, terminal, company, { employee_id: 'NOBODY' }, 1))).toBe(
      'NO_PAYEE_FOUND',
    );
    expect(await codeOf(order(deps, terminal, { code: 'NOSUCH' }, e, 1))).toBe('NO_PAYEE_FOUND');
    await setEmployeeStatus(deps, ALL, e.id, 'inactive');
    expect(await codeOf(order(deps, terminal, company, e, 1))).toBe('USER_INACTIVE');
    await setEmployeeStatus(deps, ALL, e.id, 'active');
    await setCompanyStatus(deps, ALL, company.id, 'inactive');
    expect(await codeOf(order(deps, terminal, company, e, 1))).toBe('COMPANY_INACTIVE');
    expect(await count()).toBe(before);
  });

  it('refunds part of an order (item_removed), then the rest (cancelled), then no more', async () => {
    const company = await newCompany(deps, { initToken: 100 });
    const e = await newEmployee(deps, company.id);
    const terminal = await newTerminal(deps);
    const sameMerchant = await newTerminal(deps, terminal.merchantId);
    const otherMerchant = await newTerminal(deps);
    await distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, {
      items: [{ employee_id: e.id, amount: 100 }],
    });
    const placed = await order(deps, terminal, company, e, 40);

    const partial = await refund(deps, terminal, placed.id, 'item_removed', 15);
    expect(partial.order).toMatchObject({ status: 'ordered', refunded_amount: 15 });
    expect(partial.refund).toMatchObject({
      amount: 15,
      reason: 'item_removed',
      available_tokens: 75,
    });
    expect(await codeOf(refund(deps, terminal, placed.id, 'item_removed', 26))).toBe(
      'REFUND_EXCEEDS_SUBTOTAL',
    );
    expect(await codeOf(refund(deps, otherMerchant, placed.id, 'cancelled'))).toBe(
      'ORDER_NOT_FOUND',
    );

    // Any terminal of the same merchant may refund; the row names the refunding terminal.
    const rest = await refund(deps, sameMerchant, placed.id, 'cancelled');
    expect(rest.order).toMatchObject({ status: 'refunded', refunded_amount: 40 });
    expect(rest.refund).toMatchObject({ amount: 25, available_tokens: 100 });
    expect(await codeOf(refund(deps, terminal, placed.id, 'rejected'))).toBe(
      'ORDER_ALREADY_REFUNDED',
    );

    const rows = (await walletRows(deps.database.db, company.id, e.id)).filter(
      (r) => r.event === 'order_refunded',
    );
    expect(
      rows.map((r) => [r.amount, r.balanceBefore, r.balanceAfter, r.refundReason, r.terminalId]),
    ).toEqual([
      [15, 60, 75, 'item_removed', terminal.identity.id],
      [25, 75, 100, 'cancelled', sameMerchant.identity.id],
    ]);
    expect(
      rows.every(
        (r) =>
          r.orderId === placed.id &&
          r.direction === 'received' &&
          r.merchantId === terminal.merchantId,
      ),
    ).toBe(true);
    expect(await getEmployee(deps, ALL, e.id)).toMatchObject({ consumed_tokens: 0 });
  });

  it('resets a month: expiries, allocation, renewals, in that order and in the right periods', async () => {
    deps.clock.set('2026-01-15T08:00:00Z');
    const company = await newCompany(deps, {
      initToken: 1000,
      resetDay: 1,
      employeeMonthlyTokens: 100,
    });
    const scope = { kind: 'company', companyId: company.id } as const;
    const a = await newEmployee(deps, company.id);
    const b = await newEmployee(deps, company.id, { monthlyTokens: 250 });
    const idle = await newEmployee(deps, company.id);
    await distributeToEmployees(deps, scope, null, {
      items: [
        { employee_id: a.id, amount: 300 },
        { employee_id: idle.id, amount: 50 },
      ],
    });
    await setEmployeeStatus(deps, scope, idle.id, 'inactive');
    // Company: 1000 - 350 = 650; a: 300; b: 0; idle: 50.

    deps.clock.set('2026-01-31T23:59:59.999Z');
    expect(await runMonthlyResets(deps)).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ company_id: company.id })]),
    );
    deps.clock.set('2026-02-01T00:00:00Z');
    const runs = await runMonthlyResets(deps);
    expect(runs).toContainEqual({ company_id: company.id, period: '2026-02', status: 'applied' });

    const companyRows = (await walletRows(deps.database.db, company.id, null)).slice(3);
    expect(
      companyRows.map((r) => [
        r.event,
        r.direction,
        r.amount,
        r.balanceBefore,
        r.balanceAfter,
        r.period,
      ]),
    ).toEqual([
      ['company_expired', 'sent', 650, 650, 0, '2026-01'],
      ['monthly_tokens_added', 'received', 1000, 0, 1000, '2026-02'],
      ['monthly_tokens_reset', 'sent', 100, 1000, 900, '2026-02'],
      ['monthly_tokens_reset', 'sent', 250, 900, 650, '2026-02'],
    ]);
    const aRows = await walletRows(deps.database.db, company.id, a.id);
    expect(
      aRows
        .slice(1)
        .map((r) => [r.event, r.direction, r.amount, r.balanceBefore, r.balanceAfter, r.period]),
    ).toEqual([
      ['employee_expired', 'sent', 300, 300, 0, '2026-01'],
      ['monthly_tokens_reset', 'received', 100, 0, 100, '2026-02'],
    ]);
    expect(aRows[2]!.transferId).toBe(companyRows[2]!.transferId);
    // Expiries come before the company's rows: employee rows first in write order.
    expect(aRows[1]!.id).toBeLessThan(companyRows[0]!.id);
    const idleRows = await walletRows(deps.database.db, company.id, idle.id);
    expect(idleRows.map((r) => [r.event, r.amount, r.period])).toEqual([
      ['employee_issued', 50, '2026-01'],
      ['employee_expired', 50, '2026-01'],
    ]);

    expect(await getCompany(deps, ALL, company.id)).toMatchObject({
      token_balance: 650,
      token_month: '2026-02',
      next_reset_at: '2026-03-01T00:00:00.000Z',
    });
    expect(await getEmployee(deps, ALL, a.id)).toMatchObject({
      available_tokens: 100,
      token_month: '2026-02',
      issued_tokens: 100,
      consumed_tokens: 0,
    });
    expect(await getEmployee(deps, ALL, b.id)).toMatchObject({
      available_tokens: 250,
      token_month: '2026-02',
    });
    expect(await getEmployee(deps, ALL, idle.id)).toMatchObject({
      available_tokens: 0,
      token_month: '2026-01',
    });

    // Running the job again at the same moment changes nothing.
    const rowsBefore = await count();
    expect(await runMonthlyResets(deps)).toEqual([]);
    expect(await count()).toBe(rowsBefore);

    // The idle employee, back, is not renewed until asked: TOKEN_MONTH_NOT_MATCH, then renew.
    await setEmployeeStatus(deps, scope, idle.id, 'active');
    expect(
      await codeOf(
        distributeToEmployees(deps, scope, null, { items: [{ employee_id: idle.id, amount: 1 }] }),
      ),
    ).toBe('TOKEN_MONTH_NOT_MATCH');
    const renewed = await renewEmployee(deps, scope, idle.id, null);
    expect(renewed).toMatchObject({
      token_month: '2026-02',
      available_tokens: 100,
      issued_tokens: 100,
    });
    await distributeToEmployees(deps, scope, null, {
      items: [{ employee_id: idle.id, amount: 1 }],
    });
  });

  it('uses init_token_next_month once, then keeps it as init_token; inactive companies get nothing', async () => {
    deps.clock.set('2026-03-10T00:00:00Z');
    const company = await newCompany(deps, { initToken: 100, resetDay: 15 });
    const dormant = await newCompany(deps, { initToken: 100, resetDay: 15 });
    const { updateTokenConfiguration } = await import('../tokens');
    await updateTokenConfiguration(deps, { type: 'admin' }, ALL, {
      company_id: company.id,
      init_token_next_month: 40,
    });
    await setCompanyStatus(deps, ALL, dormant.id, 'inactive');
    deps.clock.set('2026-03-15T00:00:00Z');
    await runMonthlyResets(deps);
    expect(await getCompany(deps, ALL, company.id)).toMatchObject({
      token_balance: 40,
      init_token: 40,
      init_token_next_month: null,
      token_month: '2026-03',
    });
    expect(await getCompany(deps, ALL, dormant.id)).toMatchObject({
      token_balance: 0,
      token_month: '2026-03',
    });
    deps.clock.set('2026-04-15T00:00:00Z');
    await runMonthlyResets(deps);
    expect(await getCompany(deps, ALL, company.id)).toMatchObject({
      token_balance: 40,
      token_month: '2026-04',
    });
  });

  it('gives no monthly amounts when the company cannot cover them all', async () => {
    deps.clock.set('2026-05-10T00:00:00Z');
    const company = await newCompany(deps, {
      initToken: 150,
      resetDay: 20,
      employeeMonthlyTokens: 100,
    });
    const a = await newEmployee(deps, company.id);
    const b = await newEmployee(deps, company.id);
    deps.clock.set('2026-05-20T00:00:00Z');
    await runMonthlyResets(deps);
    expect(await getCompany(deps, ALL, company.id)).toMatchObject({
      token_balance: 150,
      token_month: '2026-05',
    });
    for (const e of [a, b]) {
      expect(await getEmployee(deps, ALL, e.id)).toMatchObject({
        available_tokens: 0,
        token_month: '2026-05',
      });
    }
  });

  it('catches up every missed month, in order, after a long downtime', async () => {
    deps.clock.set('2026-06-02T00:00:00Z');
    const company = await newCompany(deps, { initToken: 10, resetDay: 1 });
    deps.clock.set('2026-09-05T00:00:00Z');
    const runs = (await runMonthlyResets(deps)).filter((r) => r.company_id === company.id);
    expect(runs.map((r) => r.period)).toEqual(['2026-07', '2026-08', '2026-09']);
    expect(await getCompany(deps, ALL, company.id)).toMatchObject({
      token_balance: 10,
      token_month: '2026-09',
      next_reset_at: '2026-10-01T00:00:00.000Z',
    });
  });
});

describe.each(await testDatabaseKinds())('the database guards the ledger on %s', (kind) => {
  let db: TestDatabase;
  let deps: LedgerTestDeps;
  let companyId: number;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    deps = ledgerDeps(db);
    companyId = (await newCompany(deps, { initToken: 100 })).id;
  });
  afterAll(async () => {
    await assertLedgerInvariants(deps.database.db);
    await db.drop();
  });

  const refused = async (statement: string) => {
    let error: unknown;
    try {
      await deps.database.db.execute(sql.raw(statement));
    } catch (e) {
      error = e;
    }
    expect(error, statement).toBeDefined();
  };

  it('refuses to update, delete or truncate ledger rows', async () => {
    await refused(`UPDATE token_transactions SET amount = amount + 1`);
    await refused(`DELETE FROM token_transactions`);
    await refused(`TRUNCATE token_transactions`);
  });

  it('refuses balances written other than through a ledger row', async () => {
    await refused(`UPDATE companies SET token_balance = token_balance + 1 WHERE id = ${companyId}`);
    const e = await newEmployee(deps, companyId);
    await refused(
      `UPDATE employees SET available_tokens = available_tokens + 1 WHERE id = ${e.id}`,
    );
    await refused(
      `INSERT INTO companies (code, name, monthly_reset_day, token_balance, token_month, next_reset_at, created_at, updated_at)
       VALUES ('RICH1', 'Rich', 1, 5, '2026-01', now(), now(), now())`,
    );
  });

  it('refuses ledger rows that do not chain onto the wallet, or would go negative', async () => {
    const insert = (before: number, direction: string, amount: number) =>
      `INSERT INTO token_transactions (occurred_at, event, company_id, direction, amount, balance_before, balance_after, period)
       VALUES (date_trunc('milliseconds', now()), '${direction === 'received' ? 'company_issued' : 'company_expired'}', ${companyId},
               '${direction}', ${amount}, ${before}, ${before + (direction === 'received' ? amount : -amount)}, '2026-01')`;
    await refused(insert(99, 'received', 1)); // the wallet holds 100, not 99
    await refused(insert(100, 'sent', 101)); // below zero
    await refused(
      `INSERT INTO token_transactions (occurred_at, event, company_id, direction, amount, balance_before, balance_after, period)
       VALUES (date_trunc('milliseconds', now()), 'company_issued', ${companyId}, 'received', 5, 100, 106, '2026-01')`,
    );
    // A lone half of a transfer fails at its own statement (migration 0011).
    await refused(
      `INSERT INTO token_transactions (occurred_at, event, company_id, direction, amount, balance_before, balance_after, period, transfer_id)
       VALUES (date_trunc('milliseconds', now()), 'employee_issued', ${companyId}, 'sent', 5, 100, 95, '2026-01', gen_random_uuid())`,
    );
    expect((await getCompany(deps, ALL, companyId)).token_balance).toBe(100);
  });

  it('refuses refunded amounts written directly, or past the subtotal', async () => {
    const e = await newEmployee(deps, companyId);
    const terminal = await newTerminal(deps);
    await distributeToEmployees(deps, { kind: 'company', companyId }, null, {
      items: [{ employee_id: e.id, amount: 20 }],
    });
    const placed = await order(
      deps,
      terminal,
      { code: (await getCompany(deps, ALL, companyId)).code },
      e,
      20,
    );
    await refused(`UPDATE orders SET refunded_amount = 20 WHERE id = ${placed.id}`);
    await refused(
      `INSERT INTO token_transactions (occurred_at, event, company_id, employee_id, direction, amount, balance_before, balance_after, period, order_id, refund_reason)
       VALUES (date_trunc('milliseconds', now()), 'order_refunded', ${companyId}, ${e.id}, 'received', 21, 0, 21, '2026-01', ${placed.id}, 'cancelled')`,
    );
  });

  // Decision 0042: the ledger's foreign keys are checked per statement by its trigger, and
  // deleting what a ledger row names is refused by a guard. Each bad row below is otherwise valid:
  // the same row with a real reference is accepted (`accepted`), so the refusal is the reference's.
  const refusedWith = async (statement: string, reason: RegExp) => {
    let error: unknown;
    try {
      await deps.database.db.execute(sql.raw(statement));
    } catch (e) {
      error = e;
    }
    expect(error, statement).toBeDefined();
    const cause = (error as { cause?: { message?: string; code?: string } }).cause;
    expect(cause?.message ?? (error as Error).message, statement).toMatch(reason);
    expect(cause?.code, statement).toBe('23503');
  };
  const accepted = (statement: string) => deps.database.db.execute(sql.raw(statement));
  const balanceOf = async (id: number) => (await getCompany(deps, ALL, id)).token_balance;
  const MISSING = 987654321;
  /** A company_issued row onto the company's current balance, with these extra columns. */
  const issued = async (id: number, extra: Record<string, number> = {}) => {
    const before = await balanceOf(id);
    const names = Object.keys(extra)
      .map((k) => `, ${k}`)
      .join('');
    const values = Object.values(extra)
      .map((v) => `, ${v}`)
      .join('');
    return `INSERT INTO token_transactions (occurred_at, event, company_id, direction, amount, balance_before, balance_after, period${names})
            VALUES (date_trunc('milliseconds', now()), 'company_issued', ${id}, 'received', 1, ${before}, ${before + 1}, '2026-01'${values})`;
  };

  it('refuses a ledger row naming a company, employee or order that does not exist', async () => {
    await refusedWith(
      `INSERT INTO token_transactions (occurred_at, event, company_id, direction, amount, balance_before, balance_after, period)
       VALUES (date_trunc('milliseconds', now()), 'company_issued', ${MISSING}, 'received', 1, 0, 1, '2026-01')`,
      /names a company that does not exist/,
    );
    await accepted(await issued(companyId));

    const e = await newEmployee(deps, companyId);
    const other = await newCompany(deps, { initToken: 0 });
    await accepted(await issued(other.id));
    // An employee credit alone fails the transfer check, so these are rows of a statement whose
    // other half is valid; the employee that does not exist, or is another company's, is named.
    const transfer = async (company: number, employee: number) => {
      const before = await balanceOf(company);
      return `WITH id AS (SELECT gen_random_uuid() AS t)
              INSERT INTO token_transactions (occurred_at, event, company_id, employee_id, direction, amount, balance_before, balance_after, period, transfer_id)
              SELECT date_trunc('milliseconds', now()), 'employee_issued', ${company}, x.employee_id, x.direction, 1, x.before, x.after, '2026-01', id.t
                FROM id, (VALUES (NULL::bigint, 'sent', ${before}::bigint, ${before - 1}::bigint, 1),
                                 (${employee}::bigint, 'received', 0::bigint, 1::bigint, 2)) AS x(employee_id, direction, before, after, n)
               ORDER BY x.n`;
    };
    await refusedWith(
      await transfer(companyId, MISSING),
      /names an employee the company does not have/,
    );
    await refusedWith(
      await transfer(other.id, e.id),
      /names an employee the company does not have/,
    );
    await accepted(await transfer(companyId, e.id));
    expect((await getEmployee(deps, ALL, e.id)).available_tokens).toBe(1);

    await refusedWith(
      `INSERT INTO token_transactions (occurred_at, event, company_id, employee_id, direction, amount, balance_before, balance_after, period, order_id)
       VALUES (date_trunc('milliseconds', now()), 'order_purchased', ${companyId}, ${e.id}, 'sent', 1, 1, 0, '2026-01', ${MISSING})`,
      /name order \d+, which does not exist/,
    );
    await refusedWith(
      `INSERT INTO token_transactions (occurred_at, event, company_id, employee_id, direction, amount, balance_before, balance_after, period, order_id, refund_reason)
       VALUES (date_trunc('milliseconds', now()), 'order_refunded', ${companyId}, ${e.id}, 'received', 1, 1, 2, '2026-01', ${MISSING}, 'cancelled')`,
      /name order \d+, which does not exist/,
    );
  });

  it('refuses a second renewal of an employee into a token month (decision 0042)', async () => {
    const e = await newEmployee(deps, companyId);
    const month = (await getEmployee(deps, ALL, e.id)).token_month;
    const later = `${Number(month.slice(0, 4)) + 1}${month.slice(4)}`;
    const renewal = async (period: string, times = 1) => {
      const before = await balanceOf(companyId);
      const held = (await getEmployee(deps, ALL, e.id)).available_tokens;
      const rows = Array.from({ length: times }, (_, i) => [
        `(${2 * i}, NULL::bigint, 'sent', ${before - i}::bigint, ${before - i - 1}::bigint)`,
        `(${2 * i + 1}, ${e.id}::bigint, 'received', ${held + i}::bigint, ${held + i + 1}::bigint)`,
      ]).flat();
      return `WITH x(n, employee_id, direction, before, after) AS (VALUES ${rows.join(', ')}),
                   t AS (SELECT n / 2 AS pair, gen_random_uuid() AS id FROM generate_series(0, ${2 * times - 1}, 2) n)
              INSERT INTO token_transactions (occurred_at, event, company_id, employee_id, direction, amount, balance_before, balance_after, period, transfer_id)
              SELECT date_trunc('milliseconds', now()), 'monthly_tokens_reset', ${companyId}, x.employee_id, x.direction, 1, x.before, x.after, '${period}', t.id
                FROM x JOIN t ON t.pair = x.n / 2 ORDER BY x.n`;
    };
    const refusedAsDuplicate = async (statement: string) => {
      let error: unknown;
      try {
        await deps.database.db.execute(sql.raw(statement));
      } catch (e) {
        error = e;
      }
      const cause = (error as { cause?: { message?: string; code?: string } }).cause;
      expect(cause?.message, statement).toMatch(/is already renewed into/);
      expect(cause?.code, statement).toBe('23505');
    };
    // Into the month it is in, or twice in one statement: refused; once into a later month: taken.
    await refusedAsDuplicate(await renewal(month));
    await refusedAsDuplicate(await renewal(later, 2));
    await accepted(await renewal(later));
    expect(await getEmployee(deps, ALL, e.id)).toMatchObject({
      token_month: later,
      available_tokens: 1,
    });
    await refusedAsDuplicate(await renewal(later));
  });

  it('refuses a ledger row naming a terminal, merchant or user that does not exist', async () => {
    const terminal = await newTerminal(deps);
    const user = await createUser(deps.database.db, { type: 'admin' });
    const userId = user.id;
    await refusedWith(
      await issued(companyId, { terminal_id: MISSING }),
      /terminal \d+, which does not exist/,
    );
    await refusedWith(
      await issued(companyId, { merchant_id: MISSING }),
      /merchant \d+, which does not exist/,
    );
    await refusedWith(
      await issued(companyId, { actor_user_id: MISSING }),
      /user \d+, which does not exist/,
    );
    // One statement, one good and one missing reference: still refused.
    const before = await balanceOf(companyId);
    await refusedWith(
      `INSERT INTO token_transactions (occurred_at, event, company_id, direction, amount, balance_before, balance_after, period, terminal_id)
       VALUES (date_trunc('milliseconds', now()), 'company_issued', ${companyId}, 'received', 1, ${before}, ${before + 1}, '2026-01', ${terminal.identity.id}),
              (date_trunc('milliseconds', now()), 'company_issued', ${companyId}, 'received', 1, ${before + 1}, ${before + 2}, '2026-01', ${MISSING})`,
      /terminal \d+, which does not exist/,
    );
    expect(await balanceOf(companyId)).toBe(before);
    await accepted(
      await issued(companyId, {
        terminal_id: terminal.identity.id,
        merchant_id: terminal.merchantId,
        actor_user_id: userId,
      }),
    );
    expect(await balanceOf(companyId)).toBe(before + 1);
  });

  it('refuses an employee naming a company that does not exist, moving company, or outliving its company (decision 0057)', async () => {
    const employee = (company: number, staffNumber: string) =>
      `INSERT INTO employees (company_id, employee_id, status, token_month, created_at, updated_at)
       VALUES (${company}, '${staffNumber}', 'active', '2026-01', now(), now())`;
    const tag = `fk${Date.now().toString(36)}`;
    await refusedWith(
      employee(MISSING, `${tag}-a`),
      /employees name company \d+, which does not exist/,
    );
    // One statement of several employees: one missing company refuses them all.
    await refusedWith(
      `${employee(companyId, `${tag}-b`)}, (${MISSING}, '${tag}-c', 'active', '2026-01', now(), now())`,
      /employees name company \d+, which does not exist/,
    );
    await accepted(employee(companyId, `${tag}-d`));
    const other = await newCompany(deps, { initToken: 0 });
    await expect(
      deps.database.db.execute(
        sql.raw(`UPDATE employees SET company_id = ${other.id} WHERE employee_id = '${tag}-d'`),
      ),
    ).rejects.toMatchObject({
      cause: { message: expect.stringMatching(/cannot move to another company/) },
    });
    // A company no ledger row names, but with an employee: its employee keeps it.
    await newEmployee(deps, other.id);
    await refusedWith(
      `DELETE FROM companies WHERE id = ${other.id}`,
      /companies \d+ has employees and cannot be deleted/,
    );
  });

  it('refuses deleting, re-keying or truncating what a ledger row names, and nothing else', async () => {
    const e = await newEmployee(deps, companyId);
    const terminal = await newTerminal(deps);
    await distributeToEmployees(deps, { kind: 'company', companyId }, null, {
      items: [{ employee_id: e.id, amount: 5 }],
    });
    const placed = await order(
      deps,
      terminal,
      { code: (await getCompany(deps, ALL, companyId)).code },
      e,
      5,
    );
    const user = await createUser(deps.database.db, { type: 'admin' });
    await accepted(await issued(companyId, { actor_user_id: user.id }));
    const named: [string, number][] = [
      ['orders', placed.id],
      ['terminals', terminal.identity.id],
      ['merchants', terminal.merchantId],
      ['employees', e.id],
      ['companies', companyId],
      ['users', user.id],
    ];
    for (const [table, id] of named) {
      await refusedWith(
        `DELETE FROM ${table} WHERE id = ${id}`,
        /is named by ledger rows and cannot be deleted/,
      );
      await refusedWith(
        `TRUNCATE ${table} CASCADE`,
        /cannot be truncated: ledger rows name its rows/,
      );
    }
    await refusedWith(
      `UPDATE merchants SET id = DEFAULT WHERE id = ${terminal.merchantId}`,
      /is named by ledger rows and cannot be given another id/,
    );
    // What no ledger row names can still go (the guard is not a ban on deletes).
    const unused = await newTerminal(deps);
    await accepted(`DELETE FROM terminals WHERE id = ${unused.identity.id}`);
    await accepted(`DELETE FROM merchants WHERE id = ${unused.merchantId}`);
  });
});
