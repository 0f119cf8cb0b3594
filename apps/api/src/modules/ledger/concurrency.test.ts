// Concurrency on PostgreSQL (PGlite runs one statement at a time, so it cannot race).
import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app';
import { testDatabaseKinds } from '../../../test/databases';
import { assertLedgerInvariants } from '../../../test/invariants';
import { newCompany, newEmployee, newTerminal, order } from '../../../test/ledger';
import type { ServiceDeps } from '../../lib/deps';
import { getCompany } from '../companies';
import { getEmployee } from '../employees';
import { runMonthlyResets } from '../jobs';
import { distributeToEmployees } from '../tokens';
import { refundTerminalOrder } from '../orders';

const ALL = { kind: 'all' } as const;
const kinds = (await testDatabaseKinds()).filter((k) => k === 'postgres');

/** Settles every promise and counts outcomes by AppError code ('ok' for success). */
async function outcomes(promises: Promise<unknown>[]): Promise<Record<string, number>> {
  const tally: Record<string, number> = {};
  for (const result of await Promise.allSettled(promises)) {
    const key =
      result.status === 'fulfilled'
        ? 'ok'
        : String((result.reason as { code?: unknown }).code ?? (result.reason as Error).message);
    tally[key] = (tally[key] ?? 0) + 1;
  }
  return tally;
}

const shuffle = <T>(items: T[]): T[] => {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = crypto.randomInt(i + 1);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
};

