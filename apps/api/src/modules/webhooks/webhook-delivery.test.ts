// Webhook delivery (DESIGN 6 "Integrations", decision 0038): a real receiver on 127.0.0.1 gets
// signed Standard Webhooks that the `standardwebhooks` package verifies; failures are retried on
// the schedule (driven by the test's clock) with the same webhook-id; a 410 disables the endpoint;
// each endpoint gets only its scope's events, without balances; two instances on one PostgreSQL
// database deliver each event once.
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Webhook as Verifier } from 'standardwebhooks';
import type { Company, Employee } from '@app/contract';
import { createSecondInstance, createTestApp, type TestApp } from '../../../test/app';
import { injectAs, requestsAs } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import {
  newCompany,
  newEmployee,
  newTerminal,
  order,
  refund,
  type TestTerminal,
} from '../../../test/ledger';
import { signedIn, type SignedInUser } from '../../../test/management';
import { startReceiver, type Receiver } from '../../../test/webhook-receiver';
import { distributeToEmployees, issueToCompany } from '../tokens';
import { deliverDueWebhooks, RETRY_SCHEDULE_MS } from './webhook-worker';

const ORDER_FIELDS = [
  'order_id',
  'order_no',
  'merchant_code',
  'terminal_code',
  'company_code',
  'employee_id',
  'subtotal',
  'refunded_amount',
  'status',
  'ordered_at',
].sort();

