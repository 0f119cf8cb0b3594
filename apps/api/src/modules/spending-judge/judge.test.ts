// The spending judge's SQL (decision 0080), on both databases: its time windows tested as the
// times compare, at every second of a day, and the day's spending kept by quarter-hour, in a time
// zone whose midnight is not on a UTC hour, through orders, a part payment and refunds.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app';
import { testDatabaseKinds } from '../../../test/databases';
import { assertLedgerInvariants } from '../../../test/invariants';
import { newCompany, newEmployee, newTerminal } from '../../../test/ledger';
import { queryRows } from '../../db/client';
import { distributeToEmployees } from '../tokens';

describe.each(await testDatabaseKinds())('the spending judge on %s', (kind) => {
  let t: TestApp;
  const db = () => t.app.deps.database.db;

  beforeAll(async () => {
    // Kathmandu is 5:45 ahead of UTC: its midnight falls at 18:15 UTC.
    t = await createTestApp(kind, { APP_TIMEZONE: 'Asia/Kathmandu' });
  });
  afterAll(() => t.close());

  it('tests the time windows as the times compare, at every second of a day and just before the next', async () => {
    const windows = [
      [
        { from: '00:00', to: '11:30' },
        { from: '11:30', to: '23:59' },
      ],
      [{ from: '09:15', to: '09:16' }],
      [
        { from: '11:00', to: '14:30' },
        { from: '18:00', to: '21:45' },
      ],
    ];
    const rows = await queryRows<{ set: number; outside: string; differ: string }>(
      db(),
      sql`SELECT w.n AS set,
                 count(*) FILTER (WHERE j.code = 'OUTSIDE_ALLOWED_HOURS') AS outside,
                 count(*) FILTER (WHERE (j.code IS NOT DISTINCT FROM 'OUTSIDE_ALLOWED_HOURS') <> (NOT EXISTS (
                   SELECT 1 FROM jsonb_array_elements(w.hours) x
                    WHERE s.at::time >= (x ->> 'from')::time AND s.at::time < (x ->> 'to')::time)))
                   AS differ
            FROM jsonb_array_elements(${JSON.stringify(windows)}::jsonb) WITH ORDINALITY AS w(hours, n)
           CROSS JOIN generate_series(timestamp '2026-01-15 00:00:00',
                                      timestamp '2026-01-15 23:59:59', interval '1 second') AS d(at)
           CROSS JOIN (VALUES (interval '0'), (interval '0.999 second')) AS o(by)
           CROSS JOIN LATERAL (SELECT d.at + o.by AS at) s
           CROSS JOIN LATERAL spending_judge(NULL, w.hours, false, NULL, NULL, NULL, s.at, false,
                                             NULL, 1, NULL, 'UTC') j
           GROUP BY w.n ORDER BY w.n`,
    );
    const day = 2 * 86_400;
    expect(rows.map((r) => [Number(r.set), Number(r.outside), Number(r.differ)])).toEqual([
      [1, 2 * 60, 0],
      [2, day - 2 * 60, 0],
      [3, day - 2 * (3.5 * 3600 + 3.75 * 3600), 0],
    ]);
  });

  it("keeps each employee's spending by quarter-hour, so that a local day that starts at 18:15 UTC counts its own orders, parts paid and refunds", async () => {
    const deps = t.app.deps;
    const terminal = await newTerminal(deps);
    const company = await newCompany(deps, { initToken: 1000 });
    const employee = await newEmployee(deps, company.id);
    await distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, {
      items: [{ employee_id: employee.id, amount: 500 }],
    });
    await queryRows(
      db(),
      sql`INSERT INTO spending_rule_versions (company_id, effective_from, daily_limit,
            partial_payment, created_at)
          VALUES (${company.id}, '2026-01-01', 25, true, now())`,
    );
    const order = async (tokens: number, extra: Record<string, unknown> = {}) => {
      const answer = await t.app.inject({
        method: 'POST',
        url: '/api/v1/orders',
        headers: {
          authorization: `Bearer ${terminal.key}`,
          'idempotency-key': crypto.randomUUID(),
        },
        payload: {
          company_code: company.code,
          employee_id: employee.employee_id,
          order_type: 'dine_in',
          items: [{ name: 'Lunch', quantity: 1, unit_tokens: tokens }],
          ...extra,
        },
      });
      return { status: answer.statusCode, body: answer.json() };
    };
    const refund = async (orderId: number, payload: object) =>
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/v1/orders/${orderId}/refund`,
          headers: {
            authorization: `Bearer ${terminal.key}`,
            'idempotency-key': crypto.randomUUID(),
          },
          payload,
        })
      ).statusCode;
    const kept = async () =>
      (
        await queryRows<{ bucket: Date | string; spent: string }>(
          db(),
          sql`SELECT bucket, spent FROM spending_quarter_hours
               WHERE employee_id = ${employee.id} ORDER BY bucket`,
        )
      ).map((r) => [new Date(r.bucket).toISOString(), Number(r.spent)]);
    const remaining = async () =>
      Number(
        (
          await queryRows<{ remaining: string }>(
            db(),
            sql`SELECT spending_remaining_today(${employee.id}, 'Asia/Kathmandu',
                  ${t.clock.now().toISOString()}::timestamptz) AS remaining`,
          )
        )[0]!.remaining,
      );

    // 23:50 on the 15th in Kathmandu, then 00:05 on the 16th: fifteen minutes apart in UTC.
    t.clock.set(new Date('2026-01-15T18:05:00Z'));
    const late = await order(20);
    expect(late.status).toBe(201);
    t.clock.set(new Date('2026-01-15T18:20:00Z'));
    const early = await order(20);
    expect(early.status).toBe(201);
    // The 16th: 20 spent, so a part of the next order (5 of 8) and then nothing.
    const part = await order(8, { partial: true });
    expect(part.body.data).toMatchObject({ subtotal: 8, paid_tokens: 5, to_pay_otherwise: 3 });
    expect((await order(1)).body).toMatchObject({
      code: 'DAILY_LIMIT_EXCEEDED',
      details: { daily_limit: 25, spent_today: 25, remaining_today: 0 },
    });
    expect(await kept()).toEqual([
      ['2026-01-15T18:00:00.000Z', 20],
      ['2026-01-15T18:15:00.000Z', 25],
    ]);

    // Refunding the 15th's order gives the 15th back, not today; part of today's gives today.
    expect(await refund(late.body.data.id, { reason: 'cancelled' })).toBe(200);
    expect(await remaining()).toBe(0);
    expect(await refund(early.body.data.id, { reason: 'item_removed', amount: 12 })).toBe(200);
    expect(await remaining()).toBe(12);
    expect(await kept()).toEqual([
      ['2026-01-15T18:00:00.000Z', 0],
      ['2026-01-15T18:15:00.000Z', 13],
    ]);
    expect((await order(12)).status).toBe(201);
    expect((await order(1)).status).toBe(409);
    await assertLedgerInvariants(db());

    // The invariant checker holds the kept sums to the orders'.
    await queryRows(
      db(),
      sql`UPDATE spending_quarter_hours SET spent = spent + 1 WHERE employee_id = ${employee.id}
            AND bucket = '2026-01-15T18:15:00Z'`,
    );
    await expect(assertLedgerInvariants(db())).rejects.toThrow(/spending_quarter_hours/);
    await queryRows(
      db(),
      sql`UPDATE spending_quarter_hours SET spent = spent - 1 WHERE employee_id = ${employee.id}
            AND bucket = '2026-01-15T18:15:00Z'`,
    );
    await assertLedgerInvariants(db());
  });
});