describe.each(kinds)('ledger under concurrency on %s', () => {
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

  it('lets exactly 100 of 200 simultaneous orders through when the balance covers 100', async () => {
    const company = await newCompany(deps, { initToken: 300 });
    const e = await newEmployee(deps, company.id);
    const terminal = await newTerminal(deps);
    await distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, {
      items: [{ employee_id: e.id, amount: 300 }],
    });
    const responses = await Promise.all(
      Array.from({ length: 200 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/orders',
          headers: {
            authorization: `Bearer ${terminal.key}`,
            'idempotency-key': crypto.randomUUID(),
          },
          payload: {
            company_code: company.code,
            employee_id: e.employee_id,
            order_type: 'dine_in',
            items: [{ name: 'Coffee', quantity: 1, unit_tokens: 3 }],
          },
        }),
      ),
    );
    const byStatus: Record<string, number> = {};
    for (const r of responses) {
      const key = r.statusCode === 201 ? '201' : `${r.statusCode} ${r.json().code}`;
      byStatus[key] = (byStatus[key] ?? 0) + 1;
    }
    expect(byStatus).toEqual({ '201': 100, '409 INSUFFICIENT_TOKENS': 100 });
    expect(await getEmployee(deps, ALL, e.id)).toMatchObject({
      available_tokens: 0,
      consumed_tokens: 300,
    });
    // Every success saw a distinct balance: 297, 294, …, 0.
    const after = responses
      .filter((r) => r.statusCode === 201)
      .map((r) => r.json().data.available_tokens as number);
    expect(new Set(after).size).toBe(100);
    expect(Math.min(...after)).toBe(0);
  });

  it('never overdraws a company under simultaneous distributions (random item orders, no deadlock)', async () => {
    const company = await newCompany(deps, { initToken: 1000 });
    const staff = await Promise.all(
      Array.from({ length: 12 }, () => newEmployee(deps, company.id)),
    );
    const scope = { kind: 'company', companyId: company.id } as const;
    const requests = Array.from({ length: 60 }, () =>
      shuffle(staff)
        .slice(0, 1 + crypto.randomInt(6))
        .map((e) => ({ employee_id: e.id, amount: 1 + crypto.randomInt(15) })),
    );
    const tally = await outcomes(
      requests.map((items) => distributeToEmployees(deps, scope, null, { items })),
    );
    expect(Object.keys(tally).every((k) => k === 'ok' || k === 'TOTAL_EXCEEDS_AVAILABLE')).toBe(
      true,
    );
    expect(tally.ok).toBeGreaterThan(0);
    const held = (await Promise.all(staff.map((e) => getEmployee(deps, ALL, e.id)))).reduce(
      (sum, e) => sum + e.available_tokens,
      0,
    );
    const companyNow = await getCompany(deps, ALL, company.id);
    expect(companyNow.token_balance).toBeGreaterThanOrEqual(0);
    expect(companyNow.token_balance + held).toBe(1000);
  });

  it('never refunds more than the subtotal under simultaneous refunds of one order', async () => {
    const company = await newCompany(deps, { initToken: 100 });
    const e = await newEmployee(deps, company.id);
    const terminal = await newTerminal(deps);
    await distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, {
      items: [{ employee_id: e.id, amount: 100 }],
    });
    const placed = await order(deps, terminal, company, e, 100);
    const attempts = [
      ...Array.from({ length: 40 }, () => ({ reason: 'item_removed' as const, amount: 7 })),
      ...Array.from({ length: 5 }, () => ({ reason: 'cancelled' as const })),
    ];
    const tally = await outcomes(
      shuffle(attempts).map((body) =>
        refundTerminalOrder(deps, terminal.identity, crypto.randomUUID(), placed.id, body),
      ),
    );
    expect(
      Object.keys(tally).every((k) =>
        ['ok', 'REFUND_EXCEEDS_SUBTOTAL', 'ORDER_ALREADY_REFUNDED'].includes(k),
      ),
    ).toBe(true);
    const employee = await getEmployee(deps, ALL, e.id);
    expect(employee.available_tokens).toBeLessThanOrEqual(100);
    // The order ends fully refunded only if a full refund won; either way the wallet matches.
    const { rows } = (await deps.database.db.execute(
      `SELECT refunded_amount, subtotal, status FROM orders WHERE id = ${placed.id}`,
    )) as unknown as { rows: { refunded_amount: number; subtotal: number; status: string }[] };
    expect(rows[0]!.refunded_amount).toBeLessThanOrEqual(100);
    expect(employee.available_tokens).toBe(rows[0]!.refunded_amount);
  });

  it('runs orders, refunds, distributions and a reset on one company at once without a deadlock', async () => {
    t.clock.set('2026-03-20T10:00:00Z');
    const company = await newCompany(deps, {
      initToken: 5000,
      resetDay: 21,
      employeeMonthlyTokens: 20,
    });
    const staff = await Promise.all(Array.from({ length: 8 }, () => newEmployee(deps, company.id)));
    const scope = { kind: 'company', companyId: company.id } as const;
    const terminal = await newTerminal(deps);
    await distributeToEmployees(deps, scope, null, {
      items: staff.map((e) => ({ employee_id: e.id, amount: 200 })),
    });
    const placed = await Promise.all(staff.map((e) => order(deps, terminal, company, e, 50)));
    t.clock.set('2026-03-21T00:00:00Z');
    const work: Promise<unknown>[] = [
      runMonthlyResets(deps),
      ...staff.map((e) => order(deps, terminal, company, e, 10)),
      ...placed.map((p) =>
        refundTerminalOrder(deps, terminal.identity, crypto.randomUUID(), p.id, {
          reason: 'rejected',
        }),
      ),
      ...Array.from({ length: 10 }, () =>
        distributeToEmployees(deps, scope, null, {
          items: shuffle(staff)
            .slice(0, 3)
            .map((e) => ({ employee_id: e.id, amount: 5 })),
        }),
      ),
      runMonthlyResets(deps),
    ];
    const tally = await outcomes(work);
    // A distribution that lands after the reset still works (employees renewed); one placed
    // between the expiry and the renewal cannot exist, both being one transaction.
    expect(Object.keys(tally).every((k) => k === 'ok' || k === 'INSUFFICIENT_TOKENS')).toBe(true);
    expect(await getCompany(deps, ALL, company.id)).toMatchObject({ token_month: '2026-03' });
  });
});