describe.each(await testDatabaseKinds())('webhook delivery on %s', (kind) => {
  let t: TestApp;
  let receiver: Receiver;
  let acme: Company;
  let admin: SignedInUser;
  let terminal: TestTerminal;
  let staff: Employee;

  beforeAll(async () => {
    t = await createTestApp(kind, { WEBHOOKS_ALLOW_HTTP: 'true' });
    // Standard Webhooks receivers refuse timestamps more than 5 minutes from their own clock.
    t.clock.set(new Date());
    acme = await newCompany(t.app.deps);
    terminal = await newTerminal(t.app.deps);
    await issueToCompany(t.app.deps, null, { company_id: acme.id, amount: 100_000 });
    staff = await newEmployee(t.app.deps, acme.id);
    await distributeToEmployees(t.app.deps, { kind: 'company', companyId: acme.id }, null, {
      items: [{ employee_id: staff.id, amount: 50_000 }],
    });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    // Each test starts now (retries move the clock by hours; sessions would have expired).
    t.clock.set(new Date());
    admin = await signedIn(t, 'admin');
  });
  afterEach(async () => {
    // Endpoints of one test never receive the next one's events.
    await t.app.deps.database.db.execute(sql`DELETE FROM webhook_endpoints`);
    await receiver?.close();
  });

  const as = (who: SignedInUser) => requestsAs(t.app, who.session);
  const deliver = () => deliverDueWebhooks(t.app.deps);

  async function endpointOf(who: SignedInUser, events: string[], url: string) {
    const res = await as(who).post('/api/v1/webhooks', { url, events });
    expect(res.statusCode).toBe(201);
    return res.json().data as { id: number; secret: string };
  }

  it('delivers order.created and order.refunded, signed so that standardwebhooks verifies them', async () => {
    receiver = await startReceiver();
    const endpoint = await endpointOf(admin, ['order.created', 'order.refunded'], receiver.url);
    const placed = await order(t.app.deps, terminal, acme, staff, 30);
    await refund(t.app.deps, terminal, placed.id, 'item_removed', 10);
    expect(await deliver()).toBe(2);

    expect(receiver.received.map((r) => r.json.type).sort()).toEqual([
      'order.created',
      'order.refunded',
    ]);
    const verifier = new Verifier(endpoint.secret);
    for (const request of receiver.received) {
      expect(verifier.verify(request.body, request.headers)).toEqual(request.json);
      expect(request.headers['webhook-id']).toBe(request.json.id);
      expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
      expect(
        Object.keys(request.json.data)
          .filter((k) => ORDER_FIELDS.includes(k))
          .sort(),
      ).toEqual(ORDER_FIELDS);
      expect(JSON.stringify(request.json.data)).not.toMatch(/balance|available/);
    }
    const created = receiver.received.find((r) => r.json.type === 'order.created')!.json;
    expect(created.data).toMatchObject({
      order_id: placed.id,
      order_no: placed.order_no,
      company_code: acme.code,
      employee_id: staff.employee_id,
      subtotal: 30,
      refunded_amount: 0,
      status: 'ordered',
    });
    const refunded = receiver.received.find((r) => r.json.type === 'order.refunded')!.json;
    expect(refunded.data).toMatchObject({ order_id: placed.id, refunded_amount: 10 });

    // A tampered body or another secret does not verify.
    const [first] = receiver.received;
    expect(() => verifier.verify(`${first!.body} `, first!.headers)).toThrow();
    const log = await as(admin).get(`/api/v1/webhooks/${endpoint.id}/deliveries`);
    expect(log.json()).toMatchObject({ next_cursor: null });
    expect(log.json().data).toHaveLength(2);
    expect(log.json().data.every((d: { status: string }) => d.status === 'succeeded')).toBe(true);
    // Nothing left to deliver.
    expect(await deliver()).toBe(0);
  });

  it('retries a failing receiver with the same webhook-id on the schedule, then succeeds', async () => {
    receiver = await startReceiver();
    receiver.answers.push(500, 503);
    const endpoint = await endpointOf(admin, ['order.created'], receiver.url);
    await order(t.app.deps, terminal, acme, staff, 5);

    expect(await deliver()).toBe(1);
    const deliveries = async () =>
      (await as(admin).get(`/api/v1/webhooks/${endpoint.id}/deliveries`)).json().data[0];
    expect(await deliveries()).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_status_code: 500,
      last_response: 'answer 500',
    });
    // Not before its time.
    t.clock.advance(RETRY_SCHEDULE_MS[0] - 1_000);
    expect(await deliver()).toBe(0);
    t.clock.advance(1_000);
    expect(await deliver()).toBe(1);
    const second = await deliveries();
    expect(second).toMatchObject({ status: 'pending', attempts: 2, last_status_code: 503 });
    expect(Date.parse(second.next_attempt_at) - t.clock.now().getTime()).toBe(RETRY_SCHEDULE_MS[1]);
    t.clock.advance(RETRY_SCHEDULE_MS[1]);
    expect(await deliver()).toBe(1);

    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(1);
    expect(await deliveries()).toMatchObject({
      status: 'succeeded',
      attempts: 3,
      last_status_code: 200,
      next_attempt_at: null,
    });
  });

  it('gives up after the last retry, and a manual retry sends it once more', async () => {
    receiver = await startReceiver();
    receiver.answers.push(...Array<number>(7).fill(500));
    const endpoint = await endpointOf(admin, ['order.created'], receiver.url);
    await order(t.app.deps, terminal, acme, staff, 5);
    await deliver();
    for (const wait of RETRY_SCHEDULE_MS) {
      t.clock.advance(wait);
      expect(await deliver()).toBe(1);
    }
    // A day later: the morning's session has expired.
    admin = await signedIn(t, 'admin');
    const log = await as(admin).get(`/api/v1/webhooks/${endpoint.id}/deliveries`);
    const delivery = log.json().data[0];
    expect(delivery).toMatchObject({ status: 'failed', attempts: 7, next_attempt_at: null });
    t.clock.advance(24 * 3_600_000);
    expect(await deliver()).toBe(0);
    admin = await signedIn(t, 'admin');

    const retried = await injectAs(t.app, admin.session, {
      method: 'POST',
      url: `/api/v1/webhooks/${endpoint.id}/deliveries/${delivery.id}/retry`,
    });
    expect(retried.statusCode).toBe(200);
    expect(retried.json().data.status).toBe('pending');
    expect(await deliver()).toBe(1);
    expect(receiver.received).toHaveLength(8);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const after = (await as(admin).get(`/api/v1/webhooks/${endpoint.id}/deliveries`)).json();
    expect(after.data[0]).toMatchObject({ status: 'succeeded', attempts: 8 });
  });

  it('lists an endpoint’s deliveries newest first, 20 at a time', async () => {
    receiver = await startReceiver();
    const endpoint = await endpointOf(admin, ['order.created'], receiver.url);
    for (let i = 0; i < 23; i += 1) await order(t.app.deps, terminal, acme, staff, 1);
    const url = `/api/v1/webhooks/${endpoint.id}/deliveries`;
    const first = (await as(admin).get(url)).json();
    expect(first.data).toHaveLength(20);
    expect(first.data.every((d: { status: string }) => d.status === 'pending')).toBe(true);
    const second = (await as(admin).get(`${url}?cursor=${first.next_cursor}`)).json();
    expect(second).toMatchObject({ next_cursor: null });
    const ids = [...first.data, ...second.data].map((d: { id: number }) => d.id);
    expect(ids).toHaveLength(23);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const forged = await as(admin).get(`${url}?cursor=not-a-cursor`);
    expect(forged.statusCode).toBe(400);
    expect(forged.json().code).toBe('QUERY_PARAM_INVALID');
  });

  it('disables the endpoint on 410 Gone and follows no redirect', async () => {
    receiver = await startReceiver();
    receiver.answers.push(302, 410);
    const endpoint = await endpointOf(admin, ['order.created'], receiver.url);
    await order(t.app.deps, terminal, acme, staff, 5);
    await order(t.app.deps, terminal, acme, staff, 6);
    expect(await deliver()).toBe(2);
    expect(receiver.received).toHaveLength(2);
    const read = await as(admin).get(`/api/v1/webhooks/${endpoint.id}`);
    expect(read.json().data).toMatchObject({ status: 'disabled', disabled_reason: 'gone' });
    const log = (await as(admin).get(`/api/v1/webhooks/${endpoint.id}/deliveries`)).json().data;
    const codes = log.map((d: { last_status_code: number }) => d.last_status_code).sort();
    expect(codes).toEqual([302, 410]);
    // Pending deliveries of a disabled endpoint wait; none is sent.
    t.clock.advance(RETRY_SCHEDULE_MS[0]);
    expect(await deliver()).toBe(0);
  });

  it('sends each endpoint only its scope’s events, without balances', async () => {
    receiver = await startReceiver();
    const second = await startReceiver('/other');
    const third = await startReceiver('/third');
    try {
      const otherCompany = await newCompany(t.app.deps);
      await issueToCompany(t.app.deps, null, { company_id: otherCompany.id, amount: 1_000 });
      const otherStaff = await newEmployee(t.app.deps, otherCompany.id);
      await distributeToEmployees(
        t.app.deps,
        { kind: 'company', companyId: otherCompany.id },
        null,
        { items: [{ employee_id: otherStaff.id, amount: 500 }] },
      );
      const otherTerminal = await newTerminal(t.app.deps);
      const shopAdmin = await signedIn(t, 'merchant_admin', { merchantId: terminal.merchantId });
      const acmeAdmin = await signedIn(t, 'company_admin', { companyId: acme.id });
      await endpointOf(shopAdmin, ['order.created', 'order.refunded'], receiver.url);
      await endpointOf(
        acmeAdmin,
        ['order.created', 'tokens.issued', 'tokens.distributed'],
        second.url,
      );
      await endpointOf(admin, ['tokens.issued'], third.url);

      const mine = await order(t.app.deps, terminal, acme, staff, 7);
      await order(t.app.deps, otherTerminal, acme, staff, 8);
      const foreign = await order(t.app.deps, terminal, otherCompany, otherStaff, 9);
      await order(t.app.deps, otherTerminal, otherCompany, otherStaff, 10);
      await issueToCompany(t.app.deps, null, { company_id: acme.id, amount: 11 });
      await issueToCompany(t.app.deps, null, { company_id: otherCompany.id, amount: 12 });
      await distributeToEmployees(t.app.deps, { kind: 'company', companyId: acme.id }, null, {
        items: [{ employee_id: staff.id, amount: 13 }],
      });
      while ((await deliver()) > 0) {
        // until every due delivery is sent
      }

      // The merchant admin's: its merchant's orders of every company, nothing else.
      expect(receiver.received.map((r) => r.json.data.order_id).sort()).toEqual(
        [mine.id, foreign.id].sort(),
      );
      // The company admin's: its company's orders at every merchant, its top-up and distribution.
      const acmeEvents = second.received.map((r) => r.json);
      expect(acmeEvents.filter((e) => e.type === 'order.created')).toHaveLength(2);
      expect(acmeEvents.every((e) => e.data.company_code === acme.code)).toBe(true);
      expect(acmeEvents.find((e) => e.type === 'tokens.issued')?.data).toMatchObject({
        amount: 11,
      });
      expect(acmeEvents.find((e) => e.type === 'tokens.distributed')?.data).toMatchObject({
        total: 13,
        employees: 1,
      });
      // The admin's: every company's top-ups.
      expect(third.received.map((r) => r.json.data.amount).sort()).toEqual([11, 12]);
      for (const request of [...receiver.received, ...second.received, ...third.received]) {
        expect(request.body).not.toMatch(/balance|available_tokens/);
      }
    } finally {
      await second.close();
      await third.close();
    }
  });
});

