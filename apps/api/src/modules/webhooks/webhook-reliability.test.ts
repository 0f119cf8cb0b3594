// Webhooks an integrator can rely on (issue 44 item 2, decision 0084), on real receivers on
// 127.0.0.1: a sequence number per endpoint (1, 2, 3, … without gaps, a refund's above its
// order's even when the refund arrives first), a rotated secret that still verifies for 24 hours
// with `standardwebhooks` beside the new one (retries of earlier events too) and not after, and a
// signed test event of a chosen type through the same delivery path. Every body is checked against
// the OpenAPI document's `webhooks` section.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Webhook as Verifier } from 'standardwebhooks';
import type { Company, Employee } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { queryRows } from '../../db/client';
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
import {
  startReceiver,
  webhookDocumentChecker,
  type Receiver,
  type ReceivedWebhook,
} from '../../../test/webhook-receiver';
import { distributeToEmployees, issueToCompany } from '../tokens';
import { deliverDueWebhooks, RETRY_SCHEDULE_MS } from './webhook-worker';

const HOUR = 3_600_000;

/** The signatures of a `webhook-signature` header, as Standard Webhooks separates them. */
const signatures = (received: ReceivedWebhook) => received.headers['webhook-signature']!.split(' ');

/** Whether `secret` verifies the request (standardwebhooks: signature and timestamp). */
const verifies = (secret: string, received: ReceivedWebhook) => {
  try {
    new Verifier(secret).verify(received.body, received.headers);
    return true;
  } catch {
    return false;
  }
};

