// Group commit of terminal orders (decision 0034): orders placed together in one statement and one
// transaction keep their own answers, their own idempotency and their own refusals, on PostgreSQL
// and PGlite, in one batch and under concurrent load on one or two instances.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Company, Employee } from '@app/contract';
import { buildTestApp, createSecondInstance, createTestApp, type TestApp } from '../../../test/app';
import { testDatabaseKinds, untilAStatementWaits } from '../../../test/databases';
import { assertLedgerInvariants } from '../../../test/invariants';
import { newCompany, newEmployee, newTerminal, type TestTerminal } from '../../../test/ledger';
import { queryRows } from '../../db/client';
import { placeOrder, placeOrders, type OrderRequest } from '../ledger';
import { inTransaction, sqlState } from '../../lib/transaction';
import { getEmployee } from '../employees';
import { placeTerminalOrder } from './orders.service';
import { distributeToEmployees } from '../tokens';

const ALL = { kind: 'all' } as const;

describe.each(await testDatabaseKinds())('group commit of terminal orders on %s', (kind) => {
  let t: TestApp;
  let company: Company;
  let terminal: TestTerminal;

  const funded = async (amount: number) => {
    const employee = await newEmployee(t.app.deps, company.id);
    await distributeToEmployees(t.app.deps, { kind: 'company', companyId: company.id }, null, {
      items: [{ employee_id: employee.id, amount }],
    });
    return employee;
  };
  const balance = async (employee: Employee) =>
    (await getEmployee(t.app.deps, ALL, employee.id)).available_tokens;
  const ordersOf = async (employee: Employee) =>
    (
      await queryRows<{ n: number }>(
        t.app.deps.database.db,
        sql`SELECT count(*)::int AS n FROM orders WHERE employee_id = ${employee.id}`,
      )
    )[0]!.n;
  const request = (
    who: { code: string; staff: string },
    tokens: number,
    key: string = crypto.randomUUID(),
  ): OrderRequest => ({
    terminal: terminal.identity,
    idempotencyKey: key,
    requestHash: `hash-of-${who.code}-${who.staff}-${tokens}`,
    companyCode: who.code,
    staffNumber: who.staff,
    orderType: 'takeaway',
    items: [{ name: 'Rice', quantity: 1, unit_tokens: tokens }],
    at: t.clock.now(),
  });
  const payee = (employee: Employee) => ({ code: company.code, staff: employee.employee_id });

  /** The group commit's batches so far: how many, and how many orders they held. */
  const batchSizes = async () => {
    const { values } = await t.app.deps.metrics.orderBatchSize.get();
    const of = (suffix: string) => values.find((v) => v.metricName?.endsWith(suffix))?.value ?? 0;
    return { count: of('_count'), sum: of('_sum') };
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    company = await newCompany(t.app.deps, { initToken: 100_000 });
    terminal = await newTerminal(t.app.deps);
  });
  afterEach(async () => {
    await assertLedgerInvariants(t.app.deps.database.db);
  });
  afterAll(() => t.close());

  it('answers each order of one batch on its own: placed, refused, replayed, reused, invalid', async () => {
    const rich = await funded(300);
    const poor = await funded(5);
    const gone = await newEmployee(t.app.deps, company.id, { status: 'inactive' });
    const key = crypto.randomUUID();
    const first = request(payee(rich), 10, key);
    const results = await placeOrders(t.app.deps.database.db, [
      first,
      request(payee(poor), 10),
      request(payee(gone), 1),
      request({ code: 'NO-SUCH-CO', staff: rich.employee_id }, 1),
      // The same request again with the same key (a retry), then another request with that key.
      { ...first },
      request(payee(rich), 11, key),
      request(payee(rich), 20),
      // Refused just above for 10, the poor employee can still pay 5.
      request(payee(poor), 5),
      // Never reaches the database: a subtotal of zero.
      { ...request(payee(rich), 1), items: [{ name: 'Air', quantity: 1, unit_tokens: 0 }] },
    ]);
    const summary = results.map((r) =>
      r.ok
        ? `${r.value.status}${r.value.replayed ? ' replayed' : ''}`
        : (r.error as { code: string }).code,
    );
    expect(summary).toEqual([
      '201',
      'INSUFFICIENT_TOKENS',
      'USER_INACTIVE',
      'NO_PAYEE_FOUND',
      '201 replayed',
      'IDEMPOTENCY_KEY_REUSED',
      '201',
      '201',
      'BODY_INVALID',
    ]);
    const body = (i: number) =>
      (results[i] as { ok: true; value: { body: { data: Record<string, unknown> } } }).value.body;
    // The retry's answer is the first one's, word for word.
    expect(body(4)).toEqual(body(0));
    expect(body(0).data).toMatchObject({ subtotal: 10, available_tokens: 290 });
    expect(body(6).data).toMatchObject({ subtotal: 20, available_tokens: 270 });
    expect(body(7).data).toMatchObject({ subtotal: 5, available_tokens: 0 });
    expect(await balance(rich)).toBe(270);
    expect(await balance(poor)).toBe(0);
    expect(await ordersOf(rich)).toBe(2);
    expect(await ordersOf(poor)).toBe(1);
    expect(await ordersOf(gone)).toBe(0);
  });

  it('places each order of a batch that failed as a whole again alone: the bad one fails alone', async () => {
    const payer = await funded(100);
    const poor = await funded(1);
    const before = await batchSizes();
    const body = (who: Employee, tokens: number, orderType = 'takeaway') => ({
      company_code: company.code,
      employee_id: who.employee_id,
      order_type: orderType,
      items: [{ name: 'Rice', quantity: 1, unit_tokens: tokens }],
    });
    // Called in one tick: the first leaves at once, the next five wait for it and go together (a
    // second batch goes beside a running one only when a full batch waits or the first is stuck,
    // decision 0067). The fourth breaks a check of the orders table (order_type at most 50
    // characters; HTTP refuses it earlier), which fails that statement.
    const place = (b: ReturnType<typeof body>) =>
      placeTerminalOrder(t.app.deps, terminal.identity, crypto.randomUUID(), b).then(
        (answer) => String(answer.status),
        (error: { code?: string }) => error.code ?? 'failed',
      );
    const answers = await Promise.all([
      place(body(payer, 1)),
      place(body(payer, 2)),
      place(body(payer, 3)),
      place(body(payer, 4, 'x'.repeat(60))),
      place(body(payer, 5)),
      place(body(poor, 2)),
    ]);
    const after = await batchSizes();
    expect(after.count - before.count).toBe(2);
    expect(after.sum - before.sum).toBe(6);
    expect(answers[3]).not.toBe('201');
    expect([answers[0], answers[1], answers[2], answers[4], answers[5]]).toEqual([
      '201',
      '201',
      '201',
      '201',
      'INSUFFICIENT_TOKENS',
    ]);
    expect(await balance(payer)).toBe(100 - 1 - 2 - 3 - 5);
    expect(await ordersOf(payer)).toBe(4);
  });

  it('keeps every answer its own under a burst of concurrent HTTP orders on two instances', async () => {
    // Two instances: on PostgreSQL each with its own pool (and so its own group commit); PGlite
    // has one connection, so the second app shares it.
    const second =
      kind === 'postgres'
        ? await createSecondInstance(t)
        : await buildTestApp({ ...t.db, drop: async () => {} }, {}, { clock: t.clock });
    try {
      const payers = await Promise.all(Array.from({ length: 6 }, () => funded(100)));
      const short = await funded(3);
      const gone = await newEmployee(t.app.deps, company.id, { status: 'inactive' });
      const post = (app: TestApp, who: Employee, tokens: number, key: string) =>
        app.app.inject({
          method: 'POST',
          url: '/api/v1/orders',
          headers: { authorization: `Bearer ${terminal.key}`, 'idempotency-key': key },
          payload: {
            company_code: company.code,
            employee_id: who.employee_id,
            order_type: 'takeaway',
            items: [{ name: 'Rice', quantity: 1, unit_tokens: tokens }],
          },
        });
      // Each payer: five distinct orders of 10, and one order sent four times with one key, twice
      // to each instance; in between, orders the wallet refuses or the employee may not place.
      const sent: {
        who: Employee;
        key: string;
        expect: string;
        answer: Promise<{ statusCode: number; body: string }>;
      }[] = [];
      const instances = [t, second];
      for (let round = 0; round < 5; round += 1) {
        for (const [i, who] of payers.entries()) {
          const key = crypto.randomUUID();
          sent.push({
            who,
            key,
            expect: '201',
            answer: post(instances[(i + round) % 2]!, who, 10, key),
          });
          const refused = crypto.randomUUID();
          sent.push({
            who: short,
            key: refused,
            expect: '409 INSUFFICIENT_TOKENS',
            answer: post(instances[(i + round + 1) % 2]!, short, 5, refused),
          });
        }
        const inactive = crypto.randomUUID();
        sent.push({
          who: gone,
          key: inactive,
          expect: '403 USER_INACTIVE',
          answer: post(instances[round % 2]!, gone, 1, inactive),
        });
      }
      for (const who of payers) {
        const key = crypto.randomUUID();
        for (const instance of [t, second, t, second]) {
          sent.push({ who, key, expect: '201', answer: post(instance, who, 7, key) });
        }
      }
      const answers = await Promise.all(
        sent.map(async (s) => {
          const r = await s.answer;
          const json = JSON.parse(r.body) as { code?: string };
          return {
            ...s,
            got: r.statusCode === 201 ? '201' : `${r.statusCode} ${json.code}`,
            body: r.body,
          };
        }),
      );
      expect(
        answers.filter((a) => a.got !== a.expect).map((a) => `${a.expect} → ${a.got}`),
      ).toEqual([]);
      // One order per key, and every answer to one key the same, whichever instance gave it.
      const byKey = new Map<string, Set<string>>();
      for (const a of answers.filter((x) => x.got === '201')) {
        byKey.set(a.key, (byKey.get(a.key) ?? new Set()).add(a.body));
      }
      expect([...byKey.values()].every((bodies) => bodies.size === 1)).toBe(true);
      for (const who of payers) {
        expect(await ordersOf(who)).toBe(6);
        expect(await balance(who)).toBe(100 - 5 * 10 - 7);
      }
      expect(await balance(short)).toBe(3);
      expect(await ordersOf(short)).toBe(0);
      expect(await ordersOf(gone)).toBe(0);
    } finally {
      await second.close();
    }
  });
});

