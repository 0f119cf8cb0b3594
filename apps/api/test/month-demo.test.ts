// Issue 3 is done when a month of a programme runs through the HTTP API alone and comes out exact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MONTH_DEMO_ADMIN, runMonthDemo, type MonthDemoResult } from '../scripts/month-demo';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { ManualClock } from '../src/lib/clock';
import { seedOnFirstStart } from '../src/seed';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from './databases';
import { assertLedgerInvariants } from './invariants';

describe.each(await testDatabaseKinds())('a month of a programme over HTTP on %s', (kind) => {
  let db: TestDatabase;
  let result: MonthDemoResult;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      SERVE_WEB: 'false',
      DEMO_DATA: 'false',
      MFA_REQUIRED_ROLES: 'none',
      ADMIN_USERNAME: MONTH_DEMO_ADMIN.username,
      ADMIN_PASSWORD: MONTH_DEMO_ADMIN.password,
    });
    await seedOnFirstStart({
      config,
      database: db.database,
      log: { info: () => undefined, warn: () => undefined },
    });
    const clock = new ManualClock();
    const app = await buildApp({ config, database: db.database, clock, logger: false });
    try {
      result = await runMonthDemo(app, clock);
    } finally {
      await app.close();
    }
  });
  afterAll(() => db.drop());

  it('ends the month with exact balances, in the new token month', () => {
    expect(result.company).toMatchObject({ token_balance: 9_100, token_month: '2026-04' });
    expect(result.employees).toEqual([
      { employee_id: 'E0001', available_tokens: 300, token_month: '2026-04' },
      { employee_id: 'E0002', available_tokens: 300, token_month: '2026-04' },
      { employee_id: 'E0003', available_tokens: 300, token_month: '2026-04' },
    ]);
  });

  it('reads back every ledger row, newest first, across cursor pages', () => {
    const rows = result.transactions;
    expect(rows).toHaveLength(24);
    expect(result.pages).toBe(5);
    expect(result.totals).toEqual({
      monthly_tokens_added: 20_000, // the opening 10 000 and April's 10 000
      company_issued: 2_000,
      employee_issued: 2_400, // 1 200 out of the company, 1 200 into the employees
      order_purchased: 650,
      order_refunded: 100,
      employee_expired: 650, // E0001's 380 and E0003's 270; E0002 had nothing left
      company_expired: 10_800,
      monthly_tokens_reset: 1_800, // 3 × 300, on both sides of each transfer
    });
    // Newest first in the ledger's write order: read bottom-up, the reset in the order written.
    const april = rows
      .filter((r) => r.period === '2026-04')
      .reverse()
      .map((r) => [
        r.event,
        r.employee_number,
        r.direction,
        r.amount,
        r.balance_before,
        r.balance_after,
      ]);
    expect(april).toEqual([
      ['monthly_tokens_added', null, 'received', 10_000, 0, 10_000],
      ['monthly_tokens_reset', null, 'sent', 300, 10_000, 9_700],
      ['monthly_tokens_reset', 'E0001', 'received', 300, 0, 300],
      ['monthly_tokens_reset', null, 'sent', 300, 9_700, 9_400],
      ['monthly_tokens_reset', 'E0002', 'received', 300, 0, 300],
      ['monthly_tokens_reset', null, 'sent', 300, 9_400, 9_100],
      ['monthly_tokens_reset', 'E0003', 'received', 300, 0, 300],
    ]);
    const expiries = rows
      .filter((r) => r.event.endsWith('_expired'))
      .reverse()
      .map((r) => [r.employee_number, r.amount, r.period]);
    expect(expiries).toEqual([
      ['E0001', 380, '2026-03'],
      ['E0003', 270, '2026-03'],
      [null, 10_800, '2026-03'],
    ]);
  });

  it('conserves every token and keeps invariants 1–6', async () => {
    const t = result.totals;
    const net =
      t.company_issued! +
      t.monthly_tokens_added! -
      t.company_expired! -
      t.employee_expired! -
      t.order_purchased! +
      t.order_refunded!;
    const held =
      result.company.token_balance + result.employees.reduce((s, e) => s + e.available_tokens, 0);
    expect(net).toBe(held);
    expect(held).toBe(10_000);
    const summary = await assertLedgerInvariants(db.database.db);
    expect(summary).toMatchObject({ rows: 24, orders: 4, total: 10_000 });
  });
});
