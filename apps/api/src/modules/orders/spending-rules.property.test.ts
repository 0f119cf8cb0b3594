// Property (issue 42): random sequences of orders, partial orders, refunds, new rule versions,
// exceptions and clock moves across days and windows, each answer checked against a plain model
// of the spending rules (DESIGN 7) written here; every balance and every day's spending agree at
// the end. On PostgreSQL, where the order path runs as in production.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Company, Employee } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { testDatabaseKinds } from '../../../test/databases';
import { assertLedgerInvariants } from '../../../test/invariants';
import { newCompany, newEmployee, newTerminal, type TestTerminal } from '../../../test/ledger';
import { queryRows } from '../../db/client';
import { isAppError } from '../../lib/app-error';
import { getEmployee } from '../employees';
import { distributeToEmployees } from '../tokens';
import { placeTerminalOrder, refundTerminalOrder } from './orders.service';

const STAFF = 2;
const START = Date.parse('2026-01-15T08:00:00Z');
const HOLIDAY = '2026-01-17';
const CATEGORIES = ['restaurant', 'grocery'] as const;
const ALL = { kind: 'all' } as const;

interface Rules {
  daily_limit: number | null;
  order_limit: number | null;
  weekdays: number[] | null;
  hours: { from: string; to: string }[] | null;
  closed_on_holidays: boolean;
  merchant_categories: string[] | null;
  partial_payment: boolean;
}
interface Exception {
  weekdays: number[] | null;
  daily_limit: number | null;
  until: string | null;
}
type Command =
  | { kind: 'order'; staff: number; amount: number; partial: boolean; till: number }
  | { kind: 'refund'; pick: number; cancel: boolean; amount: number }
  | { kind: 'version'; daysAhead: number; rules: Rules }
  | { kind: 'exception'; staff: number; exception: Exception | null }
  | { kind: 'advance'; minutes: number };

const rulesArb: fc.Arbitrary<Rules> = fc.record({
  daily_limit: fc.option(fc.integer({ min: 5, max: 60 }), { nil: null }),
  order_limit: fc.option(fc.integer({ min: 5, max: 40 }), { nil: null }),
  weekdays: fc.option(
    fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 }),
    {
      nil: null,
    },
  ),
  hours: fc.option(
    fc.constantFrom(
      [{ from: '11:00', to: '14:30' }],
      [
        { from: '08:00', to: '10:00' },
        { from: '12:00', to: '20:00' },
      ],
    ),
    { nil: null },
  ),
  closed_on_holidays: fc.boolean(),
  merchant_categories: fc.option(fc.constantFrom(['restaurant'], ['grocery', 'restaurant']), {
    nil: null,
  }),
  partial_payment: fc.boolean(),
});
const commandArb: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('order' as const),
      staff: fc.nat(STAFF - 1),
      amount: fc.integer({ min: 1, max: 45 }),
      partial: fc.boolean(),
      till: fc.nat(1),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('refund' as const),
      pick: fc.nat(),
      cancel: fc.boolean(),
      amount: fc.integer({ min: 1, max: 30 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('version' as const),
      daysAhead: fc.nat(2),
      rules: rulesArb,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('exception' as const),
      staff: fc.nat(STAFF - 1),
      exception: fc.option(
        fc.record({
          weekdays: fc.option(fc.constant<number[]>([1, 2, 3, 4, 5, 6, 7]), { nil: null }),
          daily_limit: fc.option(fc.integer({ min: 5, max: 80 }), { nil: null }),
          until: fc.option(fc.constantFrom('2026-01-16', '2026-01-19'), { nil: null }),
        }),
        { nil: null },
      ),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      minutes: fc.integer({ min: 20, max: 1500 }),
    }),
  },
);

/** The plain model: what the rules say an order gets. */
interface ModelOrder {
  id: number;
  staff: number;
  day: string;
  paid: number;
  refunded: number;
}
class Model {
  balances: number[] = Array.from({ length: STAFF }, () => 100);
  versions = new Map<string, Rules>();
  exceptions: (Exception | null)[] = Array.from({ length: STAFF }, () => null);
  orders: ModelOrder[] = [];

  spent(staff: number, day: string): number {
    return this.orders
      .filter((o) => o.staff === staff && o.day === day)
      .reduce((sum, o) => sum + o.paid - o.refunded, 0);
  }

