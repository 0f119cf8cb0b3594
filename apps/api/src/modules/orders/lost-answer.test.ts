// A till can find a lost answer (DESIGN 8): its own orders by id and by the Idempotency-Key it
// placed them with; another terminal's order is not found.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app';
import { testDatabaseKinds } from '../../../test/databases';
import { newCompany, newEmployee, newTerminal, type TestTerminal } from '../../../test/ledger';
import { distributeToEmployees } from '../tokens';

describe.each(await testDatabaseKinds())('a till finds a lost answer on %s', (kind) => {
  let t: TestApp;
  let till: TestTerminal;
  let other: TestTerminal;
  const get = (url: string, key: string) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });

  beforeAll(async () => {
    t = await createTestApp(kind);
    till = await newTerminal(t.app.deps);
    other = await newTerminal(t.app.deps, till.merchantId);
  });
  afterAll(() => t.close());

  it('answers its own order by id and by key, and 404 for another terminal or an unknown key', async () => {
    const deps = t.app.deps;
    const company = await newCompany(deps, { initToken: 100 });
    const employee = await newEmployee(deps, company.id);
    await distributeToEmployees(deps, { kind: 'company', companyId: company.id }, null, {
      items: [{ employee_id: employee.id, amount: 50 }],
    });
    const key = crypto.randomUUID();
    const placed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/orders',
      headers: { authorization: `Bearer ${till.key}`, 'idempotency-key': key },
      payload: {
        company_code: company.code,
        employee_id: employee.employee_id,
        order_type: 'dine_in',
        items: [{ name: 'Soup', quantity: 1, unit_tokens: 12 }],
      },
    });
    expect(placed.statusCode).toBe(201);
    const { available_tokens: _balance, ...order } = placed.json().data;

    const byKey = await get(`/api/v1/orders?idempotency_key=${key}`, till.key);
    expect(byKey.statusCode).toBe(200);
    expect(byKey.json().data).toEqual(order);
    const byId = await get(`/api/v1/orders/${order.id}`, till.key);
    expect(byId.json().data).toEqual(order);

    expect((await get(`/api/v1/orders/${order.id}`, other.key)).json().code).toBe(
      'ORDER_NOT_FOUND',
    );
    expect((await get(`/api/v1/orders?idempotency_key=${key}`, other.key)).statusCode).toBe(404);
    expect(
      (await get(`/api/v1/orders?idempotency_key=${crypto.randomUUID()}`, till.key)).statusCode,
    ).toBe(404);
    expect((await get(`/api/v1/orders/${order.id}`, 'not-a-key')).statusCode).toBe(401);
  });
});