// A key claimed by another transaction while a batch waited: only PostgreSQL runs two
// transactions at once.
const postgresOnly = (await testDatabaseKinds()).filter((kind) => kind === 'postgres');
describe.each(postgresOnly)('a batch whose key another request claims meanwhile on %s', (kind) => {
  let t: TestApp;
  let company: Company;
  let terminal: TestTerminal;

  beforeAll(async () => {
    t = await createTestApp(kind);
    company = await newCompany(t.app.deps, { initToken: 100_000 });
    terminal = await newTerminal(t.app.deps);
  });
  afterEach(async () => {
    await assertLedgerInvariants(t.app.deps.database.db);
  });
  afterAll(() => t.close());

  const funded = async (amount: number) => {
    const employee = await newEmployee(t.app.deps, company.id);
    await distributeToEmployees(t.app.deps, { kind: 'company', companyId: company.id }, null, {
      items: [{ employee_id: employee.id, amount }],
    });
    return employee;
  };
  const request = (who: Employee, tokens: number, key: string): OrderRequest => ({
    terminal: terminal.identity,
    idempotencyKey: key,
    requestHash: `hash-of-${who.employee_id}-${tokens}`,
    companyCode: company.code,
    staffNumber: who.employee_id,
    orderType: 'takeaway',
    items: [{ name: 'Rice', quantity: 1, unit_tokens: tokens }],
    at: t.clock.now(),
  });
  const balance = async (employee: Employee) =>
    (await getEmployee(t.app.deps, ALL, employee.id)).available_tokens;

  it('fails as a whole with serialization_failure, writing nothing; placed again, each gets its answer', async () => {
    const [holder, reuser, other] = [await funded(50), await funded(50), await funded(50)];
    const key = crypto.randomUUID();
    // Another request with this key (another payee: it locks no wallet of the batch) has
    // claimed it and not committed yet.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let claimed!: () => void;
    const isClaimed = new Promise<void>((resolve) => (claimed = resolve));
    const first = inTransaction(t.app.deps.database, async (tx) => {
      const answer = await placeOrder(tx, request(holder, 10, key));
      claimed();
      await released;
      return answer;
    });
    await isClaimed;
    const batch = placeOrders(t.app.deps.database.db, [
      request(reuser, 5, key),
      request(other, 7, crypto.randomUUID()),
    ]).then(
      () => 'answered',
      (error: unknown) => sqlState(error),
    );
    await untilAStatementWaits(t.app.deps.database);
    release();
    expect((await first).status).toBe(201);
    expect(await batch).toBe('40001');
    expect([await balance(reuser), await balance(other)]).toEqual([50, 50]);

    // The API places the orders of a failed batch again (lib/group-commit.ts): now the key has
    // its answer, and the other order goes through.
    const again = await placeOrders(t.app.deps.database.db, [
      request(reuser, 5, key),
      request(other, 7, crypto.randomUUID()),
    ]);
    expect(
      again.map((r) => (r.ok ? String(r.value.status) : (r.error as { code: string }).code)),
    ).toEqual(['IDEMPOTENCY_KEY_REUSED', '201']);
    expect([await balance(holder), await balance(reuser), await balance(other)]).toEqual([
      40, 50, 43,
    ]);
  });
});