  judge(
    staff: number,
    amount: number,
    partial: boolean,
    category: string,
    now: Date,
  ): { code: string; details?: Record<string, unknown> } | { paid: number } {
    const day = now.toISOString().slice(0, 10);
    const time = now.toISOString().slice(11, 19);
    const balance = this.balances[staff]!;
    const from = [...this.versions.keys()]
      .filter((d) => d <= day)
      .sort()
      .at(-1);
    if (from === undefined)
      return balance < amount ? { code: 'INSUFFICIENT_TOKENS' } : { paid: amount };
    const v = this.versions.get(from)!;
    const exc = this.exceptions[staff];
    const x = exc && (exc.until === null || day <= exc.until) ? exc : null;
    const weekdays = x?.weekdays ?? v.weekdays;
    const daily = x?.daily_limit ?? v.daily_limit;
    const isoDay = ((now.getUTCDay() + 6) % 7) + 1;
    if (v.merchant_categories && !v.merchant_categories.includes(category)) {
      return { code: 'MERCHANT_NOT_ALLOWED' };
    }
    if (weekdays && !weekdays.includes(isoDay)) return { code: 'NOT_ALLOWED_TODAY' };
    if (v.closed_on_holidays && day === HOLIDAY) return { code: 'NOT_ALLOWED_TODAY' };
    if (v.hours && !v.hours.some((w) => `${w.from}:00` <= time && time < `${w.to}:00`)) {
      return { code: 'OUTSIDE_ALLOWED_HOURS' };
    }
    if (v.order_limit !== null && amount > v.order_limit) return { code: 'ORDER_LIMIT_EXCEEDED' };
    const spent = this.spent(staff, day);
    const remaining = daily === null ? null : Math.max(daily - spent, 0);
    const payable = Math.min(amount, Math.max(balance, 0), remaining ?? amount);
    if (payable < amount && !(partial && v.partial_payment && payable > 0)) {
      if (remaining !== null && remaining < amount && remaining <= balance) {
        return {
          code: 'DAILY_LIMIT_EXCEEDED',
          details: { daily_limit: daily, spent_today: spent, remaining_today: remaining },
        };
      }
      return { code: 'INSUFFICIENT_TOKENS' };
    }
    return { paid: payable };
  }
}

