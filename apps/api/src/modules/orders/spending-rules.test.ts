// Spending rules at the till (DESIGN 7, issue 42): each rule at its boundaries, enforced by the
// order's own statement, through the terminal API, on both databases.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Company, Employee } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { testDatabaseKinds } from '../../../test/databases';
import { assertLedgerInvariants } from '../../../test/invariants';
import { newCompany, newEmployee, newTerminal, type TestTerminal } from '../../../test/ledger';
import { queryRows } from '../../db/client';
import { placeOrders, type OrderRequest } from '../ledger';
import { distributeToEmployees } from '../tokens';

interface Rules {
  effective_from: string;
  daily_limit?: number | null;
  order_limit?: number | null;
  weekdays?: number[] | null;
  hours?: { from: string; to: string }[] | null;
  closed_on_holidays?: boolean;
  merchant_categories?: string[] | null;
  partial_payment?: boolean;
}

for (const timeZone of ['UTC', 'Asia/Shanghai']) {
  describe.each(await testDatabaseKinds())(
    `spending rules at the till (${timeZone}) on %s`,
    (kind) => {
      let t: TestApp;
      let company: Company;
      let terminal: TestTerminal;
      let employee: Employee;
      /** An instant of the programme's local wall clock (YYYY-MM-DDTHH:mm:ss) as UTC. */
      const local = (wall: string) => {
        const asUtc = new Date(`${wall}Z`);
        const offset = timeZone === 'UTC' ? 0 : 8 * 3600_000;
        return new Date(asUtc.getTime() - offset);
      };
      const db = () => t.app.deps.database.db;

      const setRules = async (rules: Rules) => {
        await queryRows(
          db(),
          sql`INSERT INTO spending_rule_versions (company_id, effective_from, daily_limit,
              order_limit, weekdays, hours, closed_on_holidays, merchant_categories,
              partial_payment, created_at)
            VALUES (${company.id}, ${rules.effective_from}::date, ${rules.daily_limit ?? null},
              ${rules.order_limit ?? null},
              ${rules.weekdays ? `{${rules.weekdays.join(',')}}` : null}::smallint[],
              ${rules.hours ? JSON.stringify(rules.hours) : null}::jsonb,
              ${rules.closed_on_holidays ?? false},
              ${rules.merchant_categories ? `{${rules.merchant_categories.join(',')}}` : null}::text[],
              ${rules.partial_payment ?? false}, now())`,
        );
      };
      const order = (tokens: number, extra: Record<string, unknown> = {}, who = employee) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/orders',
          headers: {
            authorization: `Bearer ${terminal.key}`,
            'idempotency-key': crypto.randomUUID(),
          },
          payload: {
            company_code: company.code,
            employee_id: who.employee_id,
            order_type: 'dine_in',
            items: [{ name: 'Lunch', quantity: 1, unit_tokens: tokens }],
            ...extra,
          },
        });
      const refund = (orderId: number, payload: object) =>
        t.app.inject({
          method: 'POST',
          url: `/api/v1/orders/${orderId}/refund`,
          headers: {
            authorization: `Bearer ${terminal.key}`,
            'idempotency-key': crypto.randomUUID(),
          },
          payload,
        });
      const declines = async () =>
        queryRows<{ code: string; subtotal: string; details: Record<string, unknown> | null }>(
          db(),
          sql`SELECT code, subtotal, details FROM order_declines
             WHERE employee_id = ${employee.id} ORDER BY id`,
        );

      beforeAll(async () => {
        t = await createTestApp(kind, { APP_TIMEZONE: timeZone });
        terminal = await newTerminal(t.app.deps);
      });
      // Each test: its own company, employee with 500 tokens, a Thursday 12:00 local.
      beforeEach(async () => {
        t.clock.set(local('2026-01-15T12:00:00'));
        const deps = t.app.deps;
        company = await newCompany(deps, { initToken: 1000 });
        employee = await newEmployee(deps, company.id);
        await distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, {
          items: [{ employee_id: employee.id, amount: 500 }],
        });
        await queryRows(
          db(),
          sql`UPDATE merchants SET category = 'restaurant' WHERE id = ${terminal.merchantId}`,
        );
        await queryRows(db(), sql`DELETE FROM holidays`);
      });
      afterEach(async () => {
        await assertLedgerInvariants(db());
      });
      afterAll(() => t.close());

      it('accepts any order the balance covers when the company has no version', async () => {
        expect((await order(300)).statusCode).toBe(201);
      });

      it('accepts the daily limit exactly reached and refuses one token over, with its figures, kept as a decline', async () => {
        await setRules({ effective_from: '2026-01-01', daily_limit: 25 });
        expect((await order(10)).statusCode).toBe(201);
        const full = await order(15);
        expect(full.statusCode).toBe(201);
        expect(full.json().data).toMatchObject({
          subtotal: 15,
          paid_tokens: 15,
          to_pay_otherwise: 0,
        });
        const over = await order(1);
        expect(over.statusCode).toBe(409);
        expect(over.json()).toMatchObject({
          code: 'DAILY_LIMIT_EXCEEDED',
          details: { daily_limit: 25, spent_today: 25, remaining_today: 0 },
          message: 'The daily limit of 25 tokens is reached: 0 left today.',
        });
        expect(await declines()).toEqual([
          {
            code: 'DAILY_LIMIT_EXCEEDED',
            subtotal: expect.anything(),
            details: { daily_limit: 25, spent_today: 25, remaining_today: 0 },
          },
        ]);
        // The next local day starts afresh.
        t.clock.set(local('2026-01-16T00:00:00'));
        expect((await order(25)).statusCode).toBe(201);
      });

      it('refuses before 11:00:00 local and accepts from it, saying when it may pay', async () => {
        await setRules({ effective_from: '2026-01-01', hours: [{ from: '11:00', to: '14:30' }] });
        t.clock.set(local('2026-01-15T10:59:59'));
        const early = await order(5);
        expect(early.statusCode).toBe(409);
        expect(early.json()).toMatchObject({
          code: 'OUTSIDE_ALLOWED_HOURS',
          details: { next_allowed_at: local('2026-01-15T11:00:00').toISOString() },
        });
        t.clock.set(local('2026-01-15T11:00:00'));
        expect((await order(5)).statusCode).toBe(201);
        // `to` is exclusive: 14:30:00 is out, and the next window is tomorrow's.
        t.clock.set(local('2026-01-15T14:30:00'));
        expect((await order(5)).json().details).toEqual({
          next_allowed_at: local('2026-01-16T11:00:00').toISOString(),
        });
      });

      it('refuses on a public holiday when the rules close on holidays, and not otherwise', async () => {
        await queryRows(
          db(),
          sql`INSERT INTO holidays (day, name) VALUES ('2026-01-15', 'Test day')`,
        );
        await setRules({ effective_from: '2026-01-01', closed_on_holidays: false });
        expect((await order(5)).statusCode).toBe(201);
        await setRules({ effective_from: '2026-01-15', closed_on_holidays: true });
        const closed = await order(5);
        expect(closed.statusCode).toBe(409);
        expect(closed.json()).toMatchObject({
          code: 'NOT_ALLOWED_TODAY',
          details: {
            reason: 'holiday',
            next_allowed_at: local('2026-01-16T00:00:00').toISOString(),
          },
        });
      });

      it('refuses on a Sunday outside Monday to Friday, unless the employee has an exception', async () => {
        await setRules({ effective_from: '2026-01-01', weekdays: [1, 2, 3, 4, 5] });
        t.clock.set(local('2026-01-18T12:00:00'));
        const sunday = await order(5);
        expect(sunday.statusCode).toBe(409);
        expect(sunday.json()).toMatchObject({
          code: 'NOT_ALLOWED_TODAY',
          details: {
            reason: 'weekday',
            next_allowed_at: local('2026-01-19T00:00:00').toISOString(),
          },
        });
        await queryRows(
          db(),
          sql`INSERT INTO spending_exceptions (employee_id, weekdays, updated_at)
            VALUES (${employee.id}, '{1,2,3,4,5,6,7}', now())`,
        );
        expect((await order(5)).statusCode).toBe(201);
        // An exception that has ended no longer applies.
        await queryRows(
          db(),
          sql`UPDATE spending_exceptions SET until = '2026-01-17' WHERE employee_id = ${employee.id}`,
        );
        expect((await order(5)).statusCode).toBe(409);
      });

      it('applies a version effective tomorrow from local midnight, not before', async () => {
        await setRules({ effective_from: '2026-01-16', order_limit: 20 });
        t.clock.set(local('2026-01-15T23:59:59'));
        expect((await order(30)).statusCode).toBe(201);
        t.clock.set(local('2026-01-16T00:00:00'));
        const limited = await order(30);
        expect(limited.statusCode).toBe(409);
        expect(limited.json()).toMatchObject({
          code: 'ORDER_LIMIT_EXCEEDED',
          details: { order_limit: 20 },
        });
        expect((await order(20)).statusCode).toBe(201);
      });

      it('refuses a merchant whose category the rules do not allow', async () => {
        await setRules({ effective_from: '2026-01-01', merchant_categories: ['canteen', 'cafe'] });
        const refused = await order(5);
        expect(refused.statusCode).toBe(409);
        expect(refused.json()).toMatchObject({
          code: 'MERCHANT_NOT_ALLOWED',
          details: { category: 'restaurant' },
        });
        await queryRows(
          db(),
          sql`UPDATE merchants SET category = 'canteen' WHERE id = ${terminal.merchantId}`,
        );
        expect((await order(5)).statusCode).toBe(201);
      });

      it("gives today's allowance back when today's order is refunded, and not yesterday's", async () => {
        await setRules({ effective_from: '2026-01-01', daily_limit: 25 });
        const yesterday = (await order(20)).json().data;
        t.clock.set(local('2026-01-16T12:00:00'));
        const today = (await order(25)).json().data;
        expect((await order(1)).statusCode).toBe(409);
        expect((await refund(yesterday.id, { reason: 'cancelled' })).statusCode).toBe(200);
        expect((await order(1)).statusCode).toBe(409);
        expect((await refund(today.id, { reason: 'item_removed', amount: 10 })).statusCode).toBe(
          200,
        );
        expect((await order(10)).statusCode).toBe(201);
        expect((await order(1)).json().details).toEqual({
          daily_limit: 25,
          spent_today: 25,
          remaining_today: 0,
        });
      });

      it('accepts in part what the balance covers when the rules allow it, and bounds refunds by what was paid', async () => {
        await setRules({ effective_from: '2026-01-01', partial_payment: true });
        // Spend the balance down to 7.
        expect((await order(493)).statusCode).toBe(201);
        // Without `partial` the order is refused whole.
        expect((await order(10)).json().code).toBe('INSUFFICIENT_TOKENS');
        const partial = await order(10, { partial: true });
        expect(partial.statusCode).toBe(201);
        expect(partial.json().data).toMatchObject({
          subtotal: 10,
          paid_tokens: 7,
          to_pay_otherwise: 3,
          available_tokens: 0,
        });
        const id = partial.json().data.id;
        expect((await refund(id, { reason: 'item_removed', amount: 8 })).json().code).toBe(
          'REFUND_EXCEEDS_SUBTOTAL',
        );
        const back = await refund(id, { reason: 'cancelled' });
        expect(back.statusCode).toBe(200);
        expect(back.json().data.refund).toMatchObject({ amount: 7, available_tokens: 7 });
      });

      it('accepts in part what the day leaves when the rules allow it', async () => {
        await setRules({ effective_from: '2026-01-01', daily_limit: 25, partial_payment: true });
        expect((await order(20)).statusCode).toBe(201);
        const partial = await order(10, { partial: true });
        expect(partial.json().data).toMatchObject({ paid_tokens: 5, to_pay_otherwise: 5 });
        expect((await order(1, { partial: true })).json().code).toBe('DAILY_LIMIT_EXCEEDED');
      });

      it('gives each order of one batch its own answer: a decline never fails another', async () => {
        await setRules({ effective_from: '2026-01-01', order_limit: 50 });
        const request = (tokens: number): OrderRequest => ({
          terminal: terminal.identity,
          idempotencyKey: crypto.randomUUID(),
          requestHash: crypto.randomUUID(),
          companyCode: company.code,
          staffNumber: employee.employee_id,
          orderType: 'dine_in',
          items: [{ name: 'Lunch', quantity: 1, unit_tokens: tokens }],
          timeZone,
          at: t.clock.now(),
        });
        const [declined, accepted] = await placeOrders(db(), [request(60), request(40)]);
        expect(declined).toMatchObject({ ok: false, error: { code: 'ORDER_LIMIT_EXCEEDED' } });
        expect(accepted).toMatchObject({ ok: true, value: { status: 201 } });
        expect((await declines()).map((d) => d.code)).toEqual(['ORDER_LIMIT_EXCEEDED']);
      });

      it('answers a dry run as the order would be answered, writing nothing', async () => {
        await setRules({ effective_from: '2026-01-01', daily_limit: 25 });
        expect((await order(20)).statusCode).toBe(201);
        const check = (tokens: number) =>
          t.app.inject({
            method: 'POST',
            url: '/api/v1/orders/check',
            headers: { authorization: `Bearer ${terminal.key}` },
            payload: {
              company_code: company.code,
              employee_id: employee.employee_id,
              order_type: 'dine_in',
              items: [{ name: 'Lunch', quantity: 1, unit_tokens: tokens }],
            },
          });
        const before = await queryRows<{ n: number }>(
          db(),
          sql`SELECT count(*)::int AS n FROM orders`,
        );
        const ok = await check(5);
        expect(ok.statusCode).toBe(200);
        expect(ok.json().data).toEqual({
          allowed: true,
          payable_tokens: 5,
          remaining_today: 5,
          available_tokens: 480,
        });
        const refused = (await check(6)).json().data;
        expect(refused).toMatchObject({
          allowed: false,
          code: 'DAILY_LIMIT_EXCEEDED',
          payable_tokens: 0,
          remaining_today: 5,
        });
        expect(await queryRows(db(), sql`SELECT count(*)::int AS n FROM orders`)).toEqual(before);
        expect(await declines()).toEqual([]);
      });
    },
  );
}