const postgresOnly = (await testDatabaseKinds()).filter((kind) => kind === 'postgres');

describe.each(postgresOnly)('webhook delivery by two API instances on one %s database', (kind) => {
  let one: TestApp;
  let two: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    one = await createTestApp(kind, { WEBHOOKS_ALLOW_HTTP: 'true' });
    two = await createSecondInstance(one, { WEBHOOKS_ALLOW_HTTP: 'true' });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await two.close();
    await one.close();
  });

  it('delivers each of 50 events exactly once', async () => {
    const company = await newCompany(one.app.deps);
    const terminal = await newTerminal(one.app.deps);
    await issueToCompany(one.app.deps, null, { company_id: company.id, amount: 1_000 });
    const staff = await newEmployee(one.app.deps, company.id);
    await distributeToEmployees(one.app.deps, { kind: 'company', companyId: company.id }, null, {
      items: [{ employee_id: staff.id, amount: 100 }],
    });
    const admin = await signedIn(one, 'admin');
    const created = await requestsAs(one.app, admin.session).post('/api/v1/webhooks', {
      url: receiver.url,
      events: ['order.created'],
    });
    expect(created.statusCode).toBe(201);
    for (let i = 0; i < 50; i += 1) await order(one.app.deps, terminal, company, staff, 1);

    const drain = async (deps: typeof one.app.deps) => {
      let sent = 0;
      for (;;) {
        const n = await deliverDueWebhooks(deps, 4);
        if (n === 0) return sent;
        sent += n;
      }
    };
    const [byOne, byTwo] = await Promise.all([drain(one.app.deps), drain(two.app.deps)]);
    expect(byOne + byTwo).toBe(50);
    expect(byOne).toBeGreaterThan(0);
    expect(byTwo).toBeGreaterThan(0);
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(50);
    expect(new Set(ids).size).toBe(50);
    // Numbered by whichever instance got there first, never twice, without a gap (decision 0084).
    const numbers = receiver.received.map((r) => r.json.sequence).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });
});
