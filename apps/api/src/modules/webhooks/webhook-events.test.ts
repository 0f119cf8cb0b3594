// The events of issue 44 (decision 0084), each written to the outbox in its change's transaction
// and delivered to a real receiver on 127.0.0.1: employees created, changed and deactivated (by
// hand and by an import, set-based), approvals requested and decided (approved, rejected,
// expired), and each merchant's settlement period closed (once, whatever the number of runs).
// Every body is checked against the OpenAPI document's `webhooks` section; none carries a balance.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Company } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { injectAs, requestsAs } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import { multipart } from '../../../test/http';
import { newCompany, newEmployee, newTerminal, order, refund } from '../../../test/ledger';
import { signedIn, type SignedInUser } from '../../../test/management';
import {
  countEvents,
  startReceiver,
  webhookDocumentChecker,
  type Receiver,
  type ReceivedWebhook,
} from '../../../test/webhook-receiver';
import { runApprovalExpiry, runSettlementClosings } from '../jobs';
import { distributeToEmployees, issueToCompany } from '../tokens';
import { queryRows } from '../../db/client';
import { deliverDueWebhooks } from './webhook-worker';

const DAY = 86_400_000;
const EMPLOYEE_EVENTS = ['employee.created', 'employee.updated', 'employee.deactivated'];
const APPROVAL_EVENTS = ['approval.requested', 'approval.decided'];

