import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Company, Employee, TokenTransaction } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { requestsAs, signIn } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import { newTerminal, order, refund, walletRows, type TestTerminal } from '../../../test/ledger';
import {
  auditRowsOf,
  newCompany,
  signedIn,
  STRONG_PASSWORD,
  uniqueName,
  type SignedInUser,
} from '../../../test/management';
import { runMonthlyResets } from '../jobs';
import { distributeToEmployees, issueToCompany } from '../tokens';

describe.each(await testDatabaseKinds())('employee self-service on %s', (kind) => {
  let t: TestApp;
  let acme: Company;
  let other: Company;
  let acmeAdmin: SignedInUser;
  let otherAdmin: SignedInUser;
  let terminal: TestTerminal;

  beforeAll(async () => {
    t = await createTestApp(kind);
    acme = await newCompany(t);
    other = await newCompany(t);
    acmeAdmin = await signedIn(t, 'company_admin', { companyId: acme.id });
    otherAdmin = await signedIn(t, 'company_admin', { companyId: other.id });
    terminal = await newTerminal(t.app.deps);
    await issueToCompany(t.app.deps, null, { company_id: acme.id, amount: 10_000 });
  });
  afterAll(() => t.close());

  const as = (who: SignedInUser) => requestsAs(t.app, who.session);

  let staff = 0;
  async function newEmployee(admin = acmeAdmin): Promise<Employee> {
    staff += 1;
    const res = await as(admin).post('/api/v1/employees', {
      employee_id: `S${String(staff).padStart(4, '0')}`,
      name: `Staff ${staff}`,
      status: 'active',
    });
    expect(res.statusCode).toBe(201);
    return res.json().data as Employee;
  }

  async function giveSignIn(employee: Employee, admin = acmeAdmin) {
    const { username } = uniqueName('emp');
    const res = await as(admin).post(`/api/v1/employees/${employee.id}/account`, {
      username,
      password: STRONG_PASSWORD,
    });
    return { res, username };
  }

  async function employeeSession(employee: Employee) {
    const { res, username } = await giveSignIn(employee);
    expect(res.statusCode).toBe(201);
    const session = await signIn(t.app, username, STRONG_PASSWORD);
    return requestsAs(t.app, session);
  }

  const fund = (employee: Employee, amount: number) =>
    distributeToEmployees(t.app.deps, { kind: 'company', companyId: acme.id }, null, {
      items: [{ employee_id: employee.id, amount }],
    });

  describe('POST /employees/{id}/account', () => {
    it('gives an employee one sign-in, audited, that signs in as company_employee', async () => {
      const employee = await newEmployee();
      const { res, username } = await giveSignIn(employee);
      expect(res.statusCode).toBe(201);
      const account = res.json().data;
      expect(account).toMatchObject({
        username,
        type: 'company_employee',
        status: 'active',
        company_id: acme.id,
        employee: employee.id,
        employee_id: employee.employee_id,
      });
      const session = await signIn(t.app, username, STRONG_PASSWORD);
      expect(session.user).toMatchObject({ type: 'company_employee', company_id: acme.id });

      const [audit] = await auditRowsOf(t, 'user', account.user_id);
      expect(audit).toMatchObject({
        action: 'create',
        actor_user_id: acmeAdmin.user.id,
        after: { username, employee_id: employee.employee_id },
      });
      expect(JSON.stringify(audit!.after)).not.toContain(STRONG_PASSWORD);

      const listed = await as(acmeAdmin).get(`/api/v1/employees/${employee.id}`);
      expect(listed.json().data.has_account).toBe(true);
      const fresh = await newEmployee();
      expect(fresh.has_account).toBe(false);
    });

    it('refuses a second sign-in for the same employee with 409 EMPLOYEE_ACCOUNT_EXISTS', async () => {
      const employee = await newEmployee();
      expect((await giveSignIn(employee)).res.statusCode).toBe(201);
      const again = (await giveSignIn(employee)).res;
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ code: 'EMPLOYEE_ACCOUNT_EXISTS' });
    });

    it('gives exactly one sign-in when two requests for one employee race', async () => {
      const employee = await newEmployee();
      const answers = await Promise.all([giveSignIn(employee), giveSignIn(employee)]);
      expect(answers.map((a) => a.res.statusCode).sort()).toEqual([201, 409]);
    });

    it('refuses a taken username (409 USERNAME_EXISTS) and a weak password (400)', async () => {
      const first = await newEmployee();
      const { username } = await giveSignIn(first);
      const second = await newEmployee();
      const taken = await as(acmeAdmin).post(`/api/v1/employees/${second.id}/account`, {
        username: username.toUpperCase(),
        password: STRONG_PASSWORD,
      });
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toMatchObject({ code: 'USERNAME_EXISTS' });
      const weak = await as(acmeAdmin).post(`/api/v1/employees/${second.id}/account`, {
        username: uniqueName('weak').username,
        password: 'short',
      });
      expect(weak.statusCode).toBe(400);
      expect(weak.json()).toMatchObject({ code: 'BODY_INVALID' });
      expect((await as(acmeAdmin).get(`/api/v1/employees/${second.id}`)).json().data).toMatchObject(
        { has_account: false },
      );
    });

    it('is the company admin’s, of its own company only (another company’s employee is 404)', async () => {
      const employee = await newEmployee();
      const body = { username: uniqueName('x').username, password: STRONG_PASSWORD };
      const url = `/api/v1/employees/${employee.id}/account`;
      const elsewhere = await as(otherAdmin).post(url, body);
      expect(elsewhere.statusCode).toBe(404);
      expect(elsewhere.json()).toMatchObject({ code: 'RECORD_NOT_FOUND' });
      for (const type of ['admin', 'super_hr'] as const) {
        const who = await signedIn(t, type);
        expect((await as(who).post(url, body)).statusCode, type).toBe(403);
      }
      const self = await employeeSession(await newEmployee());
      expect((await self.post(url, body)).statusCode).toBe(403);
      expect((await as(acmeAdmin).post('/api/v1/employees/999999/account', body)).statusCode).toBe(
        404,
      );
    });

    it('keeps the sign-in linked when the staff number changes, and ends it with the employee', async () => {
      const employee = await newEmployee();
      const { username } = await giveSignIn(employee);
      await fund(employee, 40);
      const renamed = await as(acmeAdmin).put(`/api/v1/employees/${employee.id}`, {
        employee_id: `R${employee.employee_id}`,
      });
      expect(renamed.statusCode).toBe(200);
      const me = requestsAs(t.app, await signIn(t.app, username, STRONG_PASSWORD));
      const wallet = await me.get('/api/v1/me/wallet');
      expect(wallet.json().data).toMatchObject({
        employee_id: `R${employee.employee_id}`,
        available_tokens: 40,
      });

      expect((await as(acmeAdmin).delete(`/api/v1/employees/${employee.id}`)).statusCode).toBe(200);
      expect((await me.get('/api/v1/me/wallet')).statusCode).toBe(401);
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/v1/iam/login',
        payload: { username, password: STRONG_PASSWORD },
      });
      expect(login.statusCode).toBe(401);
    });
  });

  describe('GET /me/wallet and the employee’s own transactions', () => {
    it('answers the balance, the month’s spending and what expires at the next reset, as the ledger has them', async () => {
      const employee = await newEmployee();
      const me = await employeeSession(employee);
      await fund(employee, 200);
      const meal = await order(t.app.deps, terminal, acme, employee, 80);
      await refund(t.app.deps, terminal, meal.id, 'item_removed', 5);
      await order(t.app.deps, terminal, acme, employee, 30);

      const res = await me.get('/api/v1/me/wallet');
      expect(res.statusCode).toBe(200);
      const wallet = res.json().data;
      const rows = await walletRows(t.db.database.db, acme.id, employee.id);
      const last = rows[rows.length - 1]!;
      expect(wallet.available_tokens).toBe(Number(last.balanceAfter));
      expect(wallet).toEqual({
        available_tokens: 200 - 80 + 5 - 30,
        token_month: '2026-01',
        next_reset_at: '2026-02-01T00:00:00.000Z',
        expiring_tokens: 200 - 80 + 5 - 30,
        spent_tokens: 80 - 5 + 30,
        company_code: acme.code,
        company_name: acme.name,
        employee_id: employee.employee_id,
        name: employee.name,
        // No spending rules on this company (DESIGN 7): nothing limits today, nothing declined.
        remaining_today: null,
        spending_rules: null,
        spending_exception: null,
        declines: [],
      });
    });

    it('is the employee’s only: other roles are refused', async () => {
      const res = await as(acmeAdmin).get('/api/v1/me/wallet');
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'PERMISSION_DENIED' });
    });

    it('lists only the employee’s own ledger rows, never another’s or the company’s', async () => {
      const mine = await newEmployee();
      const theirs = await newEmployee();
      const me = await employeeSession(mine);
      await fund(mine, 50);
      await fund(theirs, 70);
      await order(t.app.deps, terminal, acme, mine, 10);
      await order(t.app.deps, terminal, acme, theirs, 20);

      const own = await me.get('/api/v1/tokens/transactions?limit=100');
      expect(own.statusCode).toBe(200);
      const rows = own.json().data as TokenTransaction[];
      expect(rows.map((r) => [r.event, r.amount])).toEqual([
        ['order_purchased', 10],
        ['employee_issued', 50],
      ]);
      expect(rows.every((r) => r.employee_id === mine.id)).toBe(true);

      const asked = await me.get(`/api/v1/tokens/transactions?employee_id=${theirs.id}`);
      expect(asked.json().data).toEqual([]);
      const company = await me.get('/api/v1/tokens/transactions?scope=company');
      expect(company.statusCode).toBe(403);
      const otherCompany = await me.get(`/api/v1/dashboard?company_id=${other.id}`);
      expect(otherCompany.statusCode).toBe(404);
      expect((await me.get(`/api/v1/employees/${theirs.id}`)).statusCode).toBe(403);
      expect((await me.get('/api/v1/employees')).statusCode).toBe(403);
    });
  });

  // Last: the reset moves every company of this app into the next month.
  describe('on the reset-day boundary', () => {
    it('expires the whole balance at the reset and counts down to the next one', async () => {
      const employee = await newEmployee();
      const { username } = await giveSignIn(employee);
      await fund(employee, 60);

      t.clock.set('2026-01-31T23:59:59Z');
      let me = requestsAs(t.app, await signIn(t.app, username, STRONG_PASSWORD));
      expect((await me.get('/api/v1/me/wallet')).json().data).toMatchObject({
        token_month: '2026-01',
        next_reset_at: '2026-02-01T00:00:00.000Z',
        available_tokens: 60,
        expiring_tokens: 60,
      });

      t.clock.set('2026-02-01T00:00:00Z');
      await runMonthlyResets(t.app.deps);
      me = requestsAs(t.app, await signIn(t.app, username, STRONG_PASSWORD));
      expect((await me.get('/api/v1/me/wallet')).json().data).toMatchObject({
        token_month: '2026-02',
        next_reset_at: '2026-03-01T00:00:00.000Z',
        available_tokens: 0,
        expiring_tokens: 0,
        spent_tokens: 0,
      });
      const expired = (await me.get('/api/v1/tokens/transactions?event=employee_expired')).json()
        .data as TokenTransaction[];
      expect(expired.map((r) => r.amount)).toEqual([60]);
    });
  });
});
