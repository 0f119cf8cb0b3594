import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managedUserSchema, type Role } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { createUser, injectAs, requestsAs, signIn, type TestSession } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import {
  auditRowsOf,
  newCompany,
  newMerchant,
  oneOfEachRole,
  signedIn,
  STRONG_PASSWORD,
  uniqueName,
  type SignedInUser,
} from '../../../test/management';
import { queryRows } from '../../db/client';

describe.each(await testDatabaseKinds())('user management on %s', (kind) => {
  let t: TestApp;
  let admin: SignedInUser;
  let merchantId: number;
  let companyId: number;

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signedIn(t, 'admin');
    merchantId = (await newMerchant(t)).id;
    companyId = (await newCompany(t)).id;
  });
  afterAll(() => t.close());

  const db = () => t.db.database.db;
  const as = (session: Pick<TestSession, 'cookie' | 'xsrf'>) => requestsAs(t.app, session);
  const asAdmin = () => as(admin.session);
  const selfInfo = (session: TestSession) =>
    injectAs(t.app, session, { url: '/api/v1/iam/self-info' });
  const login = (username: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/iam/login',
      payload: { username, password },
    });

  const sessionCount = async (userId: number) =>
    (
      await queryRows<{ n: number }>(
        db(),
        sql`SELECT count(*)::int AS n FROM sessions WHERE user_id = ${userId}`,
      )
    )[0]!.n;

  const newUserBody = (overrides: Record<string, unknown> = {}) => ({
    ...uniqueName(),
    password: STRONG_PASSWORD,
    type: 'super_hr',
    status: 'active',
    ...overrides,
  });
  const createViaApi = async (overrides: Record<string, unknown> = {}) => {
    const res = await asAdmin().post('/api/v1/users', newUserBody(overrides));
    expect(res.statusCode, res.body).toBe(201);
    return managedUserSchema.parse(res.json().data);
  };

  describe('creating', () => {
    it('creates an admin who can then sign in with the password given', async () => {
      const body = newUserBody({ type: 'admin' });
      const res = await asAdmin().post('/api/v1/users', body);

      expect(res.statusCode).toBe(201);
      const created = managedUserSchema.parse(res.json().data);
      expect(created).toMatchObject({
        username: body.username,
        email: body.email,
        type: 'admin',
        status: 'active',
        merchant_id: null,
        company_id: null,
      });
      expect((await login(body.username, STRONG_PASSWORD)).statusCode).toBe(200);
    });

    it('creates a merchant user for an existing merchant, with the merchant named', async () => {
      const created = await createViaApi({ type: 'merchant_staff', merchant_id: merchantId });
      expect(created).toMatchObject({
        type: 'merchant_staff',
        merchant_id: merchantId,
        merchant_name: 'Test merchant',
      });
    });

    it('answers 404 RECORD_NOT_FOUND for a merchant that does not exist', async () => {
      const res = await asAdmin().post(
        '/api/v1/users',
        newUserBody({ type: 'merchant_admin', merchant_id: 999_999 }),
      );
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('RECORD_NOT_FOUND');
    });

    it('requires a merchant for merchant roles and refuses one for platform users', async () => {
      const missing = await asAdmin().post(
        '/api/v1/users',
        newUserBody({ type: 'merchant_admin' }),
      );
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toMatchObject({
        code: 'BODY_INVALID',
        metadata: { merchant_id: 'Choose a merchant' },
      });
      const extra = await asAdmin().post(
        '/api/v1/users',
        newUserBody({ type: 'admin', merchant_id: merchantId }),
      );
      expect(extra.statusCode).toBe(400);
      expect(extra.json().metadata).toEqual({
        merchant_id: 'Merchant must be left out for this user type',
      });
    });

    it.each(['company_admin', 'company_employee', 'root'])('refuses the type %s', async (type) => {
      const res = await asAdmin().post('/api/v1/users', newUserBody({ type }));
      expect(res.statusCode).toBe(400);
      expect(res.json().metadata).toEqual({ type: 'Choose one of the user types offered' });
    });

    it.each([
      ['username', 'ab', 'Username must be 3 to 20 characters'],
      ['username', 'a'.repeat(21), 'Username must be 3 to 20 characters'],
      ['username', 'jane doe', 'Username may contain only letters, numbers, underscores and dots'],
      ['username', 'jane-doe', 'Username may contain only letters, numbers, underscores and dots'],
      ['username', '', 'Enter a username'],
      ['username', undefined, 'Enter a username'],
      ['password', 'Sh0rt!', 'Password must be 8 to 32 characters'],
      ['password', `Aa1!${'x'.repeat(29)}`, 'Password must be 8 to 32 characters'],
      ['password', 'lower0nly!', 'Password must contain an upper-case letter'],
      ['password', 'UPPER0NLY!', 'Password must contain a lower-case letter'],
      ['password', 'NoDigits!!', 'Password must contain a digit'],
      ['password', 'NoSpecial00', 'Password must contain a special character'],
      ['password', undefined, 'Enter a password'],
      ['email', 'not-an-email', 'Enter a valid email address'],
      ['email', 'jane@', 'Enter a valid email address'],
      ['email', '', 'Enter an email address'],
      ['email', undefined, 'Enter an email address'],
      ['status', undefined, 'Choose a status'],
      ['status', 'paused', 'Choose a status'],
      ['type', undefined, 'Choose a user type'],
    ])('refuses %s = %j with "%s"', async (field, value, message) => {
      const body: Record<string, unknown> = newUserBody();
      if (value === undefined) delete body[field];
      else body[field] = value;
      const res = await asAdmin().post('/api/v1/users', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'BODY_INVALID', metadata: { [field]: message } });
    });

    it('answers field messages in Chinese for a Chinese caller', async () => {
      const res = await injectAs(t.app, admin.session, {
        method: 'POST',
        url: '/api/v1/users',
        headers: { 'accept-language': 'zh-CN' },
        payload: newUserBody({ username: 'ab' }),
      });
      expect(res.json().metadata).toEqual({ username: '用户名须为 3 至 20 个字符' });
    });

    it('refuses unknown fields such as token_balance', async () => {
      const res = await asAdmin().post('/api/v1/users', newUserBody({ token_balance: 100 }));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'BODY_INVALID',
        metadata: { token_balance: 'Remove this field' },
      });
    });

    it('refuses a confirmation that differs from the password', async () => {
      const res = await asAdmin().post(
        '/api/v1/users',
        newUserBody({ confirm_password: 'Other!Pass1' }),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'PASSWORD_NOT_MATCH',
        metadata: { confirm_password: 'Passwords must match' },
      });
      const same = await asAdmin().post(
        '/api/v1/users',
        newUserBody({ confirm_password: STRONG_PASSWORD }),
      );
      expect(same.statusCode).toBe(201);
    });

    it('answers 409 USERNAME_EXISTS for a taken username in any case', async () => {
      const first = await createViaApi();
      const res = await asAdmin().post(
        '/api/v1/users',
        newUserBody({ username: first.username.toUpperCase() }),
      );
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'USERNAME_EXISTS',
        message: 'Username already exists',
      });
    });

    it('answers 409 EMAIL_EXISTS for a taken email in any case', async () => {
      const first = await createViaApi();
      const res = await asAdmin().post(
        '/api/v1/users',
        newUserBody({ email: first.email!.toUpperCase() }),
      );
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'EMAIL_EXISTS',
        message: 'Email is already registered',
      });
    });

    it('answers a username taken by a company admin or an employee with USERNAME_EXISTS too', async () => {
      const employee = await createUser(db(), { type: 'company_employee', companyId });
      const res = await asAdmin().post(
        '/api/v1/users',
        newUserBody({ username: employee.username }),
      );
      expect(res.json().code).toBe('USERNAME_EXISTS');
    });

    it('lets only one of two simultaneous creations of one username through', async () => {
      const body = newUserBody();
      const results = await Promise.all([
        asAdmin().post('/api/v1/users', body),
        asAdmin().post('/api/v1/users', { ...body, email: `other.${body.email}` }),
      ]);
      const statuses = results.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([201, 409]);
      expect(results.find((r) => r.statusCode === 409)!.json().code).toBe('USERNAME_EXISTS');
    });

    it('records the creation in the audit log, without the password', async () => {
      const created = await createViaApi();
      const rows = await auditRowsOf(t, 'user', created.user_id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        actor_user_id: admin.user.id,
        action: 'create',
        before: null,
        after: { user_id: created.user_id, username: created.username, type: 'super_hr' },
      });
      expect(rows[0]!.ip).toBeTruthy();
      expect(JSON.stringify(rows)).not.toMatch(/argon2|password|Str0ng/i);
    });
  });

  describe('listing', () => {
    let prefix: string;
    let ids: Record<string, number>;

    beforeAll(async () => {
      prefix = `lst${Date.now().toString(36).slice(-5)}`;
      const make = async (name: string, type: Role, extra: Record<string, unknown> = {}) =>
        (
          await createViaApi({
            username: `${prefix}.${name}`,
            email: `${name}.${prefix}@Listing.example`,
            type,
            ...extra,
          })
        ).user_id;
      ids = {
        admin: await make('adm', 'admin'),
        hr: await make('hr', 'super_hr'),
        hrOff: await make('hroff', 'super_hr', { status: 'inactive' }),
        staff: await make('staff', 'merchant_staff', { merchant_id: merchantId }),
      };
      // Not managed here: a company admin and an employee with the same prefix.
      await createUser(db(), { type: 'company_admin', companyId, username: `${prefix}.ca` });
      await createUser(db(), { type: 'company_employee', companyId, username: `${prefix}.emp` });
    });

    const list = async (query: string) => {
      const res = await asAdmin().get(`/api/v1/users?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { data: { user_id: number }[]; total: number };
    };
    const idsOf = (body: { data: { user_id: number }[] }) => body.data.map((u) => u.user_id);

    it('searches usernames and emails, case-insensitively, newest first', async () => {
      const byName = await list(`search=${prefix.toUpperCase()}`);
      expect(idsOf(byName)).toEqual([ids.staff, ids.hrOff, ids.hr, ids.admin]);
      expect(byName.total).toBe(4);
      const byEmail = await list(`search=${encodeURIComponent(`hroff.${prefix}@listing`)}`);
      expect(idsOf(byEmail)).toEqual([ids.hrOff]);
    });

    it('treats % and _ in a search as plain characters', async () => {
      expect((await list('search=%25')).total).toBe(0);
    });

    it('filters by repeated type keys, status and merchant', async () => {
      expect(idsOf(await list(`search=${prefix}&type=admin&type=merchant_staff`))).toEqual([
        ids.staff,
        ids.admin,
      ]);
      expect(idsOf(await list(`search=${prefix}&type=super_hr`))).toEqual([ids.hrOff, ids.hr]);
      expect(idsOf(await list(`search=${prefix}&status=inactive`))).toEqual([ids.hrOff]);
      expect(idsOf(await list(`search=${prefix}&merchant_id=${merchantId}`))).toEqual([ids.staff]);
    });

    it('pages with page and page_size, giving the total', async () => {
      const first = await list(`search=${prefix}&page=1&page_size=10`);
      expect(first.data).toHaveLength(4);
      const second = await list(`search=${prefix}&page=2&page_size=10`);
      expect(second).toEqual({ data: [], total: 4 });
    });

    it('refuses a page size other than 10, 20 or 50 and a company type filter', async () => {
      const size = await asAdmin().get('/api/v1/users?page_size=15');
      expect(size.statusCode).toBe(400);
      expect(size.json()).toMatchObject({
        code: 'QUERY_PARAM_INVALID',
        metadata: { page_size: 'Enter a valid value' },
      });
      const type = await asAdmin().get('/api/v1/users?type=company_admin');
      expect(type.statusCode).toBe(400);
      expect(type.json()).toMatchObject({ code: 'QUERY_PARAM_INVALID' });
      expect(Object.keys(type.json().metadata)[0]).toMatch(/^type/);
    });

    it('lists Group HR users only at /hrs', async () => {
      const res = await asAdmin().get(`/api/v1/hrs?search=${prefix}`);
      expect(res.statusCode).toBe(200);
      expect(idsOf(res.json())).toEqual([ids.hrOff, ids.hr]);
      expect(res.json().data.every((u: { type: string }) => u.type === 'super_hr')).toBe(true);
      const active = await asAdmin().get(`/api/v1/hrs?search=${prefix}&status=active`);
      expect(idsOf(active.json())).toEqual([ids.hr]);
    });
  });

  describe('reading', () => {
    it('answers one user', async () => {
      const created = await createViaApi();
      const res = await asAdmin().get(`/api/v1/users/${created.user_id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: created });
    });

    it('does not find company admins, employees or unknown ids here', async () => {
      const companyAdmin = await createUser(db(), { type: 'company_admin', companyId });
      const employee = await createUser(db(), { type: 'company_employee', companyId });
      for (const id of [companyAdmin.id, employee.id, 999_999]) {
        const res = await asAdmin().get(`/api/v1/users/${id}`);
        expect(res.statusCode).toBe(404);
        expect(res.json().code).toBe('RECORD_NOT_FOUND');
        const put = await asAdmin().put(`/api/v1/users/${id}`, {
          ...uniqueName(),
          status: 'active',
        });
        expect(put.statusCode).toBe(404);
        expect(
          (await asAdmin().patch(`/api/v1/users/${id}/status`, { status: 'inactive' })).statusCode,
        ).toBe(404);
        expect((await asAdmin().delete(`/api/v1/users/${id}`)).statusCode).toBe(404);
      }
    });
  });

  describe('editing', () => {
    it('changes username, email and status, keeping the password when it is left empty', async () => {
      const created = await createViaApi();
      const next = uniqueName('renamed');
      const res = await asAdmin().put(`/api/v1/users/${created.user_id}`, {
        ...next,
        status: 'active',
        password: '',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ ...next, user_id: created.user_id });
      expect((await login(next.username, STRONG_PASSWORD)).statusCode).toBe(200);
    });

    it('sets a new password, ending every session of the user', async () => {
      const created = await createViaApi();
      const session = await signIn(t.app, created.username, STRONG_PASSWORD);
      expect((await selfInfo(session)).statusCode).toBe(200);

      const res = await asAdmin().put(`/api/v1/users/${created.user_id}`, {
        username: created.username,
        email: created.email,
        status: 'active',
        password: 'N3w!Password',
      });
      expect(res.statusCode).toBe(200);
      expect((await selfInfo(session)).statusCode).toBe(401);
      expect((await login(created.username, STRONG_PASSWORD)).statusCode).toBe(401);
      expect((await login(created.username, 'N3w!Password')).statusCode).toBe(200);

      const [, update] = await auditRowsOf(t, 'user', created.user_id);
      expect(update).toMatchObject({
        action: 'update',
        before: { username: created.username, status: 'active' },
        after: { username: created.username, password_changed: true },
      });
      expect(JSON.stringify(update)).not.toMatch(/argon2|N3w!Password|password_hash/);
    });

    // Issue 39 item 5 (decision 0070): a session alone does not set its own password.
    it('sets its own password only with the current one, on PUT /users/{own id}', async () => {
      const me = await signedIn(t, 'admin');
      const url = `/api/v1/users/${me.user.id}`;
      const body = {
        username: me.user.username,
        email: me.user.email,
        status: 'active',
        password: 'N3w!Password',
        confirm_password: 'N3w!Password',
      };
      const missing = await as(me.session).put(url, body);
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toMatchObject({
        code: 'CURRENT_PASSWORD_REQUIRED',
        metadata: { current_password: 'Enter your current password to set a new one' },
      });
      const wrong = await as(me.session).put(url, { ...body, current_password: 'Wr0ng!Pass' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().code).toBe('CURRENT_PASSWORD_INVALID');
      // Neither changed anything: the old password still signs in, the session still works.
      expect((await selfInfo(me.session)).statusCode).toBe(200);
      expect((await login(me.user.username, 'N3w!Password')).statusCode).toBe(401);

      const right = await as(me.session).put(url, { ...body, current_password: me.user.password });
      expect(right.statusCode, right.body).toBe(200);
      expect((await login(me.user.username, me.user.password)).statusCode).toBe(401);
      expect((await login(me.user.username, 'N3w!Password')).statusCode).toBe(200);
      // Every session of the user ended with the old password; another user's password is
      // still the admin's to set without its own (spec 5's form).
      expect((await selfInfo(me.session)).statusCode).toBe(401);
      const again = await signIn(t.app, me.user.username, 'N3w!Password');
      const other = await createViaApi();
      const reset = await as(again).put(`/api/v1/users/${other.user_id}`, {
        username: other.username,
        email: other.email,
        status: 'active',
        password: 'An0ther!Pass',
      });
      expect(reset.statusCode, reset.body).toBe(200);
    });

    it('throttles wrong current passwords like sign-ins', async () => {
      const me = await signedIn(t, 'admin');
      const url = `/api/v1/users/${me.user.id}`;
      const body = {
        username: me.user.username,
        email: me.user.email,
        status: 'active',
        password: 'N3w!Password',
        current_password: 'Wr0ng!Pass',
      };
      const codes: string[] = [];
      for (let i = 0; i < 8; i += 1) codes.push((await as(me.session).put(url, body)).json().code);
      expect(codes.slice(0, 6)).toEqual(Array<string>(6).fill('CURRENT_PASSWORD_INVALID'));
      expect(codes.slice(6)).toEqual(['TOO_MANY_REQUESTS', 'TOO_MANY_REQUESTS']);
    });

    it('applies the password rules to a new password', async () => {
      const created = await createViaApi();
      const res = await asAdmin().put(`/api/v1/users/${created.user_id}`, {
        username: created.username,
        email: created.email,
        status: 'active',
        password: 'weakpass',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().metadata).toEqual({
        password: 'Password must contain an upper-case letter',
      });
    });

    it('ends the sessions of a user it deactivates', async () => {
      const created = await createViaApi();
      const session = await signIn(t.app, created.username, STRONG_PASSWORD);
      const res = await asAdmin().put(`/api/v1/users/${created.user_id}`, {
        username: created.username,
        email: created.email,
        status: 'inactive',
      });
      expect(res.json().data.status).toBe('inactive');
      expect(await sessionCount(created.user_id)).toBe(0);
      expect((await selfInfo(session)).statusCode).toBe(401);
    });

    it('refuses to change the type, the merchant or the company (unknown fields)', async () => {
      const created = await createViaApi();
      const res = await asAdmin().put(`/api/v1/users/${created.user_id}`, {
        username: created.username,
        email: created.email,
        status: 'active',
        type: 'admin',
        merchant_id: merchantId,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().metadata).toEqual({
        type: 'Remove this field',
        merchant_id: 'Remove this field',
      });
    });

    it('requires the status, username and email on edit', async () => {
      const created = await createViaApi();
      const res = await asAdmin().put(`/api/v1/users/${created.user_id}`, {});
      expect(res.statusCode).toBe(400);
      expect(res.json().metadata).toEqual({
        username: 'Enter a username',
        email: 'Enter an email address',
        status: 'Choose a status',
      });
    });

    it('edits a merchant admin but answers 403 ONLY_MERCHANT_ADMIN_UPDATABLE for other merchant roles', async () => {
      const merchantAdmin = await createViaApi({ type: 'merchant_admin', merchant_id: merchantId });
      const ok = await asAdmin().put(`/api/v1/users/${merchantAdmin.user_id}`, {
        ...uniqueName('madmin'),
        status: 'active',
      });
      expect(ok.statusCode).toBe(200);

      for (const type of ['merchant_supervisor', 'merchant_staff']) {
        const staff = await createViaApi({ type, merchant_id: merchantId });
        const res = await asAdmin().put(`/api/v1/users/${staff.user_id}`, {
          username: staff.username,
          email: staff.email,
          status: 'active',
        });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({
          code: 'ONLY_MERCHANT_ADMIN_UPDATABLE',
          message: 'Only merchant admin can be updated',
        });
        // Activation and deletion stay open for staff (spec 4).
        const status = await asAdmin().patch(`/api/v1/users/${staff.user_id}/status`, {
          status: 'inactive',
        });
        expect(status.statusCode).toBe(200);
        expect((await asAdmin().delete(`/api/v1/users/${staff.user_id}`)).statusCode).toBe(200);
      }
    });

    it('answers 409 for a username or email taken by someone else, and accepts its own', async () => {
      const a = await createViaApi();
      const b = await createViaApi();
      const put = (body: object) => asAdmin().put(`/api/v1/users/${b.user_id}`, body);
      const taken = await put({
        username: a.username.toUpperCase(),
        email: b.email,
        status: 'active',
      });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().code).toBe('USERNAME_EXISTS');
      const email = await put({ username: b.username, email: a.email, status: 'active' });
      expect(email.statusCode).toBe(409);
      expect(email.json().code).toBe('EMAIL_EXISTS');
      const own = await put({
        username: b.username.toUpperCase(),
        email: b.email,
        status: 'active',
      });
      expect(own.statusCode).toBe(200);
    });
  });

  describe('status', () => {
    it('deactivates (ending sessions, refusing sign-in) and reactivates a user', async () => {
      const created = await createViaApi();
      const session = await signIn(t.app, created.username, STRONG_PASSWORD);

      const off = await asAdmin().patch(`/api/v1/users/${created.user_id}/status`, {
        status: 'inactive',
      });
      expect(off.statusCode).toBe(200);
      expect(off.json().data.status).toBe('inactive');
      // Ended at once, not only refused when next presented.
      expect(await sessionCount(created.user_id)).toBe(0);
      expect((await selfInfo(session)).statusCode).toBe(401);
      const refused = await login(created.username, STRONG_PASSWORD);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe('USER_INACTIVE');

      const on = await asAdmin().patch(`/api/v1/users/${created.user_id}/status`, {
        status: 'active',
      });
      expect(on.json().data.status).toBe('active');
      expect((await login(created.username, STRONG_PASSWORD)).statusCode).toBe(200);

      const actions = (await auditRowsOf(t, 'user', created.user_id)).map((r) => [
        r.action,
        r.before?.status,
        r.after?.status,
      ]);
      expect(actions).toEqual([
        ['create', undefined, 'active'],
        ['status_change', 'active', 'inactive'],
        ['status_change', 'inactive', 'active'],
      ]);
    });

    it('requires a known status', async () => {
      const created = await createViaApi();
      const missing = await asAdmin().patch(`/api/v1/users/${created.user_id}/status`, {});
      expect(missing.statusCode).toBe(400);
      expect(missing.json().metadata).toEqual({ status: 'Choose a status' });
      const extra = await asAdmin().patch(`/api/v1/users/${created.user_id}/status`, {
        status: 'active',
        type: 'admin',
      });
      expect(extra.json().metadata).toEqual({ type: 'Remove this field' });
    });

    it('does not let an admin deactivate or delete itself', async () => {
      const me = await signedIn(t, 'admin');
      const url = `/api/v1/users/${me.user.id}`;
      const status = await as(me.session).patch(`${url}/status`, { status: 'inactive' });
      expect(status.statusCode).toBe(403);
      expect(status.json().code).toBe('CANNOT_CHANGE_OWN_ACCOUNT');
      const put = await as(me.session).put(url, {
        username: me.user.username,
        email: me.user.email,
        status: 'inactive',
      });
      expect(put.json().code).toBe('CANNOT_CHANGE_OWN_ACCOUNT');
      const del = await as(me.session).delete(url);
      expect(del.statusCode).toBe(403);
      expect(del.json().code).toBe('CANNOT_CHANGE_OWN_ACCOUNT');
      expect((await selfInfo(me.session)).statusCode).toBe(200);
      // Editing its own name is fine.
      const rename = await as(me.session).put(url, {
        ...uniqueName('me'),
        status: 'active',
      });
      expect(rename.statusCode).toBe(200);
    });
  });

  describe('deleting', () => {
    it('soft-deletes: gone from reads, lists and sign-in, sessions ended, row kept', async () => {
      const created = await createViaApi();
      const session = await signIn(t.app, created.username, STRONG_PASSWORD);

      const res = await asAdmin().delete(`/api/v1/users/${created.user_id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: { ok: true } });
      expect(await sessionCount(created.user_id)).toBe(0);

      expect((await asAdmin().get(`/api/v1/users/${created.user_id}`)).statusCode).toBe(404);
      const listed = await asAdmin().get(`/api/v1/users?search=${created.username}`);
      expect(listed.json()).toEqual({ data: [], total: 0 });
      expect((await selfInfo(session)).statusCode).toBe(401);
      for (const loginName of [created.username, created.email!]) {
        const refused = await login(loginName, STRONG_PASSWORD);
        expect(refused.statusCode).toBe(401);
        expect(refused.json().code).toBe('INVALID_CREDENTIALS');
      }
      expect((await asAdmin().delete(`/api/v1/users/${created.user_id}`)).statusCode).toBe(404);

      const [row] = await queryRows<{ deleted_at: string | null; status: string }>(
        db(),
        sql`SELECT deleted_at::text, status FROM users WHERE id = ${created.user_id}`,
      );
      expect(row!.deleted_at).not.toBeNull();
      expect(row!.status).toBe('inactive');

      const last = (await auditRowsOf(t, 'user', created.user_id)).at(-1);
      expect(last).toMatchObject({
        action: 'delete',
        before: { username: created.username },
        after: null,
      });
    });

    it('frees the username and email of a deleted user for a new account', async () => {
      const created = await createViaApi();
      await asAdmin().delete(`/api/v1/users/${created.user_id}`);
      const again = await createViaApi({ username: created.username, email: created.email });
      expect(again.user_id).not.toBe(created.user_id);
      expect((await login(created.username, STRONG_PASSWORD)).json().data.user.user_id).toBe(
        again.user_id,
      );
    });

    it('deletes a user that ledger rows name as their actor, keeping those rows', async () => {
      const created = await createViaApi({ type: 'admin' });
      // Creating a company with an initial allocation writes a ledger row with this actor.
      const company = await newCompany(t, created.user_id, 500);
      const res = await asAdmin().delete(`/api/v1/users/${created.user_id}`);
      expect(res.statusCode).toBe(200);
      const rows = await queryRows<{ n: number }>(
        db(),
        sql`SELECT count(*)::int AS n FROM token_transactions
            WHERE actor_user_id = ${created.user_id} AND company_id = ${company.id}`,
      );
      expect(rows[0]!.n).toBe(1);
    });
  });

  describe('access', () => {
    let roles: Awaited<ReturnType<typeof oneOfEachRole>>;
    beforeAll(async () => {
      roles = await oneOfEachRole(t);
    });

    it('is for admins, and merchant admins for their own staff: every other role gets 403', async () => {
      // The target is Group HR: no merchant admin's staff (merchant-staff.test.ts has the rest).
      const target = await createViaApi();
      for (const role of Object.keys(roles) as Role[]) {
        const api = as(roles[role].session);
        const expected = role === 'admin' ? 200 : 403;
        expect((await api.get('/api/v1/users')).statusCode, role).toBe(
          role === 'merchant_admin' ? 200 : expected,
        );
        expect((await api.get(`/api/v1/users/${target.user_id}`)).statusCode, role).toBe(expected);
        expect((await api.get('/api/v1/hrs')).statusCode, role).toBe(expected);
        if (role === 'admin') continue;
        const denied = await api.post('/api/v1/users', newUserBody());
        expect(denied.statusCode, role).toBe(403);
        expect(denied.json().code).toBe('PERMISSION_DENIED');
        expect(
          (await api.put(`/api/v1/users/${target.user_id}`, { ...uniqueName(), status: 'active' }))
            .statusCode,
          role,
        ).toBe(403);
        expect(
          (await api.patch(`/api/v1/users/${target.user_id}/status`, { status: 'inactive' }))
            .statusCode,
          role,
        ).toBe(403);
        expect((await api.delete(`/api/v1/users/${target.user_id}`)).statusCode, role).toBe(403);
      }
    });

    it('answers 401 to an anonymous caller', async () => {
      for (const [method, url] of [
        ['GET', '/api/v1/users'],
        ['POST', '/api/v1/users'],
        ['GET', '/api/v1/users/1'],
        ['PUT', '/api/v1/users/1'],
        ['PATCH', '/api/v1/users/1/status'],
        ['DELETE', '/api/v1/users/1'],
        ['GET', '/api/v1/hrs'],
      ] as const) {
        const res = await t.app.inject({ method, url, payload: method === 'GET' ? undefined : {} });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
        expect(res.json().code).toBe('UNAUTHORIZED');
      }
    });

    it('refuses a change without the CSRF header', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/users',
        headers: { cookie: admin.session.cookie },
        payload: newUserBody(),
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('CSRF_INVALID');
    });
  });
});
