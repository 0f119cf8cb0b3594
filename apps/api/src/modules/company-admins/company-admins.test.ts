import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managedUserSchema, type Role } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { createUser, injectAs, signIn, type TestSession } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import {
  auditRowsOf,
  newCompany,
  oneOfEachRole,
  signedIn,
  STRONG_PASSWORD,
  uniqueName,
  type SignedInUser,
} from '../../../test/management';

const BASE = '/api/v1/companies/admin';

describe.each(await testDatabaseKinds())('company admins on %s', (kind) => {
  let t: TestApp;
  let admin: SignedInUser;
  let hr: SignedInUser;
  let companyA: number;
  let companyB: number;

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signedIn(t, 'admin');
    hr = await signedIn(t, 'super_hr');
    companyA = (await newCompany(t)).id;
    companyB = (await newCompany(t)).id;
  });
  afterAll(() => t.close());

  const call = (
    session: Pick<TestSession, 'cookie' | 'xsrf'>,
    method: string,
    url: string,
    payload?: object,
  ) =>
    injectAs(t.app, session, {
      method: method as 'GET',
      url,
      ...(payload ? { payload } : {}),
    });
  const selfInfo = (session: TestSession) =>
    injectAs(t.app, session, { url: '/api/v1/iam/self-info' });

  const body = (overrides: Record<string, unknown> = {}) => ({
    company_id: companyA,
    ...uniqueName('cadmin'),
    password: STRONG_PASSWORD,
    status: 'active',
    ...overrides,
  });
  const create = async (overrides: Record<string, unknown> = {}, as = admin.session) => {
    const res = await call(as, 'POST', BASE, body(overrides));
    expect(res.statusCode, res.body).toBe(201);
    return managedUserSchema.parse(res.json().data);
  };

  describe('creating', () => {
    it('creates a company admin of an existing company, who can sign in to it', async () => {
      const input = body();
      const res = await call(admin.session, 'POST', BASE, input);
      expect(res.statusCode).toBe(201);
      expect(res.json().data).toMatchObject({
        username: input.username,
        email: input.email,
        type: 'company_admin',
        status: 'active',
        company_id: companyA,
        company_name: 'Test company',
        merchant_id: null,
      });
      const session = await signIn(t.app, input.username, STRONG_PASSWORD);
      expect(session.user).toMatchObject({ type: 'company_admin', company_id: companyA });
    });

    it('lets Group HR create one too', async () => {
      const created = await create({ company_id: companyB }, hr.session);
      expect(created.company_id).toBe(companyB);
      const [row] = await auditRowsOf(t, 'user', created.user_id);
      expect(row).toMatchObject({ action: 'create', actor_user_id: hr.user.id });
    });

    it('answers 404 RECORD_NOT_FOUND for a company that does not exist', async () => {
      const res = await call(admin.session, 'POST', BASE, body({ company_id: 999_999 }));
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('RECORD_NOT_FOUND');
    });

    it.each([
      ['company_id', undefined, 'Choose a company'],
      ['company_id', 'abc', 'Enter a number'],
      ['username', 'ab', 'Username must be 3 to 20 characters'],
      ['username', 'a.b!c', 'Username may contain only letters, numbers, underscores and dots'],
      ['password', 'password1!', 'Password must contain an upper-case letter'],
      ['password', '', 'Enter a password'],
      ['email', 'nope', 'Enter a valid email address'],
      ['email', undefined, 'Enter an email address'],
      ['status', undefined, 'Choose a status'],
      ['token_balance', 5, 'Remove this field'],
      ['type', 'admin', 'Remove this field'],
    ])('refuses %s = %j with "%s"', async (field, value, message) => {
      const input: Record<string, unknown> = body();
      if (value === undefined) delete input[field];
      else input[field] = value;
      const res = await call(admin.session, 'POST', BASE, input);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'BODY_INVALID', metadata: { [field]: message } });
    });

    it('answers USERNAME_EXISTS and EMAIL_EXISTS across every kind of user', async () => {
      const platform = await createUser(t.db.database.db, { type: 'super_hr' });
      const byName = await call(
        admin.session,
        'POST',
        BASE,
        body({ username: platform.username.toUpperCase() }),
      );
      expect(byName.statusCode).toBe(409);
      expect(byName.json().code).toBe('USERNAME_EXISTS');
      const byEmail = await call(admin.session, 'POST', BASE, body({ email: platform.email }));
      expect(byEmail.statusCode).toBe(409);
      expect(byEmail.json().code).toBe('EMAIL_EXISTS');
    });
  });

  describe('listing', () => {
    it('lists company admins only, filtered by company, paged', async () => {
      const mine = [await create({ company_id: companyB }), await create({ company_id: companyB })];
      await createUser(t.db.database.db, { type: 'company_employee', companyId: companyB });

      const res = await call(admin.session, 'GET', `${BASE}?company_id=${companyB}&page_size=50`);
      expect(res.statusCode).toBe(200);
      const list = res.json() as {
        data: { user_id: number; type: string; company_id: number }[];
        total: number;
      };
      expect(list.data.every((u) => u.type === 'company_admin' && u.company_id === companyB)).toBe(
        true,
      );
      expect(list.data.map((u) => u.user_id)).toEqual(
        expect.arrayContaining(mine.map((u) => u.user_id)),
      );
      expect(list.total).toBe(list.data.length);

      const page = await call(
        admin.session,
        'GET',
        `${BASE}?company_id=${companyB}&page=1&page_size=10`,
      );
      expect(page.json().data[0].user_id).toBe(mine[1]!.user_id);

      const search = await call(admin.session, 'GET', `${BASE}?search=${mine[0]!.username}`);
      expect(search.json()).toMatchObject({ total: 1, data: [{ user_id: mine[0]!.user_id }] });
    });

    it('refuses a bad company_id filter', async () => {
      const res = await call(admin.session, 'GET', `${BASE}?company_id=abc`);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('QUERY_PARAM_INVALID');
    });
  });

  describe('editing', () => {
    it('edits username, email and status, keeping the password when it is empty', async () => {
      const created = await create();
      const next = uniqueName('cadmin2');
      const res = await call(admin.session, 'PUT', `${BASE}/${created.user_id}`, {
        ...next,
        status: 'active',
        password: '',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ ...next, company_id: companyA });
      await signIn(t.app, next.username, STRONG_PASSWORD);
    });

    it('sets a new password and ends the admin’s sessions', async () => {
      const created = await create();
      const session = await signIn(t.app, created.username, STRONG_PASSWORD);
      const res = await call(hr.session, 'PUT', `${BASE}/${created.user_id}`, {
        username: created.username,
        email: created.email,
        status: 'active',
        password: 'An0ther!Pass',
        confirm_password: 'An0ther!Pass',
      });
      expect(res.statusCode).toBe(200);
      expect((await selfInfo(session)).statusCode).toBe(401);
      await signIn(t.app, created.username, 'An0ther!Pass');
      const [, update] = await auditRowsOf(t, 'user', created.user_id);
      expect(update!.after).toMatchObject({ password_changed: true });
      expect(JSON.stringify(update)).not.toMatch(/argon2|An0ther/);
    });

    it('deactivates with PUT or PATCH, ending the sessions', async () => {
      const created = await create();
      const session = await signIn(t.app, created.username, STRONG_PASSWORD);
      const res = await call(admin.session, 'PUT', `${BASE}/${created.user_id}`, {
        username: created.username,
        email: created.email,
        status: 'inactive',
      });
      expect(res.json().data.status).toBe('inactive');
      expect((await selfInfo(session)).statusCode).toBe(401);

      const on = await call(admin.session, 'PATCH', `${BASE}/${created.user_id}/status`, {
        status: 'active',
      });
      expect(on.statusCode).toBe(200);
      const again = await signIn(t.app, created.username, STRONG_PASSWORD);
      const off = await call(admin.session, 'PATCH', `${BASE}/${created.user_id}/status`, {
        status: 'inactive',
      });
      expect(off.json().data.status).toBe('inactive');
      expect((await selfInfo(again)).statusCode).toBe(401);
    });

    it('keeps the company: company_id on edit is an unknown field', async () => {
      const created = await create();
      const res = await call(admin.session, 'PUT', `${BASE}/${created.user_id}`, {
        username: created.username,
        email: created.email,
        status: 'active',
        company_id: companyB,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().metadata).toEqual({ company_id: 'Remove this field' });
    });

    it('does not find platform users, employees or unknown ids here', async () => {
      const db = t.db.database.db;
      const others = [
        await createUser(db, { type: 'super_hr' }),
        await createUser(db, { type: 'company_employee', companyId: companyA }),
      ];
      for (const id of [...others.map((u) => u.id), 999_999]) {
        const res = await call(admin.session, 'PUT', `${BASE}/${id}`, {
          ...uniqueName(),
          status: 'active',
        });
        expect(res.statusCode).toBe(404);
        expect(res.json().code).toBe('RECORD_NOT_FOUND');
      }
    });

    it('answers USERNAME_EXISTS when renaming onto a taken username', async () => {
      const a = await create();
      const b = await create();
      const res = await call(admin.session, 'PUT', `${BASE}/${b.user_id}`, {
        username: a.username,
        email: b.email,
        status: 'active',
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('USERNAME_EXISTS');
    });
  });

  describe('access', () => {
    it('is for admins and Group HR: the other roles get 403, anonymous callers 401', async () => {
      const roles = await oneOfEachRole(t);
      const target = await create();
      for (const role of Object.keys(roles) as Role[]) {
        const session = roles[role].session;
        const allowed = role === 'admin' || role === 'super_hr';
        const list = await call(session, 'GET', BASE);
        expect(list.statusCode, role).toBe(allowed ? 200 : 403);
        if (allowed) continue;
        expect((await call(session, 'POST', BASE, body())).statusCode, role).toBe(403);
        expect((await call(session, 'PUT', `${BASE}/${target.user_id}`, {})).statusCode, role).toBe(
          403,
        );
        expect(
          (await call(session, 'PATCH', `${BASE}/${target.user_id}/status`, { status: 'inactive' }))
            .statusCode,
          role,
        ).toBe(403);
      }
      for (const [method, url] of [
        ['GET', BASE],
        ['POST', BASE],
        ['PUT', `${BASE}/1`],
        ['PATCH', `${BASE}/1/status`],
      ] as const) {
        const res = await t.app.inject({ method, url, payload: method === 'GET' ? undefined : {} });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
      }
    });
  });
});