describe.each(await testDatabaseKinds())('the events of issue 44 on %s', (kind) => {
  let t: TestApp;
  let receiver: Receiver;
  let admin: SignedInUser;
  let checkBody: (received: ReceivedWebhook) => string[];

  beforeAll(async () => {
    t = await createTestApp(kind, { WEBHOOKS_ALLOW_HTTP: 'true' });
    checkBody = webhookDocumentChecker(t.app);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    t.clock.set(new Date());
    admin = await signedIn(t, 'admin');
    receiver = await startReceiver();
  });
  afterEach(async () => {
    for (const received of receiver.received) {
      expect(checkBody(received)).toEqual([]);
      expect(received.body).not.toMatch(/balance|available_tokens/);
    }
    await t.app.deps.database.db.execute(sql`DELETE FROM webhook_endpoints`);
    await receiver.close();
  });

  const as = (who: SignedInUser) => requestsAs(t.app, who.session);
  const deliverAll = async () => {
    while ((await deliverDueWebhooks(t.app.deps)) > 0) {
      // until every due delivery is sent
    }
  };
  /** What the receiver got, in sequence order: `[type, data]`. */
  const got = () =>
    receiver.received
      .map((r) => r.json)
      .sort((a, b) => a.sequence - b.sequence)
      .map((e) => [e.type, e.data] as const);
  async function endpointOf(who: SignedInUser, events: string[], url = receiver.url) {
    const res = await as(who).post('/api/v1/webhooks', { url, events });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: number };
  }
  async function companyWithAdmin(): Promise<{ company: Company; as: SignedInUser }> {
    const company = await newCompany(t.app.deps);
    return { company, as: await signedIn(t, 'company_admin', { companyId: company.id }) };
  }

  it('sends employee.created, .updated and .deactivated for changes by hand, with the fields changed', async () => {
    const { company, as: hr } = await companyWithAdmin();
    const other = await companyWithAdmin();
    await endpointOf(hr, EMPLOYEE_EVENTS);
    const created = await as(hr).post('/api/v1/employees', {
      employee_id: 'W001',
      name: 'Wen',
      email: `wen-${crypto.randomBytes(3).toString('hex')}@example.com`,
      status: 'active',
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as number;
    // A refused change writes nothing: the staff number is taken.
    const refused = await as(hr).post('/api/v1/employees', {
      employee_id: 'W001',
      status: 'active',
    });
    expect(refused.statusCode).toBe(409);
    // Another company's employee is not this endpoint's business.
    await as(other.as).post('/api/v1/employees', { employee_id: 'X001', status: 'active' });
    expect(
      (await as(hr).put(`/api/v1/employees/${id}`, { name: 'Wen Li', monthly_tokens: 400 }))
        .statusCode,
    ).toBe(200);
    // The same values again change nothing: no event.
    await as(hr).put(`/api/v1/employees/${id}`, { name: 'Wen Li' });
    await as(hr).patch(`/api/v1/employees/${id}/status`, { status: 'inactive' });
    await as(hr).patch(`/api/v1/employees/${id}/status`, { status: 'active' });
    await as(hr).delete(`/api/v1/employees/${id}`);
    await deliverAll();

    const events = got();
    expect(events.map(([type]) => type)).toEqual([
      'employee.created',
      'employee.updated',
      'employee.deactivated',
      'employee.updated',
      'employee.deactivated',
    ]);
    const [c, u, d, r, del] = events.map(([, data]) => data);
    expect(c).toEqual({
      id,
      employee_id: 'W001',
      company_code: company.code,
      name: 'Wen',
      email: created.json().data.email,
      status: 'active',
      monthly_tokens: null,
      updated_at: created.json().data.updated_at,
    });
    expect(u).toMatchObject({
      id,
      name: 'Wen Li',
      monthly_tokens: 400,
      changed: ['name', 'monthly_tokens'],
    });
    expect(d).toMatchObject({ id, status: 'inactive', changed: ['status'], deleted: false });
    expect(r).toMatchObject({ id, status: 'active', changed: ['status'] });
    expect(del).toMatchObject({ id, status: 'inactive', changed: ['status'], deleted: true });
  });

  it('sends one event per employee an import creates, changes or deactivates, in the import’s statements', async () => {
    const { company, as: hr } = await companyWithAdmin();
    const add = async (employee_id: string, name: string) =>
      (await as(hr).post('/api/v1/employees', { employee_id, name, status: 'active' })).json()
        .data as { id: number };
    const keep = await add('KEEP', 'Old');
    const off = await add('OFF', 'Off');
    await add('SAME', 'Same');
    const file = [
      'employee_id,email,name,status',
      'KEEP,,New,active',
      'OFF,,,inactive',
      'SAME,,Same,active',
      'NEW1,,One,active',
      'NEW2,,Two,inactive',
      'E,bad,,never',
    ].join('\r\n');
    const upload = (who: SignedInUser, content: string) =>
      injectAs(t.app, who.session, {
        method: 'POST',
        url: '/api/v1/employees/import',
        ...multipart(content),
      });
    // With no endpoint taking them, an import writes no event at all (decision 0055).
    const before = await countEvents(t.app.deps.database.db);
    const quiet = await companyWithAdmin();
    expect((await upload(quiet.as, 'employee_id,name\nQ1,Quiet\n')).statusCode).toBe(200);
    expect(await countEvents(t.app.deps.database.db)).toBe(before);

    await endpointOf(hr, EMPLOYEE_EVENTS);
    const res = await upload(hr, file);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ created: 2, updated: 1, unchanged: 1, deactivated: 1 });
    await deliverAll();
    const events = got();
    const byType = (type: string) => events.filter(([t]) => t === type).map(([, d]) => d);
    expect(byType('employee.created').map((d) => [d.employee_id, d.name, d.status])).toEqual([
      ['NEW1', 'One', 'active'],
      ['NEW2', 'Two', 'inactive'],
    ]);
    expect(byType('employee.created').every((d) => d.company_code === company.code)).toBe(true);
    expect(byType('employee.updated')).toEqual([
      expect.objectContaining({ id: keep.id, name: 'New', changed: ['name'] }),
    ]);
    expect(byType('employee.deactivated')).toEqual([
      expect.objectContaining({
        id: off.id,
        status: 'inactive',
        changed: ['status'],
        deleted: false,
      }),
    ]);
    expect(events).toHaveLength(4);
    // The import's data is the shape a change by hand sends (its updated_at in the same form).
    for (const [, data] of events) {
      expect(data.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(data.monthly_tokens).toBeNull();
    }
  });

  it('sends approval.requested and approval.decided: approved, rejected and expired', async () => {
    const { company, as: hr } = await companyWithAdmin();
    const other = await companyWithAdmin();
    const groupHr = await signedIn(t, 'super_hr');
    // A second admin, so that a top-up request has someone to decide it (decision 0069).
    await signedIn(t, 'admin');
    const staff = await newEmployee(t.app.deps, company.id);
    await issueToCompany(t.app.deps, null, { company_id: company.id, amount: 10_000 });
    await endpointOf(hr, [...APPROVAL_EVENTS, 'tokens.distributed']);
    const adminReceiver = await startReceiver('/admin');
    try {
      await endpointOf(admin, APPROVAL_EVENTS, adminReceiver.url);
      await endpointOf(other.as, APPROVAL_EVENTS, adminReceiver.url.replace('/admin', '/other'));
      expect(
        (
          await as(admin).put('/api/v1/sys/approval-policy', {
            top_up_threshold: 5_000,
            distribution_threshold: 100,
          })
        ).statusCode,
      ).toBe(200);
      const distribute = (amount: number) =>
        as(hr).post('/api/v1/tokens/topup-token/employees', {
          items: [{ employee_id: staff.id, amount }],
          note: 'Bonus',
        });
      const first = await distribute(150);
      expect(first.statusCode, first.body).toBe(202);
      const firstId = first.json().data.approval.id as number;
      const approved = await as(groupHr).post(`/api/v1/approvals/${firstId}/approve`, {});
      expect(approved.statusCode, approved.body).toBe(200);
      const second = (await distribute(160)).json().data.approval.id as number;
      await as(groupHr).post(`/api/v1/approvals/${second}/reject`, { reason: 'Not now' });
      const third = (await distribute(170)).json().data.approval.id as number;
      // A top-up request is the admins' business: the company's endpoint does not hear of it.
      const topUp = await as(admin).post('/api/v1/tokens/topup-token', {
        company_id: company.id,
        amount: 6_000,
      });
      expect(topUp.statusCode, topUp.body).toBe(202);
      t.clock.advance(8 * DAY);
      expect(await runApprovalExpiry(t.app.deps)).toEqual(
        expect.arrayContaining([third, topUp.json().data.approval.id]),
      );
      await deliverAll();

      const events = got();
      expect(events.map(([type, d]) => [type, d.approval_id, d.status])).toEqual([
        ['approval.requested', firstId, 'pending'],
        // The approval applies the distribution in the decision's transaction, just before it.
        ['tokens.distributed', undefined, undefined],
        ['approval.decided', firstId, 'approved'],
        ['approval.requested', second, 'pending'],
        ['approval.decided', second, 'rejected'],
        ['approval.requested', third, 'pending'],
        ['approval.decided', third, 'expired'],
      ]);
      expect(events[0]![1]).toEqual({
        approval_id: firstId,
        kind: 'distribution',
        status: 'pending',
        company_code: company.code,
        total: 150,
        employees: 1,
        note: 'Bonus',
        requested_by: hr.user.username,
        requested_at: first.json().data.approval.created_at,
        expires_at: first.json().data.approval.expires_at,
        decided_by: null,
        decided_at: null,
        reason: null,
      });
      expect(events[2]![1]).toMatchObject({ decided_by: groupHr.user.username, reason: null });
      expect(events[4]![1]).toMatchObject({ decided_by: groupHr.user.username, reason: 'Not now' });
      expect(events[6]![1]).toMatchObject({ decided_by: null, decided_at: expect.any(String) });
      // The admin's endpoint hears every request, the top-up's too; another company's, nothing.
      const adminEvents = adminReceiver.received.map((r) => r.json);
      expect(
        adminEvents
          .filter((e) => e.data.kind === 'top_up')
          .map((e) => e.data.status)
          .sort(),
      ).toEqual(['expired', 'pending']);
      expect(adminEvents).toHaveLength(8);
      for (const received of adminReceiver.received) expect(checkBody(received)).toEqual([]);
    } finally {
      await adminReceiver.close();
      // Eight days on, the morning's session has expired.
      admin = await signedIn(t, 'admin');
      await as(admin).put('/api/v1/sys/approval-policy', {
        top_up_threshold: null,
        distribution_threshold: null,
      });
    }
  });

  it('announces each merchant’s closed settlement period once, with its statement’s figures', async () => {
    // The 10th of a month: the last closed period is the second half of the month before.
    const tenth = new Date(Date.UTC(2026, 4, 10, 4));
    t.clock.set(tenth);
    admin = await signedIn(t, 'admin');
    const company = await newCompany(t.app.deps);
    await issueToCompany(t.app.deps, null, { company_id: company.id, amount: 1_000 });
    const staff = await newEmployee(t.app.deps, company.id);
    await distributeToEmployees(t.app.deps, { kind: 'company', companyId: company.id }, null, {
      items: [{ employee_id: staff.id, amount: 500 }],
    });
    const terminal = await newTerminal(t.app.deps);
    // A merchant with nothing sold: its statement of zeros is announced too.
    const idle = await newTerminal(t.app.deps);
    const shopAdmin = await signedIn(t, 'merchant_admin', { merchantId: terminal.merchantId });
    const shopReceiver = await startReceiver('/shop');
    try {
      await endpointOf(admin, ['settlement.closed']);
      await endpointOf(shopAdmin, ['settlement.closed'], shopReceiver.url);
      // The first run ever announces the last closed period only, whatever came before.
      expect(await runSettlementClosings(t.app.deps)).toEqual(['2026-04-16']);
      const placed = await order(t.app.deps, terminal, company, staff, 40);
      await order(t.app.deps, terminal, company, staff, 25);
      await refund(t.app.deps, terminal, placed.id, 'item_removed', 5);
      expect(await runSettlementClosings(t.app.deps)).toEqual([]);

      // Just after the 15th ends: two instances' timers at once announce it once.
      t.clock.set(new Date(Date.UTC(2026, 4, 16, 0, 0, 30)));
      admin = await signedIn(t, 'admin');
      const runs = await Promise.all([
        runSettlementClosings(t.app.deps),
        runSettlementClosings(t.app.deps),
      ]);
      expect(runs.flat()).toEqual(['2026-05-01']);
      expect(await runSettlementClosings(t.app.deps)).toEqual([]);
      await deliverAll();

      const statement = await as(admin).get(
        `/api/v1/settlements/${terminal.merchantId}/2026-05-01`,
      );
      expect(statement.statusCode, statement.body).toBe(200);
      const head = statement.json().data.statement;
      const shop = shopReceiver.received.map((r) => r.json);
      const may = shop.filter((e) => e.data.period_start === '2026-05-01');
      expect(may).toHaveLength(1);
      expect(may[0]).toMatchObject({ type: 'settlement.closed', test: false });
      expect(may[0]!.data).toEqual({
        merchant_code: head.merchant_code,
        merchant_name: head.merchant_name,
        period_start: '2026-05-01',
        period_end: '2026-05-15',
        orders: 2,
        refunds: 1,
        purchased_tokens: 65,
        refunded_tokens: 5,
        net_tokens: 60,
        closed_at: '2026-05-16T00:00:00.000Z',
      });
      expect(may[0]!.data).toMatchObject({
        orders: head.orders,
        refunds: head.refunds,
        purchased_tokens: head.purchased_tokens,
        refunded_tokens: head.refunded_tokens,
        net_tokens: head.net_tokens,
      });
      // The merchant's endpoint hears its own merchant only; the admin's every merchant, zeros too.
      expect(shop.every((e) => e.data.merchant_code === head.merchant_code)).toBe(true);
      const all = receiver.received
        .map((r) => r.json)
        .filter((e) => e.data.period_start === '2026-05-01');
      const merchants = await queryRows<{ id: number; code: string }>(
        t.app.deps.database.db,
        sql`SELECT id::int AS id, code FROM merchants ORDER BY code`,
      );
      expect(all.map((e) => e.data.merchant_code).sort()).toEqual(
        merchants.map((m) => m.code).sort(),
      );
      const idleCode = merchants.find((m) => m.id === idle.merchantId)!.code;
      expect(all.find((e) => e.data.merchant_code === idleCode)!.data).toMatchObject({
        orders: 0,
        refunds: 0,
        purchased_tokens: 0,
        refunded_tokens: 0,
        net_tokens: 0,
      });
      for (const received of shopReceiver.received) expect(checkBody(received)).toEqual([]);
    } finally {
      await shopReceiver.close();
    }
  });
});
