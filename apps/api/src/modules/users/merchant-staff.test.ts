// A merchant admin manages its staff at /users (DESIGN 2, issue 14 item 5, decision 0017): the
// supervisors and staff of its own merchant, nobody else. Another merchant's user is 404, a user of
// another type 403, and nothing outside its staff changes.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managedUserSchema, type ManagedUser } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { requestsAs, type TestSession } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import {
  auditRowsOf,
  newCompany,
  newMerchant,
  signedIn,
  STRONG_PASSWORD,
  uniqueName,
  type SignedInUser,
} from '../../../test/management';
import { queryRows } from '../../db/client';

const NEW_PASSWORD = 'N3w!Passw0rd';

describe.each(await testDatabaseKinds())('a merchant admin’s staff on %s', (kind) => {
  let t: TestApp;
  let admin: SignedInUser;
  let shopAdmin: SignedInUser;
  let ownMerchant: number;
  let otherMerchant: number;

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signedIn(t, 'admin');
    ownMerchant = (await newMerchant(t)).id;
    otherMerchant = (await newMerchant(t)).id;
    shopAdmin = await signedIn(t, 'merchant_admin', { merchantId: ownMerchant });
  });
  afterAll(() => t.close());

  const as = (session: Pick<TestSession, 'cookie' | 'xsrf'>) => requestsAs(t.app, session);
  const asShopAdmin = () => as(shopAdmin.session);
  const login = (username: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/iam/login', payload: { username, password } });
  const staffBody = (overrides: Record<string, unknown> = {}) => ({
    ...uniqueName('staff'),
    password: STRONG_PASSWORD,
    type: 'merchant_staff',
    status: 'active',
    ...overrides,
  });
  const newStaff = async (overrides: Record<string, unknown> = {}): Promise<ManagedUser> => {
    const res = await asShopAdmin().post('/api/v1/users', staffBody(overrides));
    expect(res.statusCode, res.body).toBe(201);
    return managedUserSchema.parse(res.json().data);
  };
  /** A user made by the platform admin, of any managed type. */
  const byAdmin = async (body: Record<string, unknown>): Promise<ManagedUser> => {
    const res = await as(admin.session).post('/api/v1/users', staffBody(body));
    expect(res.statusCode, res.body).toBe(201);
    return managedUserSchema.parse(res.json().data);
  };
  /** The users table as it is, to prove a refused request changed nothing. */
  const usersTable = async () =>
    JSON.stringify(
      await queryRows(
        t.db.database.db,
        sql`SELECT id, username, email, status, password_hash, deleted_at::text
              FROM users ORDER BY id`,
      ),
    );
  const sessionCount = async (userId: number) =>
    (
      await queryRows<{ n: number }>(
        t.db.database.db,
        sql`SELECT count(*)::int AS n FROM sessions WHERE user_id = ${userId}`,
      )
    )[0]!.n;

  it('creates a staff user of its own merchant, implied, who can then sign in', async () => {
    const body = staffBody();
    const res = await asShopAdmin().post('/api/v1/users', body);

    expect(res.statusCode, res.body).toBe(201);
    const created = managedUserSchema.parse(res.json().data);
    expect(created).toMatchObject({
      username: body.username,
      type: 'merchant_staff',
      merchant_id: ownMerchant,
      merchant_name: 'Test merchant',
      status: 'active',
    });
    const signedInAsStaff = await login(body.username, STRONG_PASSWORD);
    expect(signedInAsStaff.statusCode).toBe(200);
    expect(signedInAsStaff.json().data.user).toMatchObject({
      type: 'merchant_staff',
      merchant_id: ownMerchant,
    });
    const [audit] = await auditRowsOf(t, 'user', created.user_id);
    expect(audit).toMatchObject({ action: 'create', actor_user_id: shopAdmin.user.id });
    expect(JSON.stringify(audit)).not.toContain(STRONG_PASSWORD);
  });

  it('creates a supervisor naming its own merchant, and answers 404 naming another', async () => {
    const supervisor = await newStaff({ type: 'merchant_supervisor', merchant_id: ownMerchant });
    expect(supervisor).toMatchObject({ type: 'merchant_supervisor', merchant_id: ownMerchant });

    const before = await usersTable();
    const res = await asShopAdmin().post(
      '/api/v1/users',
      staffBody({ merchant_id: otherMerchant }),
    );
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('RECORD_NOT_FOUND');
    expect(await usersTable()).toBe(before);
  });

  it('answers 403 PERMISSION_DENIED to creating an admin, Group HR or merchant admin', async () => {
    const before = await usersTable();
    for (const type of ['admin', 'super_hr', 'merchant_admin']) {
      const res = await asShopAdmin().post('/api/v1/users', staffBody({ type }));
      expect(res.statusCode, type).toBe(403);
      expect(res.json().code, type).toBe('PERMISSION_DENIED');
    }
    // Company roles are no type of /users at all (the contract refuses them for everyone).
    for (const type of ['company_admin', 'company_employee']) {
      const res = await asShopAdmin().post('/api/v1/users', staffBody({ type }));
      expect(res.statusCode, type).toBe(400);
    }
    expect(await usersTable()).toBe(before);
  });

  it('still requires the admin to name the merchant of a merchant user', async () => {
    const res = await as(admin.session).post('/api/v1/users', staffBody());
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'BODY_INVALID',
      metadata: { merchant_id: 'Choose a merchant' },
    });
  });

  it('edits a staff user and resets its password, ending its sessions', async () => {
    const staff = await newStaff();
    const staffSession = await login(staff.username, STRONG_PASSWORD);
    expect(staffSession.statusCode).toBe(200);
    expect(await sessionCount(staff.user_id)).toBe(1);

    const renamed = uniqueName('renamed');
    const res = await asShopAdmin().put(`/api/v1/users/${staff.user_id}`, {
      ...renamed,
      status: 'active',
      password: NEW_PASSWORD,
      confirm_password: NEW_PASSWORD,
    });

    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ ...renamed, merchant_id: ownMerchant });
    expect(await sessionCount(staff.user_id)).toBe(0);
    expect((await login(renamed.username, STRONG_PASSWORD)).statusCode).toBe(401);
    expect((await login(renamed.username, NEW_PASSWORD)).statusCode).toBe(200);
    const rows = await auditRowsOf(t, 'user', staff.user_id);
    expect(rows.at(-1)).toMatchObject({
      action: 'update',
      actor_user_id: shopAdmin.user.id,
      after: { password_changed: true, username: renamed.username },
    });
  });

  it('deactivates (refusing sign-in), reactivates and deletes a staff user', async () => {
    const staff = await newStaff({ type: 'merchant_supervisor' });
    const off = await asShopAdmin().patch(`/api/v1/users/${staff.user_id}/status`, {
      status: 'inactive',
    });
    expect(off.statusCode).toBe(200);
    expect(off.json().data.status).toBe('inactive');
    expect((await login(staff.username, STRONG_PASSWORD)).statusCode).not.toBe(200);

    const on = await asShopAdmin().patch(`/api/v1/users/${staff.user_id}/status`, {
      status: 'active',
    });
    expect(on.json().data.status).toBe('active');
    expect((await login(staff.username, STRONG_PASSWORD)).statusCode).toBe(200);

    expect((await asShopAdmin().delete(`/api/v1/users/${staff.user_id}`)).statusCode).toBe(200);
    expect((await asShopAdmin().get(`/api/v1/users/${staff.user_id}`)).statusCode).toBe(404);
    const actions = (await auditRowsOf(t, 'user', staff.user_id)).map((row) => row.action);
    expect(actions).toEqual(['create', 'status_change', 'status_change', 'delete']);
  });

  it('lists only its own merchant’s supervisors and staff, and filters within them', async () => {
    const mine = [await newStaff(), await newStaff({ type: 'merchant_supervisor' })];
    await byAdmin({ merchant_id: otherMerchant });
    await byAdmin({ type: 'merchant_admin', merchant_id: ownMerchant });
    await byAdmin({ type: 'super_hr' });

    const res = await asShopAdmin().get('/api/v1/users?page_size=50');
    expect(res.statusCode).toBe(200);
    const listed = res.json() as { data: ManagedUser[]; total: number };
    expect(listed.total).toBe(listed.data.length);
    expect(listed.data.map((u) => u.user_id)).toEqual(
      expect.arrayContaining(mine.map((u) => u.user_id)),
    );
    for (const user of listed.data) {
      expect(user.merchant_id, user.username).toBe(ownMerchant);
      expect(['merchant_supervisor', 'merchant_staff'], user.username).toContain(user.type);
    }
    // The database agrees: every live supervisor and staff of the merchant, and no one else.
    const [expected] = await queryRows<{ n: number }>(
      t.db.database.db,
      sql`SELECT count(*)::int AS n FROM users WHERE merchant_id = ${ownMerchant}
            AND type IN ('merchant_supervisor', 'merchant_staff') AND deleted_at IS NULL`,
    );
    expect(listed.total).toBe(expected!.n);

    for (const query of [
      'type=admin',
      'type=merchant_admin',
      `merchant_id=${otherMerchant}`,
      `search=${encodeURIComponent(shopAdmin.user.username)}`,
    ]) {
      const filtered = await asShopAdmin().get(`/api/v1/users?${query}`);
      expect(filtered.statusCode, query).toBe(200);
      expect(filtered.json(), query).toEqual({ data: [], total: 0 });
    }
    const supervisors = (await asShopAdmin().get('/api/v1/users?type=merchant_supervisor')).json();
    expect(supervisors.total).toBeGreaterThan(0);
    expect((supervisors.data as ManagedUser[]).every((u) => u.type === 'merchant_supervisor')).toBe(
      true,
    );
  });

  /** Every verb of /users/{id}, each with a body that would be accepted for its own staff. */
  const everyVerb = (user: ManagedUser) => {
    const api = asShopAdmin();
    const url = `/api/v1/users/${user.user_id}`;
    return [
      ['GET', () => api.get(url)],
      [
        'PUT',
        () =>
          api.put(url, {
            username: user.username,
            email: user.email,
            status: 'active',
            password: NEW_PASSWORD,
          }),
      ],
      ['PATCH', () => api.patch(`${url}/status`, { status: 'inactive' })],
      ['DELETE', () => api.delete(url)],
    ] as const;
  };

  it('answers 404 RECORD_NOT_FOUND to every verb on another merchant’s users, changing nothing', async () => {
    const others = [
      await byAdmin({ merchant_id: otherMerchant }),
      await byAdmin({ type: 'merchant_supervisor', merchant_id: otherMerchant }),
      await byAdmin({ type: 'merchant_admin', merchant_id: otherMerchant }),
    ];
    const before = await usersTable();
    for (const user of others) {
      for (const [verb, call] of everyVerb(user)) {
        const res = await call();
        expect(res.statusCode, `${verb} ${user.type}`).toBe(404);
        expect(res.json().code, `${verb} ${user.type}`).toBe('RECORD_NOT_FOUND');
      }
    }
    for (const [verb, call] of everyVerb({ ...others[0]!, user_id: 987_654 })) {
      expect((await call()).statusCode, `${verb} unknown id`).toBe(404);
    }
    expect(await usersTable()).toBe(before);
  });

  it('answers 403 PERMISSION_DENIED to every verb on users of another type, changing nothing', async () => {
    const company = await newCompany(t);
    const others = [
      await byAdmin({ type: 'admin' }),
      await byAdmin({ type: 'super_hr' }),
      await byAdmin({ type: 'merchant_admin', merchant_id: ownMerchant }),
      (await signedIn(t, 'company_admin', { companyId: company.id })).session.user,
      (await signedIn(t, 'company_employee', { companyId: company.id })).session.user,
    ].map((user) => ({ ...user, email: user.email ?? null }) as ManagedUser);
    const itself = { ...shopAdmin.session.user } as unknown as ManagedUser;
    const before = await usersTable();
    for (const user of [...others, itself]) {
      for (const [verb, call] of everyVerb(user)) {
        const res = await call();
        expect(res.statusCode, `${verb} ${user.type} ${user.user_id}`).toBe(403);
        expect(res.json().code, `${verb} ${user.type}`).toBe('PERMISSION_DENIED');
      }
    }
    expect(await usersTable()).toBe(before);
  });

  it('cannot reset anyone’s second factor or sign-in throttle, not even its own staff’s (admin only)', async () => {
    const staff = await newStaff();
    for (const target of [staff.user_id, admin.user.id]) {
      for (const url of [
        `/api/v1/users/${target}/mfa`,
        `/api/v1/users/${target}/sign-in-throttle`,
      ]) {
        const res = await asShopAdmin().delete(url);
        expect(res.statusCode, url).toBe(403);
        expect(res.json().code, url).toBe('PERMISSION_DENIED');
      }
    }
    const byAdmin = await as(admin.session).delete(
      `/api/v1/users/${staff.user_id}/sign-in-throttle`,
    );
    expect(byAdmin.statusCode).toBe(200);
  });

  it('answers 403 to supervisors and staff on every /users route', async () => {
    const target = await newStaff();
    for (const role of ['merchant_supervisor', 'merchant_staff'] as const) {
      const { session } = await signedIn(t, role, { merchantId: ownMerchant });
      const api = as(session);
      for (const res of [
        await api.get('/api/v1/users'),
        await api.post('/api/v1/users', staffBody()),
        await api.get(`/api/v1/users/${target.user_id}`),
        await api.put(`/api/v1/users/${target.user_id}`, { ...uniqueName(), status: 'active' }),
        await api.patch(`/api/v1/users/${target.user_id}/status`, { status: 'inactive' }),
        await api.delete(`/api/v1/users/${target.user_id}`),
        await api.get('/api/v1/hrs'),
      ]) {
        expect(res.statusCode, role).toBe(403);
        expect(res.json().code).toBe('PERMISSION_DENIED');
      }
    }
    // And the merchant admin has no Group HR list.
    expect((await asShopAdmin().get('/api/v1/hrs')).statusCode).toBe(403);
  });
});
