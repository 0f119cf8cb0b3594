// Spending rules' management (DESIGN 7, issue 42): versions effective from today or later, the
// same date replacing, scheduled ones withdrawn and the past kept; exceptions, holidays, the
// declines in scope and the wallet's view; scope and audit on both databases.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VALIDATION_MESSAGES, type Company, type Employee } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { injectAs, type TestSession } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import { newEmployee, newTerminal, type TestTerminal } from '../../../test/ledger';
import { auditRowsOf, newCompany, signedIn } from '../../../test/management';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client';
import { distributeToEmployees } from '../tokens';

const RULES = {
  daily_limit: 25,
  order_limit: null,
  weekdays: [1, 2, 3, 4, 5],
  hours: [{ from: '11:00', to: '14:30' }],
  closed_on_holidays: true,
  merchant_categories: ['restaurant', 'canteen'],
  partial_payment: false,
};

describe.each(await testDatabaseKinds())('spending rules management on %s', (kind) => {
  let t: TestApp;
  let company: Company;
  let other: Company;
  let employee: Employee;
  let admin: TestSession;
  let companyAdmin: TestSession;
  let otherAdmin: TestSession;
  let merchantAdmin: TestSession;
  let worker: TestSession;
  let terminal: TestTerminal;
  const as = (
    session: TestSession,
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    url: string,
    payload?: object,
  ) => injectAs(t.app, session, { method, url, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    // A Thursday, 12:00 UTC.
    t = await createTestApp(kind);
    t.clock.set('2026-01-15T12:00:00Z');
    company = await newCompany(t, null, 1000);
    other = await newCompany(t, null, 1000);
    employee = await newEmployee(t.app.deps, company.id);
    await distributeToEmployees(t.app.deps, { kind: 'company', companyId: company.id }, null, {
      items: [{ employee_id: employee.id, amount: 100 }],
    });
    terminal = await newTerminal(t.app.deps);
    admin = (await signedIn(t, 'admin')).session;
    companyAdmin = (await signedIn(t, 'company_admin', { companyId: company.id })).session;
    otherAdmin = (await signedIn(t, 'company_admin', { companyId: other.id })).session;
    merchantAdmin = (await signedIn(t, 'merchant_admin', { merchantId: terminal.merchantId }))
      .session;
    worker = (
      await signedIn(t, 'company_employee', {
        companyId: company.id,
        employeeId: employee.employee_id,
      })
    ).session;
  });
  afterAll(() => t.close());

  it('adds versions from today on, replaces the same date, withdraws only scheduled ones, audited', async () => {
    const url = `/api/v1/companies/${company.id}/spending-rules`;
    const yesterday = await as(companyAdmin, 'PUT', url, {
      ...RULES,
      effective_from: '2026-01-14',
    });
    expect(yesterday.statusCode).toBe(400);
    expect(yesterday.json().metadata).toEqual({
      effective_from: VALIDATION_MESSAGES['v.effective_from_past'].en,
    });

    const today = await as(companyAdmin, 'PUT', url, { ...RULES, effective_from: '2026-01-15' });
    expect(today.statusCode).toBe(200);
    expect(today.json().data.current).toMatchObject({ ...RULES, effective_from: '2026-01-15' });

    await as(companyAdmin, 'PUT', url, { ...RULES, daily_limit: 40, effective_from: '2026-02-01' });
    const replaced = await as(admin, 'PUT', url, { daily_limit: 30, effective_from: '2026-02-01' });
    expect(replaced.json().data.scheduled).toEqual([
      expect.objectContaining({ effective_from: '2026-02-01', daily_limit: 30, weekdays: null }),
    ]);

    // The one in force cannot be withdrawn, nor an unknown date; the scheduled one can.
    expect((await as(companyAdmin, 'DELETE', `${url}/2026-01-15`)).json().code).toBe(
      'SPENDING_RULE_NOT_FOUND',
    );
    expect((await as(companyAdmin, 'DELETE', `${url}/2026-03-01`)).statusCode).toBe(404);
    expect((await as(companyAdmin, 'DELETE', `${url}/2026-02-01`)).statusCode).toBe(200);
    const view = (await as(companyAdmin, 'GET', url)).json().data;
    expect(view.scheduled).toEqual([]);
    expect(view.current.effective_from).toBe('2026-01-15');

    // An earlier version (written before this test's day) is history.
    await queryRows(
      t.app.deps.database.db,
      sql`INSERT INTO spending_rule_versions (company_id, effective_from, daily_limit, created_at)
          VALUES (${company.id}, '2026-01-01', 50, now())`,
    );
    const later = (await as(companyAdmin, 'GET', url)).json().data;
    expect(later.current.daily_limit).toBe(25);
    expect(later.history).toEqual([
      expect.objectContaining({ effective_from: '2026-01-01', daily_limit: 50 }),
    ]);

    const audit = await auditRowsOf(t, 'company', company.id);
    expect(audit.map((r) => r.action).filter((a) => a.startsWith('spending'))).toEqual([
      'spending_rules_set',
      'spending_rules_set',
      'spending_rules_set',
      'spending_rules_withdraw',
    ]);
  });

  it('keeps each company to its own admins and refuses the merchant roles', async () => {
    const url = `/api/v1/companies/${company.id}/spending-rules`;
    expect((await as(otherAdmin, 'GET', url)).statusCode).toBe(404);
    expect((await as(otherAdmin, 'PUT', url, { effective_from: '2026-02-01' })).statusCode).toBe(
      404,
    );
    expect((await as(merchantAdmin, 'GET', url)).statusCode).toBe(403);
    expect((await as(worker, 'GET', url)).statusCode).toBe(403);
    const bad = await as(companyAdmin, 'PUT', url, {
      effective_from: '2026-02-01',
      hours: [{ from: '14:00', to: '11:00' }],
      weekdays: [8],
    });
    expect(bad.statusCode).toBe(400);
  });

  it('previews a candidate over the last 30 days, writing nothing', async () => {
    const url = `/api/v1/companies/${company.id}/spending-rules`;
    const before = (await as(companyAdmin, 'GET', url)).json().data;
    const preview = await as(companyAdmin, 'POST', `${url}/preview`, { rules: { order_limit: 5 } });
    expect(preview.statusCode).toBe(200);
    expect(preview.json().data).toMatchObject({
      declined: expect.any(Object),
      employees_affected: 0,
    });
    expect((await as(companyAdmin, 'GET', url)).json().data).toEqual(before);
  });

  it('sets, reads and removes an employee exception in scope, audited', async () => {
    const url = `/api/v1/employees/${employee.id}/spending-exception`;
    expect((await as(companyAdmin, 'GET', url)).json().data).toBeNull();
    const set = await as(companyAdmin, 'PUT', url, {
      weekdays: [1, 2, 3, 4, 5, 6, 7],
      until: '2026-03-31',
    });
    expect(set.statusCode).toBe(200);
    expect(set.json().data).toMatchObject({ weekdays: [1, 2, 3, 4, 5, 6, 7], until: '2026-03-31' });
    expect((await as(otherAdmin, 'GET', url)).statusCode).toBe(404);
    expect((await as(otherAdmin, 'DELETE', url)).statusCode).toBe(404);
    expect((await as(companyAdmin, 'DELETE', url)).statusCode).toBe(200);
    expect((await as(companyAdmin, 'DELETE', url)).statusCode).toBe(404);
    const audit = await auditRowsOf(t, 'employee', employee.id);
    expect(audit.map((r) => r.action).filter((a) => a.startsWith('spending'))).toEqual([
      'spending_exception_set',
      'spending_exception_remove',
    ]);
  });

  it('replaces a year of holidays (admin only) and reads it back', async () => {
    const days = [
      { date: '2026-05-01', name: 'Labour Day' },
      { date: '2026-01-01', name: "New Year's Day" },
    ];
    expect(
      (await as(companyAdmin, 'PUT', '/api/v1/sys/holidays', { year: 2026, days })).statusCode,
    ).toBe(403);
    const put = await as(admin, 'PUT', '/api/v1/sys/holidays', { year: 2026, days });
    expect(put.json().data.days.map((d: { date: string }) => d.date)).toEqual([
      '2026-01-01',
      '2026-05-01',
    ]);
    await as(admin, 'PUT', '/api/v1/sys/holidays', { year: 2026, days: [days[0]] });
    const got = await as(companyAdmin, 'GET', '/api/v1/sys/holidays?year=2026');
    expect(got.json().data).toEqual({
      year: 2026,
      days: [{ date: '2026-05-01', name: 'Labour Day' }],
    });
    const wrongYear = await as(admin, 'PUT', '/api/v1/sys/holidays', {
      year: 2026,
      days: [{ date: '2027-01-01', name: 'x' }],
    });
    expect(wrongYear.statusCode).toBe(400);
  });

  it('lists declines in scope, and shows the employee its own in its wallet with what it may still spend', async () => {
    // The version of the first test is in force: 25 a day, Monday to Friday, 11:00–14:30, restaurants.
    await as(admin, 'PUT', `/api/v1/merchants/${terminal.merchantId}`, {
      name: 'Shop',
      status: 'active',
      category: 'restaurant',
    });
    const orderOf = (tokens: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/orders',
        headers: {
          authorization: `Bearer ${terminal.key}`,
          'idempotency-key': crypto.randomUUID(),
        },
        payload: {
          company_code: company.code,
          employee_id: employee.employee_id,
          order_type: 'dine_in',
          items: [{ name: 'Lunch', quantity: 1, unit_tokens: tokens }],
        },
      });
    expect((await orderOf(12)).statusCode).toBe(201);
    const second = await orderOf(20);
    expect(second.json().code, second.body).toBe('DAILY_LIMIT_EXCEEDED');

    const mine = (await as(companyAdmin, 'GET', '/api/v1/orders/declines')).json();
    expect(mine.total).toBeGreaterThanOrEqual(1);
    expect(mine.data[0]).toMatchObject({
      code: 'DAILY_LIMIT_EXCEEDED',
      subtotal: 20,
      employee_id: employee.id,
      staff_number: employee.employee_id,
      details: { daily_limit: 25, remaining_today: 13 },
    });
    expect((await as(otherAdmin, 'GET', '/api/v1/orders/declines')).json().total).toBe(0);
    expect((await as(merchantAdmin, 'GET', '/api/v1/orders/declines')).json().total).toBe(
      mine.total,
    );
    expect(
      (await as(companyAdmin, 'GET', '/api/v1/orders/declines?code=MERCHANT_NOT_ALLOWED')).json()
        .total,
    ).toBe(0);

    const wallet = (await as(worker, 'GET', '/api/v1/me/wallet')).json().data;
    expect(wallet).toMatchObject({
      remaining_today: 13,
      spending_rules: { daily_limit: 25, weekdays: [1, 2, 3, 4, 5] },
      declines: [expect.objectContaining({ code: 'DAILY_LIMIT_EXCEEDED', subtotal: 20 })],
    });
    expect((await as(worker, 'GET', '/api/v1/orders/declines')).json().total).toBe(
      wallet.declines.length,
    );
  });
});
