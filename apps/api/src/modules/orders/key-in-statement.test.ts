// The terminal key checked in the order's own statement (decision 0043): once a key has opened an
// active terminal on an instance, its next orders are key-checked by place_terminal_orders_keyed,
// in the order's transaction — one round trip instead of two — with every answer of the check made
// before the body: 401 and the address's count for a key found nowhere, 403 for an inactive
// terminal or merchant, 429 for an address shut out or a key over its limit, and the key's own
// check first when the request fails before its statement.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, type Company, type Employee } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { testDatabaseKinds } from '../../../test/databases';
import { assertLedgerInvariants } from '../../../test/invariants';
import { newCompany, newEmployee, newTerminal, type TestTerminal } from '../../../test/ledger';
import { queryRows } from '../../db/client';
import { setMerchantStatus } from '../merchants';
import { hashTerminalKey, rotateTerminalKey, setTerminalStatus } from '../terminals';
import { distributeToEmployees } from '../tokens';
import {
  placeKeyedOrders,
  placeTerminalOrderWithKey,
  type KeyedOrderRequest,
} from './orders.service';

const FAILURES = 3;
const PER_KEY = 6;
const MINUTE = 60_000;

describe.each(await testDatabaseKinds())(
  'terminal keys checked in the order statement on %s',
  (kind) => {
    let t: TestApp;
    let company: Company;
    let employee: Employee;

    const db = () => t.app.deps.database.db;
    const body = (tokens = 1) => ({
      company_code: company.code,
      employee_id: employee.employee_id,
      order_type: 'dine_in',
      items: [{ name: 'Tea', quantity: 1, unit_tokens: tokens }],
    });
    const post = (
      key: string,
      options: { payload?: unknown; ip?: string; idempotencyKey?: string | null } = {},
    ) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/orders',
        remoteAddress: options.ip ?? '10.9.0.1',
        headers: {
          authorization: `Bearer ${key}`,
          ...(options.idempotencyKey === null
            ? {}
            : { [IDEMPOTENCY_KEY_HEADER]: options.idempotencyKey ?? crypto.randomUUID() }),
          ...(typeof options.payload === 'string' ? { 'content-type': 'application/json' } : {}),
        },
        payload: (options.payload ?? body()) as string,
      });
    const counter = async (key: string) =>
      (
        await queryRows<{ hits: number; xmin: string }>(
          db(),
          sql`SELECT hits::int AS hits, xmin::text AS xmin FROM rate_limits WHERE key = ${key}`,
        )
      )[0] ?? null;
    const orderXmin = async (id: number) =>
      (
        await queryRows<{ xmin: string }>(
          db(),
          sql`SELECT xmin::text AS xmin FROM orders WHERE id = ${id}`,
        )
      )[0]!.xmin;
    const ordersOf = async (terminal: TestTerminal) =>
      (
        await queryRows<{ n: number }>(
          db(),
          sql`SELECT count(*)::int AS n FROM orders WHERE terminal_id = ${terminal.identity.id}`,
        )
      )[0]!.n;
    /** A fresh terminal whose key this instance has seen open it (one order placed). */
    const knownTerminal = async () => {
      const terminal = await newTerminal(t.app.deps);
      expect((await post(terminal.key)).statusCode).toBe(201);
      return terminal;
    };

    beforeAll(async () => {
      t = await createTestApp(kind, {
        TERMINAL_AUTH_FAILURES_PER_MINUTE: String(FAILURES),
        TERMINAL_RATE_LIMIT_PER_MINUTE: String(PER_KEY),
      });
      company = await newCompany(t.app.deps, { initToken: 10_000 });
      employee = await newEmployee(t.app.deps, company.id);
      await distributeToEmployees(t.app.deps, { kind: 'company', companyId: company.id }, null, {
        items: [{ employee_id: employee.id, amount: 1_000 }],
      });
    });
    afterEach(async () => {
      await assertLedgerInvariants(db());
    });
    afterAll(() => t.close());

    it('counts a known key in the transaction of its order, and an unseen key before it', async () => {
      const terminal = await newTerminal(t.app.deps);
      const counterKey = `terminal:${terminal.identity.id}`;
      // First seen: checked on its own, in its own transaction, before the body.
      const first = await post(terminal.key);
      expect(first.statusCode).toBe(201);
      const afterFirst = await counter(counterKey);
      expect(afterFirst?.hits).toBe(1);
      expect(afterFirst?.xmin).not.toBe(await orderXmin(first.json().data.id));
      // Known now: the count moves in the very transaction that wrote the order.
      const second = await post(terminal.key);
      expect(second.statusCode).toBe(201);
      expect(second.json().data.terminal_id).toBe(terminal.identity.id);
      const afterSecond = await counter(counterKey);
      expect(afterSecond?.hits).toBe(2);
      expect(afterSecond?.xmin).toBe(await orderXmin(second.json().data.id));
      // A retry with the same Idempotency-Key is answered from its key, and counted as a request.
      const key = crypto.randomUUID();
      const once = await post(terminal.key, { idempotencyKey: key });
      const again = await post(terminal.key, { idempotencyKey: key });
      expect(again.json()).toEqual(once.json());
      expect(await ordersOf(terminal)).toBe(3);
      expect((await counter(counterKey))?.hits).toBe(4);
    });

    it('refuses a known key from its order statement as before the body: 403, 401, 429', async () => {
      const terminal = await knownTerminal();
      // Inactive terminal, then inactive merchant: 403 with their codes, no order.
      await setTerminalStatus(t.app.deps, terminal.identity.id, 'inactive');
      const off = await post(terminal.key);
      expect(off.statusCode).toBe(403);
      expect(off.json()).toMatchObject({ code: 'TERMINAL_INACTIVE' });
      await setTerminalStatus(t.app.deps, terminal.identity.id, 'active');
      expect((await post(terminal.key)).statusCode).toBe(201);
      await setMerchantStatus(t.app.deps, terminal.merchantId, 'inactive');
      const closed = await post(terminal.key);
      expect(closed.json()).toMatchObject({ code: 'MERCHANT_INACTIVE' });
      await setMerchantStatus(t.app.deps, terminal.merchantId, 'active');
      expect((await post(terminal.key)).statusCode).toBe(201);
      expect(await ordersOf(terminal)).toBe(3);

      // A known key rotated away: the statement finds no terminal, so 401 and a wrong key counted.
      const ip = '10.9.1.1';
      await rotateTerminalKey(t.app.deps, terminal.identity.id);
      const rotated = await post(terminal.key, { ip });
      expect(rotated.statusCode).toBe(401);
      expect(rotated.json()).toMatchObject({ code: 'UNAUTHORIZED' });
      expect((await counter(`terminal-key-failures:${ip}`))?.hits).toBe(1);
      expect(await ordersOf(terminal)).toBe(3);
    });

    it('holds a known key to its limit and shuts an address out, charging nothing', async () => {
      const terminal = await knownTerminal();
      for (let i = 1; i < PER_KEY; i += 1) expect((await post(terminal.key)).statusCode).toBe(201);
      const limited = await post(terminal.key);
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(await ordersOf(terminal)).toBe(PER_KEY);

      // An address that guessed too often is refused every further unknown key, but a known key
      // from it still passes, counted, its order placed (decision 0070).
      const other = await knownTerminal();
      const ip = '10.9.2.1';
      const guess = () => `tk_${crypto.randomBytes(32).toString('base64url')}`;
      for (let i = 0; i < FAILURES; i += 1) {
        expect((await post(guess(), { ip })).statusCode).toBe(401);
      }
      expect((await post(guess(), { ip })).statusCode).toBe(429);
      const passed = await post(other.key, { ip });
      expect(passed.statusCode, passed.body).toBe(201);
      expect(await ordersOf(other)).toBe(2);
      expect((await counter(`terminal:${other.identity.id}`))?.hits).toBe(2);
    });

    it('checks a known key first when its request fails before the statement', async () => {
      const terminal = await knownTerminal();
      const counterKey = `terminal:${terminal.identity.id}`;
      // Active: the body's or header's own 400, the request counted against the key.
      const invalid = await post(terminal.key, { payload: { ...body(), items: [] } });
      expect(invalid.statusCode).toBe(400);
      expect((await counter(counterKey))?.hits).toBe(2);
      const noKey = await post(terminal.key, { idempotencyKey: null });
      expect(noKey.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REQUIRED' });
      const zero = await post(terminal.key, { payload: body(0) });
      expect(zero.statusCode).toBe(400);
      expect((await counter(counterKey))?.hits).toBe(4);
      expect(await ordersOf(terminal)).toBe(1);
      // Inactive: the key's 403 comes first, whatever is wrong with the rest (each a key known
      // here: a refused key is checked before the body from then on).
      for (const options of [
        { payload: { ...body(), items: [] } },
        { payload: '{"not json' },
        { idempotencyKey: null },
      ]) {
        const off = await knownTerminal();
        await setTerminalStatus(t.app.deps, off.identity.id, 'inactive');
        const res = await post(off.key, options);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({ code: 'TERMINAL_INACTIVE' });
        expect((await counter(`terminal:${off.identity.id}`))?.hits).toBe(2);
      }
    });

    it('places each request of a keyed batch that failed as a whole again alone, counting it once', async () => {
      const terminal = await newTerminal(t.app.deps);
      const key = {
        hash: hashTerminalKey(terminal.key),
        wrongKeysKey: 'terminal-key-failures:10.9.4.1',
        windowMs: MINUTE,
        now: t.clock.now(),
      };
      const limits = { maxWrongKeys: FAILURES, maxPerKey: 100 };
      // Called in one tick: one leaves at once, the next five go together (decision 0067). One of
      // those breaks a check of the orders table (order_type at most 50 characters; HTTP refuses
      // it earlier), which fails that batch's statement: its counts roll back with it, and each is
      // placed alone.
      const place = (orderType = 'takeaway') =>
        placeTerminalOrderWithKey(t.app.deps, key, limits, crypto.randomUUID(), {
          ...body(),
          order_type: orderType,
        }).then(
          ({ order }) => (order?.ok ? String(order.value.status) : 'refused'),
          () => 'failed',
        );
      const answers = await Promise.all([
        place(),
        place(),
        place(),
        place('x'.repeat(60)),
        place(),
        place(),
      ]);
      expect(answers).toEqual(['201', '201', '201', 'failed', '201', '201']);
      expect(await ordersOf(terminal)).toBe(5);
      // The failed batch's counts were undone and each counted again alone, once: five, as the
      // failed one's count went with its own statement (over HTTP, the route's error handler then
      // checks and counts its key alone, as for any request failing before its statement).
      expect((await counter(`terminal:${terminal.identity.id}`))?.hits).toBe(5);
    });

    it('answers each request of one keyed batch on its own', async () => {
      const busy = await newTerminal(t.app.deps);
      const off = await newTerminal(t.app.deps);
      await setTerminalStatus(t.app.deps, off.identity.id, 'inactive');
      const shutIp = 'terminal-key-failures:10.9.3.1';
      await t.app.deps.database.db.execute(
        sql`INSERT INTO rate_limits (key, hits, expires_at)
          VALUES (${shutIp}, ${FAILURES}, now() + interval '1 minute')`,
      );
      const request = (
        key: string,
        tokens: number,
        wrongKeysKey = 'terminal-key-failures:10.9.3.2',
      ): KeyedOrderRequest => ({
        key: { hash: hashTerminalKey(key), wrongKeysKey, now: t.clock.now() },
        idempotencyKey: crypto.randomUUID(),
        requestHash: crypto.randomUUID(),
        companyCode: company.code,
        staffNumber: employee.employee_id,
        orderType: 'takeaway',
        items: [{ name: 'Rice', quantity: 1, unit_tokens: tokens }],
        at: t.clock.now(),
      });
      const results = await placeKeyedOrders(
        db(),
        [
          request(busy.key, 1),
          request('tk_no-such-key-anywhere', 1),
          request(busy.key, 1_000_000),
          request(off.key, 1),
          request(busy.key, 1, shutIp),
          request(busy.key, 0),
          request(busy.key, 2),
        ],
        { windowMs: MINUTE, maxWrongKeys: FAILURES, maxPerKey: PER_KEY },
      );
      const summary = results.map(({ check, order }) => ({
        terminal: check.terminal?.id ?? null,
        hits: check.keyUse?.hits ?? null,
        wrong: check.wrongKeys?.hits ?? null,
        order:
          order === null
            ? null
            : order.ok
              ? order.value.status
              : (order.error as { code: string }).code,
      }));
      const id = busy.identity.id;
      expect(summary).toEqual([
        { terminal: id, hits: 1, wrong: null, order: 201 },
        { terminal: null, hits: null, wrong: null, order: null },
        { terminal: id, hits: 2, wrong: null, order: 'INSUFFICIENT_TOKENS' },
        { terminal: off.identity.id, hits: 1, wrong: null, order: null },
        // From an address shut out for wrong keys: a valid key is counted and placed all the same
        // (decision 0070).
        { terminal: id, hits: 3, wrong: FAILURES, order: 201 },
        // Counted, but its subtotal never reaches the database.
        { terminal: id, hits: 4, wrong: null, order: 'BODY_INVALID' },
        { terminal: id, hits: 5, wrong: null, order: 201 },
      ]);
      // Presented five times: its counter moved once, by five.
      expect((await counter(`terminal:${id}`))?.hits).toBe(5);
      expect(await ordersOf(busy)).toBe(3);
      expect(await ordersOf(off)).toBe(0);
    });
  },
);
