// The preview of a candidate rule set (DESIGN 7, issue 42) equals what enforcement would have
// done: the company's last 30 days replayed through POST /orders/check on a copy (a company with
// the same employees and balances and the candidate in force, each allowed order then placed)
// give the same declines, code by code, as spending_preview.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Company, Employee } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { testDatabaseKinds } from '../../../test/databases';
import { newCompany, newEmployee, newTerminal, type TestTerminal } from '../../../test/ledger';
import { queryRows } from '../../db/client';
import { distributeToEmployees } from '../tokens';

const RULES = {
  daily_limit: 40,
  order_limit: 22,
  weekdays: [1, 2, 3, 4, 5],
  hours: [
    { from: '11:00', to: '14:30' },
    { from: '17:00', to: '20:00' },
  ],
  closed_on_holidays: true,
  merchant_categories: ['restaurant', 'canteen'],
  partial_payment: false,
};
const NOW = '2026-01-31T22:00:00Z';

describe.each(await testDatabaseKinds())('the spending rules preview on %s', (kind) => {
  let t: TestApp;
  const tills: TestTerminal[] = [];
  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const category of ['restaurant', 'grocery']) {
      const till = await newTerminal(t.app.deps);
      await queryRows(
        t.app.deps.database.db,
        sql`UPDATE merchants SET category = ${category} WHERE id = ${till.merchantId}`,
      );
      tills.push(till);
    }
    await queryRows(
      t.app.deps.database.db,
      sql`INSERT INTO holidays (day, name) VALUES ('2026-01-26', 'A holiday')`,
    );
  });
  afterAll(() => t.close());

  const staffOf = async (company: Company) => {
    const staff: Employee[] = [];
    for (let i = 0; i < 3; i += 1) staff.push(await newEmployee(t.app.deps, company.id));
    await distributeToEmployees(t.app.deps, { kind: 'company', companyId: company.id }, null, {
      items: staff.map((e) => ({ employee_id: e.id, amount: 2000 })),
    });
    return staff;
  };
  const send = (url: string, till: TestTerminal, company: Company, who: Employee, tokens: number) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: {
        authorization: `Bearer ${till.key}`,
        ...(url.endsWith('check') ? {} : { 'idempotency-key': crypto.randomUUID() }),
      },
      payload: {
        company_code: company.code,
        employee_id: who.employee_id,
        order_type: 'dine_in',
        items: [{ name: 'Meal', quantity: 1, unit_tokens: tokens }],
      },
    });

  it('declines, code by code, what the dry run on a copy declines', async () => {
    const deps = t.app.deps;
    // The history: 150 orders over the last 16 days at varied hours, amounts and merchants.
    // A seeded source (mulberry32): the same history at every run.
    let seed = 7;
    const random = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return ((x ^ (x >>> 14)) >>> 0) % n;
    };
    const history = Array.from({ length: 150 }, () => ({
      at: Date.parse('2026-01-16T00:00:00Z') + random(16 * 24 * 60) * 60_000,
      staff: random(3),
      tokens: 5 + random(30),
      till: random(4) === 0 ? 1 : 0,
    })).sort((a, b) => a.at - b.at);

    t.clock.set('2026-01-01T00:00:00Z');
    const original = await newCompany(deps, { initToken: 10_000 });
    const originalStaff = await staffOf(original);
    for (const h of history) {
      t.clock.set(new Date(h.at));
      const res = await send(
        '/api/v1/orders',
        tills[h.till]!,
        original,
        originalStaff[h.staff]!,
        h.tokens,
      );
      expect(res.statusCode).toBe(201);
    }

    t.clock.set(NOW);
    const [{ preview }] = (await queryRows<{ preview: Preview }>(
      deps.database.db,
      sql`SELECT spending_preview(${original.id}, ${JSON.stringify(RULES)}::jsonb, 'UTC',
            ${NOW}::timestamptz - interval '30 days', ${NOW}::timestamptz) AS preview`,
    )) as [{ preview: Preview }];
    expect(preview.orders).toBe(150);

    // The copy: the candidate in force, the same history replayed through the dry run.
    t.clock.set('2026-01-01T00:00:00Z');
    const copy = await newCompany(deps, { initToken: 10_000 });
    const copyStaff = await staffOf(copy);
    await queryRows(
      deps.database.db,
      sql`INSERT INTO spending_rule_versions (company_id, effective_from, daily_limit, order_limit,
            weekdays, hours, closed_on_holidays, merchant_categories, partial_payment, created_at)
          VALUES (${copy.id}, '2026-01-01', ${RULES.daily_limit}, ${RULES.order_limit},
            '{1,2,3,4,5}', ${JSON.stringify(RULES.hours)}::jsonb, true, '{restaurant,canteen}',
            false, now())`,
    );
    const declined: Record<string, { orders: number; tokens: number }> = {};
    const affected = new Set<number>();
    for (const h of history) {
      t.clock.set(new Date(h.at));
      const who = copyStaff[h.staff]!;
      const check = (await send('/api/v1/orders/check', tills[h.till]!, copy, who, h.tokens)).json()
        .data as { allowed: boolean; code?: string };
      if (check.allowed) {
        expect((await send('/api/v1/orders', tills[h.till]!, copy, who, h.tokens)).statusCode).toBe(
          201,
        );
      } else {
        const entry = (declined[check.code!] ??= { orders: 0, tokens: 0 });
        entry.orders += 1;
        entry.tokens += h.tokens;
        affected.add(h.staff);
      }
    }
    // Every kind of refusal took part, and the counts agree.
    expect(Object.keys(declined).sort()).toEqual([
      'DAILY_LIMIT_EXCEEDED',
      'MERCHANT_NOT_ALLOWED',
      'NOT_ALLOWED_TODAY',
      'ORDER_LIMIT_EXCEEDED',
      'OUTSIDE_ALLOWED_HOURS',
    ]);
    expect(preview.declined).toEqual(declined);
    expect(preview.employees_affected).toBe(affected.size);
    expect(preview.examples.length).toBe(10);
  });
});

interface Preview {
  orders: number;
  declined: Record<string, { orders: number; tokens: number }>;
  employees_affected: number;
  examples: unknown[];
}
