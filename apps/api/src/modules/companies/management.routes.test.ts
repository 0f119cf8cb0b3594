// The management endpoints the ledger needs: companies, employees, merchants and terminals.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app';
import { createUser, injectAs, signIn, type TestSession } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import { assertLedgerInvariants } from '../../../test/invariants';

describe.each(await testDatabaseKinds())(
  'companies, employees, merchants, terminals on %s',
  (kind) => {
    let t: TestApp;
    let admin: TestSession;
    let hr: TestSession;
    let acmeAdmin: TestSession;
    let acmeId: number;
    let otherId: number;

    const as = (
      session: TestSession,
      method: 'GET' | 'POST' | 'PUT' | 'PATCH',
      url: string,
      payload?: object,
    ) => injectAs(t.app, session, { method, url, ...(payload ? { payload } : {}) });

    beforeAll(async () => {
      t = await createTestApp(kind);
      const db = t.app.deps.database.db;
      const a = await createUser(db, { type: 'admin' });
      admin = await signIn(t.app, a.username, a.password);
      const h = await createUser(db, { type: 'super_hr' });
      hr = await signIn(t.app, h.username, h.password);
      const acme = await as(admin, 'POST', '/api/v1/companies', {
        code: 'ACME',
        name: 'Acme Ltd',
        status: 'active',
        monthly_reset_day: 1,
        init_token: 1000,
      });
      expect(acme.statusCode).toBe(201);
      acmeId = acme.json().data.id;
      otherId = (
        await as(hr, 'POST', '/api/v1/companies', {
          code: 'OTHER',
          name: 'Other Co',
          monthly_reset_day: 15,
          init_token: 0,
        })
      ).json().data.id;
      const ca = await createUser(db, { type: 'company_admin', companyId: acmeId });
      acmeAdmin = await signIn(t.app, ca.username, ca.password);
    });
    afterEach(async () => {
      await assertLedgerInvariants(t.app.deps.database.db);
    });
    afterAll(() => t.close());

    it('creates a company with its wallet and first token month', async () => {
      const res = await as(admin, 'GET', `/api/v1/companies/${acmeId}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        code: 'ACME',
        name: 'Acme Ltd',
        status: 'active',
        monthly_reset_day: 1,
        init_token: 1000,
        init_token_next_month: null,
        token_balance: 1000,
        token_month: '2026-01',
        next_reset_at: '2026-02-01T00:00:00.000Z',
      });
    });

    it('refuses a duplicate company code (any case), bad fields and unknown fields', async () => {
      const dup = await as(admin, 'POST', '/api/v1/companies', {
        code: 'acme',
        name: 'Again',
        monthly_reset_day: 1,
        init_token: 0,
      });
      expect(dup.statusCode).toBe(409);
      expect(dup.json()).toMatchObject({ code: 'COMPANY_CODE_ALREADY_EXISTS' });
      const bad = await as(admin, 'POST', '/api/v1/companies', {
        code: 'A-1',
        name: '',
        monthly_reset_day: 32,
        init_token: -1,
        colour: 'red',
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ code: 'BODY_INVALID' });
      expect(Object.keys(bad.json().metadata).sort()).toEqual(
        ['code', 'colour', 'init_token', 'monthly_reset_day', 'name'].sort(),
      );
    });

    it('shows a company admin its own company only: another is 404, the list holds one', async () => {
      expect((await as(acmeAdmin, 'GET', `/api/v1/companies/${acmeId}`)).statusCode).toBe(200);
      const other = await as(acmeAdmin, 'GET', `/api/v1/companies/${otherId}`);
      expect(other.statusCode).toBe(404);
      expect(other.json()).toMatchObject({ code: 'RECORD_NOT_FOUND' });
      const list = await as(acmeAdmin, 'GET', '/api/v1/companies?page_size=50');
      expect(list.json()).toMatchObject({ total: 1, data: [{ id: acmeId }] });
      expect((await as(admin, 'GET', '/api/v1/companies')).json().total).toBe(2);
      expect((await as(acmeAdmin, 'POST', '/api/v1/companies', {})).statusCode).toBe(403);
      expect((await t.app.inject({ url: '/api/v1/companies' })).statusCode).toBe(401);
    });

    it('changes a company’s status', async () => {
      const res = await as(hr, 'PATCH', `/api/v1/companies/${otherId}/status`, {
        status: 'inactive',
      });
      expect(res.json().data).toMatchObject({ id: otherId, status: 'inactive' });
      expect((await as(admin, 'GET', '/api/v1/companies?status=inactive')).json().total).toBe(1);
      await as(hr, 'PATCH', `/api/v1/companies/${otherId}/status`, { status: 'active' });
      expect(
        (await as(admin, 'PATCH', '/api/v1/companies/99999/status', { status: 'active' }))
          .statusCode,
      ).toBe(404);
    });

    it('adds employees to the company admin’s own company, in its current token month', async () => {
      const res = await as(acmeAdmin, 'POST', '/api/v1/employees', {
        employee_id: 'E0001',
        name: 'Ada',
        email: 'ada@acme.example',
        status: 'active',
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().data).toMatchObject({
        company_id: acmeId,
        employee_id: 'E0001',
        name: 'Ada',
        email: 'ada@acme.example',
        status: 'active',
        available_tokens: 0,
        consumed_tokens: 0,
        issued_tokens: 0,
        token_month: '2026-01',
        monthly_tokens: null,
      });
      const dup = await as(acmeAdmin, 'POST', '/api/v1/employees', {
        employee_id: 'E0001',
        status: 'active',
      });
      expect(dup.statusCode).toBe(409);
      expect(dup.json()).toMatchObject({ code: 'EMPLOYEE_ID_EXISTING_IN_THIS_COMPANY' });
      const email = await as(acmeAdmin, 'POST', '/api/v1/employees', {
        employee_id: 'E0002',
        email: 'ADA@acme.example',
        status: 'active',
      });
      expect(email.json()).toMatchObject({ code: 'EMAIL_EXISTING_IN_THIS_COMPANY' });
      const elsewhere = await as(acmeAdmin, 'POST', '/api/v1/employees', {
        company_id: otherId,
        employee_id: 'E0009',
        status: 'active',
      });
      expect(elsewhere.statusCode).toBe(404);
      // Only company admins write employees (DESIGN 4); admin and HR read them.
      expect(
        (await as(admin, 'POST', '/api/v1/employees', { employee_id: 'E7', status: 'active' }))
          .statusCode,
      ).toBe(403);
    });

    it('reads employees within scope, changes their status, renews', async () => {
      const created = (
        await as(acmeAdmin, 'POST', '/api/v1/employees', { employee_id: 'E0003', status: 'active' })
      ).json().data;
      expect(
        (await as(acmeAdmin, 'GET', `/api/v1/employees/${created.id}`)).json().data.employee_id,
      ).toBe('E0003');
      const list = await as(acmeAdmin, 'GET', '/api/v1/employees?status=active');
      expect(list.json().data.every((e: { company_id: number }) => e.company_id === acmeId)).toBe(
        true,
      );
      expect((await as(hr, 'GET', `/api/v1/employees?company_id=${otherId}`)).json()).toMatchObject(
        { total: 0 },
      );
      expect(
        (await as(hr, 'GET', `/api/v1/employees?company_id=${acmeId}`)).json().total,
      ).toBeGreaterThan(0);
      // A page past the end is empty but still counts them all.
      expect((await as(acmeAdmin, 'GET', '/api/v1/employees?page=99')).json()).toEqual({
        data: [],
        total: 2,
      });

      const otherAdmin = await createUser(t.app.deps.database.db, {
        type: 'company_admin',
        companyId: otherId,
      });
      const other = await signIn(t.app, otherAdmin.username, otherAdmin.password);
      expect((await as(other, 'GET', `/api/v1/employees/${created.id}`)).statusCode).toBe(404);
      expect(
        (await as(other, 'PATCH', `/api/v1/employees/${created.id}/status`, { status: 'inactive' }))
          .statusCode,
      ).toBe(404);

      const off = await as(acmeAdmin, 'PATCH', `/api/v1/employees/${created.id}/status`, {
        status: 'inactive',
      });
      expect(off.json().data.status).toBe('inactive');
      const renew = await as(acmeAdmin, 'POST', `/api/v1/employees/${created.id}/renew`);
      expect(renew.json()).toMatchObject({ code: 'USER_INACTIVE' });
    });

    it('creates merchants and terminals; a terminal’s key is shown on creation and rotation only', async () => {
      const merchant = await as(admin, 'POST', '/api/v1/merchants', {
        code: 'SHOP',
        name: 'Shop',
        status: 'active',
      });
      expect(merchant.statusCode).toBe(201);
      const merchantId = merchant.json().data.id;
      const dup = await as(admin, 'POST', '/api/v1/merchants', { code: 'shop', name: 'Shop 2' });
      expect(dup.json()).toMatchObject({ code: 'MERCHANT_CODE_ALREADY_EXISTS' });

      const created = await as(admin, 'POST', '/api/v1/terminals', {
        merchant_id: merchantId,
        code: 'TILL1',
        name: 'Till 1',
        status: 'active',
      });
      expect(created.statusCode).toBe(201);
      const terminal = created.json().data;
      expect(terminal.api_key).toMatch(/^tk_[A-Za-z0-9_-]{43}$/);
      expect(terminal.api_key.startsWith(terminal.api_key_prefix)).toBe(true);
      const again = await as(admin, 'POST', '/api/v1/terminals', {
        merchant_id: merchantId,
        code: 'till1',
        name: 'x',
      });
      expect(again.json()).toMatchObject({ code: 'TERMINAL_CODE_ALREADY_EXISTS' });
      // The same code under another merchant is fine.
      const m2 = (
        await as(admin, 'POST', '/api/v1/merchants', { code: 'CAFE', name: 'Cafe' })
      ).json().data.id;
      expect(
        (
          await as(admin, 'POST', '/api/v1/terminals', {
            merchant_id: m2,
            code: 'TILL1',
            name: 'x',
          })
        ).statusCode,
      ).toBe(201);
      expect(
        (
          await as(admin, 'POST', '/api/v1/terminals', {
            merchant_id: 9999,
            code: 'TILL9',
            name: 'x',
          })
        ).statusCode,
      ).toBe(404);

      const read = await as(admin, 'GET', `/api/v1/terminals/${terminal.id}`);
      expect(read.json().data).not.toHaveProperty('api_key');
      expect(
        (await as(admin, 'GET', `/api/v1/terminals?merchant_id=${merchantId}`)).json().total,
      ).toBe(1);
      const rotated = await as(admin, 'POST', `/api/v1/terminals/${terminal.id}/rotate-key`);
      expect(rotated.json().data.api_key).not.toBe(terminal.api_key);
      const status = await as(admin, 'PATCH', `/api/v1/terminals/${terminal.id}/status`, {
        status: 'inactive',
      });
      expect(status.json().data.status).toBe('inactive');
      expect(
        (await as(admin, 'PATCH', `/api/v1/merchants/${m2}/status`, { status: 'inactive' })).json()
          .data.status,
      ).toBe('inactive');
      expect((await as(acmeAdmin, 'GET', '/api/v1/terminals')).statusCode).toBe(403);
      expect((await as(admin, 'GET', '/api/v1/merchants')).json().total).toBe(2);
    });
  },
);