describe.each((await testDatabaseKinds()).filter((k) => k === 'postgres'))(
  'spending rules under concurrency on %s',
  (kind) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind);
    });
    afterAll(() => t.close());

    it('lets 5 of 20 concurrent orders of 5 tokens through a daily limit of 25, and keeps the 15 declines', async () => {
      const deps = t.app.deps;
      const company = await newCompany(deps, { initToken: 1000 });
      const employee = await newEmployee(deps, company.id);
      const terminals = await Promise.all([newTerminal(deps), newTerminal(deps)]);
      await distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, {
        items: [{ employee_id: employee.id, amount: 500 }],
      });
      await queryRows(
        deps.database.db,
        sql`INSERT INTO spending_rule_versions (company_id, effective_from, daily_limit, created_at)
            VALUES (${company.id}, '2026-01-01', 25, now())`,
      );
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          t.app.inject({
            method: 'POST',
            url: '/api/v1/orders',
            headers: {
              authorization: `Bearer ${terminals[i % 2]!.key}`,
              'idempotency-key': crypto.randomUUID(),
            },
            payload: {
              company_code: company.code,
              employee_id: employee.employee_id,
              order_type: 'dine_in',
              items: [{ name: 'Lunch', quantity: 1, unit_tokens: 5 }],
            },
          }),
        ),
      );
      const codes = answers.map((a) => (a.statusCode === 201 ? 'placed' : a.json().code));
      expect(codes.filter((c) => c === 'placed')).toHaveLength(5);
      expect(codes.filter((c) => c === 'DAILY_LIMIT_EXCEEDED')).toHaveLength(15);
      const [kept] = await queryRows<{ n: number }>(
        deps.database.db,
        sql`SELECT count(*)::int AS n FROM order_declines WHERE employee_id = ${employee.id}
              AND code = 'DAILY_LIMIT_EXCEEDED'`,
      );
      expect(kept!.n).toBe(15);
      await assertLedgerInvariants(deps.database.db);
    });
  },
);