describe.each((await testDatabaseKinds()).filter((k) => k === 'postgres'))(
  'spending rules against a plain model on %s',
  (kind) => {
    let t: TestApp;
    const tills: TestTerminal[] = [];
    beforeAll(async () => {
      t = await createTestApp(kind);
      for (const category of CATEGORIES) {
        const till = await newTerminal(t.app.deps);
        await queryRows(
          t.app.deps.database.db,
          sql`UPDATE merchants SET category = ${category} WHERE id = ${till.merchantId}`,
        );
        tills.push(till);
      }
      await queryRows(
        t.app.deps.database.db,
        sql`INSERT INTO holidays (day, name) VALUES (${HOLIDAY}::date, 'Model day')`,
      );
    });
    afterAll(() => t.close());

    it('answers every order and refund as the model does, and ends with the same balances and days', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(commandArb, { minLength: 5, maxLength: 40 }),
          async (commands) => {
            const deps = t.app.deps;
            const db = deps.database.db;
            t.clock.set(new Date(START));
            const company: Company = await newCompany(deps, { initToken: 1000 });
            const staff: Employee[] = [];
            for (let i = 0; i < STAFF; i += 1) staff.push(await newEmployee(deps, company.id));
            await distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, {
              items: staff.map((e) => ({ employee_id: e.id, amount: 100 })),
            });
            const model = new Model();
            for (const command of commands) {
              const now = t.clock.now();
              const today = now.toISOString().slice(0, 10);
              switch (command.kind) {
                case 'advance':
                  t.clock.advance(command.minutes * 60_000);
                  break;
                case 'version': {
                  const from = new Date(
                    Date.parse(`${today}T00:00:00Z`) + command.daysAhead * 86_400_000,
                  )
                    .toISOString()
                    .slice(0, 10);
                  const r = command.rules;
                  await queryRows(
                    db,
                    sql`INSERT INTO spending_rule_versions (company_id, effective_from, daily_limit,
                        order_limit, weekdays, hours, closed_on_holidays, merchant_categories,
                        partial_payment, created_at)
                      VALUES (${company.id}, ${from}::date, ${r.daily_limit}, ${r.order_limit},
                        ${r.weekdays ? `{${r.weekdays.join(',')}}` : null}::smallint[],
                        ${r.hours ? JSON.stringify(r.hours) : null}::jsonb, ${r.closed_on_holidays},
                        ${r.merchant_categories ? `{${r.merchant_categories.join(',')}}` : null}::text[],
                        ${r.partial_payment}, now())
                      ON CONFLICT (company_id, effective_from) DO UPDATE SET
                        daily_limit = EXCLUDED.daily_limit, order_limit = EXCLUDED.order_limit,
                        weekdays = EXCLUDED.weekdays, hours = EXCLUDED.hours,
                        closed_on_holidays = EXCLUDED.closed_on_holidays,
                        merchant_categories = EXCLUDED.merchant_categories,
                        partial_payment = EXCLUDED.partial_payment`,
                  );
                  model.versions.set(from, r);
                  break;
                }
                case 'exception': {
                  const employee = staff[command.staff]!;
                  const x = command.exception;
                  await queryRows(
                    db,
                    sql`DELETE FROM spending_exceptions WHERE employee_id = ${employee.id}`,
                  );
                  if (x) {
                    await queryRows(
                      db,
                      sql`INSERT INTO spending_exceptions (employee_id, weekdays, daily_limit, until, updated_at)
                        VALUES (${employee.id}, ${x.weekdays ? `{${x.weekdays.join(',')}}` : null}::smallint[],
                          ${x.daily_limit}, ${x.until}::date, now())`,
                    );
                  }
                  model.exceptions[command.staff] = x;
                  break;
                }
                case 'order': {
                  const employee = staff[command.staff]!;
                  const till = tills[command.till]!;
                  const expected = model.judge(
                    command.staff,
                    command.amount,
                    command.partial,
                    CATEGORIES[command.till]!,
                    now,
                  );
                  let got: { code: string; details?: unknown } | { paid: number; id: number };
                  try {
                    const answer = await placeTerminalOrder(
                      deps,
                      till.identity,
                      crypto.randomUUID(),
                      {
                        company_code: company.code,
                        employee_id: employee.employee_id,
                        order_type: 'dine_in',
                        items: [{ name: 'Meal', quantity: 1, unit_tokens: command.amount }],
                        partial: command.partial,
                      },
                    );
                    const data = (answer.body as { data: { id: number; paid_tokens: number } })
                      .data;
                    got = { paid: data.paid_tokens, id: data.id };
                  } catch (error) {
                    if (!isAppError(error)) throw error;
                    got = {
                      code: error.code,
                      ...(error.details ? { details: error.details } : {}),
                    };
                  }
                  if ('paid' in expected) {
                    expect(got).toMatchObject({ paid: expected.paid });
                    const id = (got as { id: number }).id;
                    model.orders.push({
                      id,
                      staff: command.staff,
                      day: today,
                      paid: expected.paid,
                      refunded: 0,
                    });
                    model.balances[command.staff]! -= expected.paid;
                  } else {
                    expect(got).toMatchObject(expected);
                  }
                  break;
                }
                case 'refund': {
                  if (model.orders.length === 0) break;
                  const target = model.orders[command.pick % model.orders.length]!;
                  const left = target.paid - target.refunded;
                  const amount = command.cancel ? left : command.amount;
                  const expected =
                    left === 0
                      ? 'ORDER_ALREADY_REFUNDED'
                      : amount > left
                        ? 'REFUND_EXCEEDS_SUBTOTAL'
                        : 'refunded';
                  // Refund at the order's own merchant: the till that placed it.
                  const [placed] = await queryRows<{ merchant_id: string }>(
                    db,
                    sql`SELECT merchant_id FROM orders WHERE id = ${target.id}`,
                  );
                  const merchantTill = tills.find(
                    (x) => x.merchantId === Number(placed!.merchant_id),
                  )!;
                  let got: string;
                  try {
                    await refundTerminalOrder(
                      deps,
                      merchantTill.identity,
                      crypto.randomUUID(),
                      target.id,
                      command.cancel ? { reason: 'cancelled' } : { reason: 'item_removed', amount },
                    );
                    got = 'refunded';
                  } catch (error) {
                    if (!isAppError(error)) throw error;
                    got = error.code;
                  }
                  expect(got).toBe(expected);
                  if (got === 'refunded') {
                    target.refunded += amount;
                    model.balances[target.staff]! += amount;
                  }
                  break;
                }
              }
            }
            // The end: every balance, and every day's spending of every employee.
            for (let i = 0; i < STAFF; i += 1) {
              const employee = await getEmployee(deps, ALL, staff[i]!.id);
              expect(employee.available_tokens).toBe(model.balances[i]);
              for (const day of new Set(model.orders.map((o) => o.day))) {
                const [row] = await queryRows<{ spent: string }>(
                  db,
                  sql`SELECT spent FROM spending_spent_during(${staff[i]!.id}, ${day}::date, 'UTC')`,
                );
                expect(Number(row!.spent)).toBe(model.spent(i, day));
              }
            }
            await assertLedgerInvariants(db);
          },
        ),
        { numRuns: 25 },
      );
    });
  },
);
