import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Company, Employee } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { testDatabaseKinds } from '../../../test/databases';
import { assertLedgerInvariants } from '../../../test/invariants';
import { newCompany, newEmployee, newTerminal, type TestTerminal } from '../../../test/ledger';
import { queryRows } from '../../db/client';
import { getEmployee } from '../employees';
import { setMerchantStatus } from '../merchants';
import { rotateTerminalKey, setTerminalStatus } from '../terminals';
import { distributeToEmployees } from '../tokens';

const ALL = { kind: 'all' } as const;

describe.each(await testDatabaseKinds())('terminal API on %s', (kind) => {
  let t: TestApp;
  let company: Company;
  let employee: Employee;
  let terminal: TestTerminal;

  const orderBody = (unitTokens = 10) => ({
    company_code: company.code,
    employee_id: employee.employee_id,
    order_type: 'takeaway',
    items: [
      { name: 'Noodles', quantity: 2, unit_tokens: unitTokens },
      { name: 'Tea', quantity: 1, unit_tokens: 5 },
    ],
  });
  const post = (url: string, payload: unknown, key?: string, bearer = terminal.key) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: {
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        ...(key ? { 'idempotency-key': key } : {}),
      },
      payload: payload as object,
    });
  const ledgerRows = async () =>
    (
      await queryRows<{ n: number }>(
        t.app.deps.database.db,
        sql`SELECT count(*)::int AS n FROM token_transactions`,
      )
    )[0]!.n;
  const balance = async () => (await getEmployee(t.app.deps, ALL, employee.id)).available_tokens;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const deps = t.app.deps;
    company = await newCompany(deps, { initToken: 1000 });
    employee = await newEmployee(deps, company.id);
    terminal = await newTerminal(deps);
    await distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, {
      items: [{ employee_id: employee.id, amount: 500 }],
    });
  });
  afterEach(async () => {
    await assertLedgerInvariants(t.app.deps.database.db);
  });
  afterAll(() => t.close());

  it('places an order and answers 201 with the order and the balance left', async () => {
    const res = await post('/api/v1/orders', orderBody(), crypto.randomUUID());
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      status: 'ordered',
      subtotal: 25,
      refunded_amount: 0,
      available_tokens: 475,
      company_code: company.code,
      employee_id: employee.employee_id,
      order_type: 'takeaway',
      items: [
        { name: 'Noodles', quantity: 2, unit_tokens: 10 },
        { name: 'Tea', quantity: 1, unit_tokens: 5 },
      ],
    });
  });

  it('answers ten simultaneous identical requests with one key with one order and ten identical answers', async () => {
    const key = crypto.randomUUID();
    const rowsBefore = await ledgerRows();
    const before = await balance();
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => post('/api/v1/orders', orderBody(), key)),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    expect(new Set(responses.map((r) => r.body)).size).toBe(1);
    expect(await ledgerRows()).toBe(rowsBefore + 1);
    expect(await balance()).toBe(before - 25);
    const [{ n }] = (await queryRows<{ n: number }>(
      t.app.deps.database.db,
      sql`SELECT count(*)::int AS n FROM orders WHERE id = ${responses[0]!.json().data.id}`,
    )) as [{ n: number }];
    expect(n).toBe(1);
    // A later retry still gets the first answer, even after the balance moved.
    await post('/api/v1/orders', orderBody(1), crypto.randomUUID());
    const retry = await post('/api/v1/orders', orderBody(), key);
    expect(retry.statusCode).toBe(201);
    expect(retry.body).toBe(responses[0]!.body);
  });

  it('refunds under the same idempotency mechanism: ten identical refunds at once make one, and concurrent partial refunds never pass the subtotal', async () => {
    const placed = await post('/api/v1/orders', orderBody(), crypto.randomUUID());
    const orderId = placed.json().data.id as number;
    const refundUrl = `/api/v1/orders/${orderId}/refund`;
    const rowsBefore = await ledgerRows();
    const before = await balance();
    const key = crypto.randomUUID();
    const same = await Promise.all(
      Array.from({ length: 10 }, () => post(refundUrl, { reason: 'item_removed', amount: 4 }, key)),
    );
    expect(same.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(new Set(same.map((r) => r.body)).size).toBe(1);
    expect(same[0]!.json().data).toMatchObject({
      order: { id: orderId, status: 'ordered', refunded_amount: 4 },
      refund: { amount: 4, reason: 'item_removed', available_tokens: before + 4 },
    });
    expect(await ledgerRows()).toBe(rowsBefore + 1);
    // The same key with another body is refused, as for orders.
    const reused = await post(refundUrl, { reason: 'item_removed', amount: 5 }, key);
    expect(reused.statusCode).toBe(422);
    expect(reused.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
    // Eight partial refunds of 4 at once, each with its own key, against 21 left: five pass.
    const partial = await Promise.all(
      Array.from({ length: 8 }, () =>
        post(refundUrl, { reason: 'item_removed', amount: 4 }, crypto.randomUUID()),
      ),
    );
    const codes = partial.map((r) => (r.statusCode === 200 ? 200 : r.json().code)).sort();
    expect(codes).toEqual([
      200,
      200,
      200,
      200,
      200,
      'REFUND_EXCEEDS_SUBTOTAL',
      'REFUND_EXCEEDS_SUBTOTAL',
      'REFUND_EXCEEDS_SUBTOTAL',
    ]);
    expect(await balance()).toBe(before + 24);
    // A refused refund kept no answer: its key may be used for what is left.
    const refusedKey = crypto.randomUUID();
    const tooMuch = await post(refundUrl, { reason: 'item_removed', amount: 2 }, refusedKey);
    expect(tooMuch.json().code).toBe('REFUND_EXCEEDS_SUBTOTAL');
    const rest = await post(refundUrl, { reason: 'cancelled' }, refusedKey);
    expect(rest.statusCode).toBe(200);
    expect(rest.json().data.refund.amount).toBe(1);
    expect(rest.json().data.order).toMatchObject({ status: 'refunded', refunded_amount: 25 });
  });

  it('refuses the same key with a different body (422 IDEMPOTENCY_KEY_REUSED) and charges nothing', async () => {
    const key = crypto.randomUUID();
    expect((await post('/api/v1/orders', orderBody(), key)).statusCode).toBe(201);
    const rowsBefore = await ledgerRows();
    const before = await balance();
    const res = await post('/api/v1/orders', orderBody(11), key);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    // Same key on another path is another request too.
    const orderId = (await post('/api/v1/orders', orderBody(), key)).json().data.id;
    expect(
      (await post(`/api/v1/orders/${orderId}/refund`, { reason: 'cancelled' }, key)).statusCode,
    ).toBe(422);
    expect(await ledgerRows()).toBe(rowsBefore);
    expect(await balance()).toBe(before);
  });

  it('keeps no answer for a refusal: the same key may be retried once the balance allows', async () => {
    const key = crypto.randomUUID();
    const big = {
      ...orderBody(),
      items: [{ name: 'Feast', quantity: 1, unit_tokens: (await balance()) + 1 }],
    };
    const refused = await post('/api/v1/orders', big, key);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'INSUFFICIENT_TOKENS' });
    await distributeToEmployees(t.app.deps, { kind: 'company', companyId: company.id }, null, {
      items: [{ employee_id: employee.id, amount: 1 }],
    });
    expect((await post('/api/v1/orders', big, key)).statusCode).toBe(201);
    await distributeToEmployees(t.app.deps, { kind: 'company', companyId: company.id }, null, {
      items: [{ employee_id: employee.id, amount: 300 }],
    });
  });

  it('requires an Idempotency-Key and a valid body', async () => {
    const missing = await post('/api/v1/orders', orderBody());
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REQUIRED' });
    const long = await post('/api/v1/orders', orderBody(), 'k'.repeat(201));
    expect(long.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REQUIRED' });
    const unknown = await post('/api/v1/orders', { ...orderBody(), tip: 5 }, crypto.randomUUID());
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({
      code: 'BODY_INVALID',
      metadata: { tip: expect.any(String) },
    });
    const free = await post(
      '/api/v1/orders',
      { ...orderBody(), items: [{ name: 'Water', quantity: 1, unit_tokens: 0 }] },
      crypto.randomUUID(),
    );
    expect(free.json()).toMatchObject({ code: 'BODY_INVALID' });
  });

  it('refunds through the terminal: partial, idempotent, then the rest; every refusal with its code', async () => {
    const placed = (await post('/api/v1/orders', orderBody(), crypto.randomUUID())).json().data;
    const url = `/api/v1/orders/${placed.id}/refund`;
    const noAmount = await post(url, { reason: 'item_removed' }, crypto.randomUUID());
    expect(noAmount.json()).toMatchObject({
      code: 'BODY_INVALID',
      metadata: { amount: expect.any(String) },
    });
    const amountWithCancel = await post(
      url,
      { reason: 'cancelled', amount: 3 },
      crypto.randomUUID(),
    );
    expect(amountWithCancel.json()).toMatchObject({ code: 'BODY_INVALID' });

    const key = crypto.randomUUID();
    const first = await post(url, { reason: 'item_removed', amount: 10 }, key);
    const again = await post(url, { reason: 'item_removed', amount: 10 }, key);
    expect(first.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect(first.json().data.order).toMatchObject({ refunded_amount: 10, status: 'ordered' });

    const exceeds = await post(url, { reason: 'item_removed', amount: 16 }, crypto.randomUUID());
    expect(exceeds.statusCode).toBe(409);
    expect(exceeds.json()).toMatchObject({ code: 'REFUND_EXCEEDS_SUBTOTAL' });
    const rest = await post(url, { reason: 'rejected' }, crypto.randomUUID());
    expect(rest.json().data).toMatchObject({
      order: { status: 'refunded', refunded_amount: 25 },
      refund: { amount: 15 },
    });
    const done = await post(url, { reason: 'cancelled' }, crypto.randomUUID());
    expect(done.json()).toMatchObject({ code: 'ORDER_ALREADY_REFUNDED' });
    const missing = await post(
      '/api/v1/orders/999999/refund',
      { reason: 'cancelled' },
      crypto.randomUUID(),
    );
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'ORDER_NOT_FOUND' });
  });

  it('refuses an unknown payee, an inactive employee and an inactive company', async () => {
    const unknown = await post(
      '/api/v1/orders',
      { ...orderBody(), employee_id: 'NOBODY' },
      crypto.randomUUID(),
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'NO_PAYEE_FOUND' });
    const idle = await newEmployee(t.app.deps, company.id, { status: 'inactive' });
    const inactive = await post(
      '/api/v1/orders',
      { ...orderBody(), employee_id: idle.employee_id },
      crypto.randomUUID(),
    );
    expect(inactive.statusCode).toBe(403);
    expect(inactive.json()).toMatchObject({ code: 'USER_INACTIVE' });
    const closed = await newCompany(t.app.deps, { status: 'inactive' });
    const res = await post(
      '/api/v1/orders',
      { ...orderBody(), company_code: closed.code },
      crypto.randomUUID(),
    );
    expect(res.json()).toMatchObject({ code: 'COMPANY_INACTIVE' });
  });

  it('authenticates terminals by key only: missing, unknown, rotated, inactive terminal or merchant', async () => {
    const other = await newTerminal(t.app.deps);
    const body = orderBody();
    const noKey = await post('/api/v1/orders', body, crypto.randomUUID(), '');
    expect(noKey.statusCode).toBe(401);
    expect(noKey.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(
      (await post('/api/v1/orders', body, crypto.randomUUID(), `${other.key}x`)).statusCode,
    ).toBe(401);

    const rotated = await rotateTerminalKey(t.app.deps, other.identity.id);
    expect(rotated.api_key).not.toBe(other.key);
    expect((await post('/api/v1/orders', body, crypto.randomUUID(), other.key)).statusCode).toBe(
      401,
    );
    expect(
      (await post('/api/v1/orders', body, crypto.randomUUID(), rotated.api_key)).statusCode,
    ).toBe(201);

    await setTerminalStatus(t.app.deps, other.identity.id, 'inactive');
    const off = await post('/api/v1/orders', body, crypto.randomUUID(), rotated.api_key);
    expect(off.statusCode).toBe(403);
    expect(off.json()).toMatchObject({ code: 'TERMINAL_INACTIVE' });
    await setTerminalStatus(t.app.deps, other.identity.id, 'active');
    await setMerchantStatus(t.app.deps, other.merchantId, 'inactive');
    const closed = await post('/api/v1/orders', body, crypto.randomUUID(), rotated.api_key);
    expect(closed.statusCode).toBe(403);
    expect(closed.json()).toMatchObject({ code: 'MERCHANT_INACTIVE' });
  });

  it('lets a terminal refund only its own merchant’s orders', async () => {
    const stranger = await newTerminal(t.app.deps);
    const placed = (await post('/api/v1/orders', orderBody(), crypto.randomUUID())).json().data;
    const res = await post(
      `/api/v1/orders/${placed.id}/refund`,
      { reason: 'cancelled' },
      crypto.randomUUID(),
      stranger.key,
    );
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'ORDER_NOT_FOUND' });
  });

  it('stores only a hash of each key', async () => {
    const rows = await queryRows<{ api_key_hash: string; api_key_prefix: string }>(
      t.app.deps.database.db,
      sql`SELECT api_key_hash, api_key_prefix FROM terminals WHERE id = ${terminal.identity.id}`,
    );
    expect(rows[0]!.api_key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.api_key_hash).not.toContain(terminal.key);
    expect(terminal.key.startsWith(rows[0]!.api_key_prefix)).toBe(true);
  });
});