describe.each(await testDatabaseKinds())('reliable webhooks on %s', (kind) => {
  let t: TestApp;
  let receiver: Receiver;
  let acme: Company;
  let admin: SignedInUser;
  let terminal: TestTerminal;
  let staff: Employee;
  let checkBody: (received: ReceivedWebhook) => string[];

  beforeAll(async () => {
    t = await createTestApp(kind, { WEBHOOKS_ALLOW_HTTP: 'true' });
    t.clock.set(new Date());
    acme = await newCompany(t.app.deps);
    terminal = await newTerminal(t.app.deps);
    await issueToCompany(t.app.deps, null, { company_id: acme.id, amount: 100_000 });
    staff = await newEmployee(t.app.deps, acme.id);
    await distributeToEmployees(t.app.deps, { kind: 'company', companyId: acme.id }, null, {
      items: [{ employee_id: staff.id, amount: 50_000 }],
    });
    checkBody = webhookDocumentChecker(t.app);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    // Standard Webhooks receivers refuse a timestamp more than 5 minutes from their own clock.
    t.clock.set(new Date());
    admin = await signedIn(t, 'admin');
    receiver = await startReceiver();
  });
  afterEach(async () => {
    for (const received of receiver.received) expect(checkBody(received)).toEqual([]);
    await t.app.deps.database.db.execute(sql`DELETE FROM webhook_endpoints`);
    await receiver.close();
  });

  const as = (who: SignedInUser) => requestsAs(t.app, who.session);
  const deliverAll = async () => {
    let sent = 0;
    for (
      let n = await deliverDueWebhooks(t.app.deps);
      n > 0;
      n = await deliverDueWebhooks(t.app.deps)
    ) {
      sent += n;
    }
    return sent;
  };
  async function endpointOf(who: SignedInUser, events: string[], url = receiver.url) {
    const res = await as(who).post('/api/v1/webhooks', { url, events });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: number; secret: string };
  }

  it('numbers each endpoint’s deliveries 1, 2, 3, … and a refund above its order, even when it arrives first', async () => {
    const first = await endpointOf(admin, ['order.created', 'order.refunded']);
    const other = await startReceiver('/other');
    try {
      const second = await endpointOf(admin, ['order.refunded'], other.url);
      // The order's first attempt fails: its retry comes after the refund.
      receiver.answers.push(503);
      const placed = await order(t.app.deps, terminal, acme, staff, 30);
      expect(await deliverDueWebhooks(t.app.deps)).toBe(1);
      await refund(t.app.deps, terminal, placed.id, 'item_removed', 10);
      await refund(t.app.deps, terminal, placed.id, 'item_removed', 5);
      expect(await deliverAll()).toBe(4);
      t.clock.advance(RETRY_SCHEDULE_MS[0]);
      expect(await deliverAll()).toBe(1);

      // Arrived: the order (refused), both refunds (sent at once: either first), the order again.
      const [refused, r1, r2, retried] = receiver.received.map((r) => r.json);
      expect([refused!.type, refused!.sequence]).toEqual(['order.created', 1]);
      expect([retried!.type, retried!.sequence, retried!.id]).toEqual([
        'order.created',
        1,
        refused!.id,
      ]);
      const refunds = [r1!, r2!].sort((a, b) => a.sequence - b.sequence);
      expect(refunds.map((r) => [r.type, r.sequence, r.data.refund_amount])).toEqual([
        ['order.refunded', 2, 10],
        ['order.refunded', 3, 5],
      ]);
      // The other endpoint counts its own deliveries from 1.
      const ours = other.received.map((r) => r.json).sort((a, b) => a.sequence - b.sequence);
      expect(ours.map((r) => [r.sequence, r.data.refund_amount])).toEqual([
        [1, 10],
        [2, 5],
      ]);
      // The delivery log shows the same numbers, newest first.
      const log = await as(admin).get(`/api/v1/webhooks/${first.id}/deliveries`);
      expect(log.json().data.map((d: { sequence: number }) => d.sequence)).toEqual([3, 2, 1]);
      const secondLog = await as(admin).get(`/api/v1/webhooks/${second.id}/deliveries`);
      expect(secondLog.json().data.map((d: { sequence: number }) => d.sequence)).toEqual([2, 1]);
      for (const r of other.received) expect(checkBody(r)).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('numbers concurrent orders without a gap or a repeat', async () => {
    await endpointOf(admin, ['order.created']);
    // Ten orders at once (the terminal path batches them, decision 0034), numbered between passes.
    await Promise.all(
      Array.from({ length: 10 }, () => order(t.app.deps, terminal, acme, staff, 1)),
    );
    await deliverDueWebhooks(t.app.deps, 3);
    await Promise.all(Array.from({ length: 5 }, () => order(t.app.deps, terminal, acme, staff, 1)));
    await deliverAll();
    const numbers = receiver.received.map((r) => r.json.sequence).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
  });

  it('keeps signing with the old secret for 24 hours after a rotation, retries of earlier events too', async () => {
    const endpoint = await endpointOf(admin, ['order.created']);
    const oldSecret = endpoint.secret;
    receiver.answers.push(500);
    await order(t.app.deps, terminal, acme, staff, 3);
    expect(await deliverDueWebhooks(t.app.deps)).toBe(1);
    const [beforeRotation] = receiver.received;
    expect(signatures(beforeRotation!)).toHaveLength(1);
    expect(verifies(oldSecret, beforeRotation!)).toBe(true);

    const rotated = await as(admin).post(`/api/v1/webhooks/${endpoint.id}/rotate-secret`, {});
    expect(rotated.statusCode).toBe(200);
    const newSecret = rotated.json().data.secret as string;
    expect(newSecret).not.toBe(oldSecret);
    expect(rotated.json().data).not.toHaveProperty('previous_secret');
    expect(Date.parse(rotated.json().data.previous_secret_expires_at)).toBe(
      t.clock.now().getTime() + 24 * HOUR,
    );
    // Neither answer shows the old secret again.
    expect(JSON.stringify(rotated.json())).not.toContain(oldSecret);
    const read = await as(admin).get(`/api/v1/webhooks/${endpoint.id}`);
    expect(JSON.stringify(read.json())).not.toContain(oldSecret);

    // During the overlap: the retry of the earlier event and a new one, each signed twice.
    await order(t.app.deps, terminal, acme, staff, 4);
    t.clock.advance(RETRY_SCHEDULE_MS[0]);
    expect(await deliverAll()).toBe(2);
    const during = receiver.received.slice(1);
    expect(during.map((r) => r.json.data.subtotal).sort()).toEqual([3, 4]);
    for (const received of during) {
      expect(signatures(received)).toHaveLength(2);
      expect(signatures(received).every((s) => /^v1,[A-Za-z0-9+/=]+$/.test(s))).toBe(true);
      expect(verifies(oldSecret, received)).toBe(true);
      expect(verifies(newSecret, received)).toBe(true);
      // Another secret verifies neither signature.
      expect(verifies(`whsec_${crypto.randomBytes(24).toString('base64')}`, received)).toBe(false);
    }
    // The attempt made before the rotation was signed with the old secret only.
    expect(verifies(newSecret, beforeRotation!)).toBe(false);
  });

  it('stops signing with the old secret 24 hours after the rotation', async () => {
    // The rotation a day and a minute ago; the delivery now, so standardwebhooks reads it as fresh.
    const now = new Date();
    t.clock.set(new Date(now.getTime() - 24 * HOUR - 60_000));
    admin = await signedIn(t, 'admin');
    const endpoint = await endpointOf(admin, ['order.created']);
    const rotated = await as(admin).post(`/api/v1/webhooks/${endpoint.id}/rotate-secret`, {});
    const newSecret = rotated.json().data.secret as string;
    // A second before the overlap ends it still signs twice.
    t.clock.set(new Date(now.getTime() - 61_000));
    await order(t.app.deps, terminal, acme, staff, 2);
    expect(await deliverAll()).toBe(1);
    expect(signatures(receiver.received[0]!)).toHaveLength(2);
    t.clock.set(now);
    await order(t.app.deps, terminal, acme, staff, 2);
    expect(await deliverAll()).toBe(1);
    const after = receiver.received[1]!;
    expect(signatures(after)).toHaveLength(1);
    expect(verifies(newSecret, after)).toBe(true);
    expect(verifies(endpoint.secret, after)).toBe(false);
  });

  it('sends a signed test event of a chosen type to one endpoint, through the delivery path', async () => {
    const acmeAdmin = await signedIn(t, 'company_admin', { companyId: acme.id });
    // Subscribed to orders only: a test event may be of any type the scope may receive.
    const endpoint = await endpointOf(acmeAdmin, ['order.created']);
    const other = await endpointOf(acmeAdmin, ['reset.completed']);
    const sent = await injectAs(t.app, acmeAdmin.session, {
      method: 'POST',
      url: `/api/v1/webhooks/${endpoint.id}/test`,
      payload: { type: 'reset.completed' },
    });
    expect(sent.statusCode, sent.body).toBe(202);
    expect(sent.json().data).toMatchObject({
      event_type: 'reset.completed',
      status: 'pending',
      attempts: 0,
    });
    expect(sent.json().data.event_id).toMatch(/^msg_/);
    expect(receiver.received).toHaveLength(0);

    // The worker sends it: one request, to this endpoint only.
    expect(await deliverAll()).toBe(1);
    const [received] = receiver.received;
    expect(received!.headers['webhook-id']).toBe(sent.json().data.event_id);
    expect(verifies(endpoint.secret, received!)).toBe(true);
    expect(verifies(other.secret, received!)).toBe(false);
    expect(received!.json).toMatchObject({
      type: 'reset.completed',
      test: true,
      sequence: 1,
      data: { company_code: acme.code, period: expect.stringMatching(/^\d{4}-\d{2}$/) },
    });
    const log = await as(acmeAdmin).get(`/api/v1/webhooks/${endpoint.id}/deliveries`);
    expect(log.json().data).toMatchObject([
      { event_type: 'reset.completed', status: 'succeeded', sequence: 1, attempts: 1 },
    ]);
    // A real event after it is numbered next and is no test.
    await order(t.app.deps, terminal, acme, staff, 1);
    await deliverAll();
    expect(receiver.received[1]!.json).toMatchObject({
      type: 'order.created',
      test: false,
      sequence: 2,
    });

    // A failing receiver gets the test event again with the same id, like any event.
    receiver.answers.push(500);
    const again = await injectAs(t.app, acmeAdmin.session, {
      method: 'POST',
      url: `/api/v1/webhooks/${endpoint.id}/test`,
      payload: { type: 'employee.deactivated' },
    });
    await deliverAll();
    t.clock.advance(RETRY_SCHEDULE_MS[0]);
    await deliverAll();
    const retried = receiver.received.slice(2);
    expect(retried.map((r) => r.headers['webhook-id'])).toEqual([
      again.json().data.event_id,
      again.json().data.event_id,
    ]);
    expect(retried[0]!.json.data).toMatchObject({ company_code: acme.code, deleted: false });
  });

  it('refuses a test event of a type outside the scope, to a disabled endpoint, or to another scope’s endpoint', async () => {
    const acmeAdmin = await signedIn(t, 'company_admin', { companyId: acme.id });
    const shopAdmin = await signedIn(t, 'merchant_admin', { merchantId: terminal.merchantId });
    const endpoint = await endpointOf(acmeAdmin, ['order.created']);
    const test = (who: SignedInUser, id: number, type: string) =>
      injectAs(t.app, who.session, {
        method: 'POST',
        url: `/api/v1/webhooks/${id}/test`,
        payload: { type },
      });
    const outside = await test(acmeAdmin, endpoint.id, 'settlement.closed');
    expect(outside.statusCode).toBe(400);
    expect(outside.json().code).toBe('WEBHOOK_EVENT_NOT_ALLOWED');
    const unknown = await test(acmeAdmin, endpoint.id, 'order.eaten');
    expect(unknown.statusCode).toBe(400);
    expect((await test(shopAdmin, endpoint.id, 'order.created')).statusCode).toBe(404);
    await as(acmeAdmin).patch(`/api/v1/webhooks/${endpoint.id}`, { status: 'disabled' });
    const disabled = await test(acmeAdmin, endpoint.id, 'order.created');
    expect(disabled.statusCode).toBe(409);
    expect(disabled.json().code).toBe('WEBHOOK_DISABLED');

    // A merchant's test event names the merchant.
    const shop = await endpointOf(shopAdmin, ['order.created']);
    expect((await test(shopAdmin, shop.id, 'settlement.closed')).statusCode).toBe(202);
    await deliverAll();
    expect(receiver.received).toHaveLength(1);
    const [merchant] = await queryRows<{ code: string }>(
      t.app.deps.database.db,
      sql`SELECT code FROM merchants WHERE id = ${terminal.merchantId}`,
    );
    expect(receiver.received[0]!.json).toMatchObject({
      type: 'settlement.closed',
      test: true,
      data: { merchant_code: merchant!.code },
    });
  });
});
