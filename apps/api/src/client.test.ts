// The typed client (packages/client) against a real server on a real port, as an integrator uses
// it: the README's terminal integration (an order with an Idempotency-Key, its retry, a partial
// refund) and an administrator signed in by the same client.
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, signIn } from '@app/client';
import type { Company, Employee } from '@app/contract';
import { createTestApp, type TestApp } from '../test/app';
import { createUser } from '../test/auth';
import { testDatabaseKinds } from '../test/databases';
import { assertLedgerInvariants } from '../test/invariants';
import { newCompany, newEmployee, newTerminal, type TestTerminal } from '../test/ledger';
import { distributeToEmployees } from './modules/tokens';

describe.each(await testDatabaseKinds())('the typed client on %s', (kind) => {
  let t: TestApp;
  let baseUrl: string;
  let company: Company;
  let employee: Employee;
  let terminal: TestTerminal;

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const deps = t.app.deps;
    company = await newCompany(deps, { initToken: 1000 });
    employee = await newEmployee(deps, company.id);
    terminal = await newTerminal(deps);
    await distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, {
      items: [{ employee_id: employee.id, amount: 200 }],
    });
  });
  afterAll(async () => {
    await assertLedgerInvariants(t.app.deps.database.db);
    await t.close();
  });

  it('places an order once for a key sent twice, then refunds part of it', async () => {
    // The README's example, as written there.
    const till = createApiClient({ baseUrl, terminalKey: terminal.key });
    const key = crypto.randomUUID();
    const order = {
      company_code: company.code,
      employee_id: employee.employee_id,
      order_type: 'dine_in',
      items: [
        { name: 'Chicken rice', quantity: 1, unit_tokens: 45 },
        { name: 'Iced tea', quantity: 2, unit_tokens: 10 },
      ],
    };
    const placed = await till.POST('/api/v1/orders', {
      params: { header: { 'idempotency-key': key } },
      body: order,
    });
    expect(placed.response.status).toBe(201);
    expect(placed.data?.data).toMatchObject({ subtotal: 65, available_tokens: 135 });

    const retried = await till.POST('/api/v1/orders', {
      params: { header: { 'idempotency-key': key } },
      body: order,
    });
    expect(retried.data).toEqual(placed.data);

    const refunded = await till.POST('/api/v1/orders/{id}/refund', {
      params: { path: { id: placed.data!.data.id }, header: { 'idempotency-key': `${key}-tea` } },
      body: { reason: 'item_removed', amount: 10 },
    });
    expect(refunded.response.status).toBe(200);
    expect(refunded.data?.data.order).toMatchObject({ refunded_amount: 10, status: 'ordered' });
  });

  it('answers a refusal as the typed error envelope', async () => {
    const till = createApiClient({ baseUrl, terminalKey: terminal.key });
    const { data, error, response } = await till.POST('/api/v1/orders', {
      params: { header: { 'idempotency-key': crypto.randomUUID() } },
      body: {
        company_code: company.code,
        employee_id: employee.employee_id,
        order_type: 'dine_in',
        items: [{ name: 'Banquet', quantity: 1, unit_tokens: 100_000 }],
      },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(409);
    expect(error?.code).toBe('INSUFFICIENT_TOKENS');
  });

  it('signs an administrator in and reads and writes with its session', async () => {
    const admin = await createUser(t.db.database.db, { type: 'admin' });
    const { client } = await signIn(baseUrl, admin.username, admin.password);
    const read = await client.GET('/api/v1/companies/{id}', {
      params: { path: { id: company.id } },
    });
    expect(read.data?.data).toMatchObject({ id: company.id, code: company.code });
    // A write carries the CSRF token the sign-in gave.
    const status = await client.PATCH('/api/v1/companies/{id}/status', {
      params: { path: { id: company.id } },
      body: { status: 'active' },
    });
    expect(status.response.status).toBe(200);
    await expect(signIn(baseUrl, admin.username, 'wrong password')).rejects.toThrow(/401/);
  });
});
