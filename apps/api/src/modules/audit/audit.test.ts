import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntrySchema, type Role } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { injectAs } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import {
  auditRowsOf,
  newCompany,
  newMerchant,
  oneOfEachRole,
  signedIn,
  type SignedInUser,
} from '../../../test/management';
import { createEmployee } from '../employees';
import { queryRows } from '../../db/client';
import { recordAudit, redactForAudit } from '../../lib/audit';

describe('redactForAudit', () => {
  it('drops passwords, hashes and keys at any depth, keeping everything else', () => {
    expect(
      redactForAudit({
        username: 'jane',
        password: 'Passw0rd!',
        password_hash: '$argon2id$v=19$…',
        passwordHash: '$argon2id$v=19$…',
        confirm_password: 'Passw0rd!',
        api_key: 'tk_live_secret',
        api_key_hash: 'abc',
        token_balance: 100,
        nested: { client_secret: 'x', items: [{ new_password: 'y', name: 'z' }] },
      }),
    ).toEqual({
      username: 'jane',
      token_balance: 100,
      nested: { items: [{ name: 'z' }] },
    });
  });

  it('keeps a boolean saying that a secret changed, and writes dates as ISO strings', () => {
    expect(
      redactForAudit({
        password_changed: true,
        at: new Date('2026-01-02T03:04:05Z'),
        gone: undefined,
      }),
    ).toEqual({ password_changed: true, at: '2026-01-02T03:04:05.000Z' });
  });

  it('replaces lone surrogates in keys and strings, which jsonb refuses, and keeps pairs', () => {
    expect(redactForAudit({ 'k\udc00': ['a\ud800', 'pair \ud83d\ude00'] })).toEqual({
      'k\ufffd': ['a\ufffd', 'pair \ud83d\ude00'],
    });
  });
});

describe.each(await testDatabaseKinds())('the audit log on %s', (kind) => {
  let t: TestApp;
  let admin: SignedInUser;

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signedIn(t, 'admin');
  });
  afterAll(() => t.close());

  const db = () => t.db.database.db;
  const list = (query = '', session = admin.session) =>
    injectAs(t.app, session, { url: `/api/v1/audit-log${query ? `?${query}` : ''}` });

  describe('recordAudit', () => {
    it('writes one row with actor, action, entity, before, after and address, minus secrets', async () => {
      await recordAudit(db(), {
        actor: { userId: admin.user.id, ip: '203.0.113.9' },
        action: 'update',
        entityType: 'terminal',
        entityId: 42,
        before: { name: 'Till 1', api_key_hash: 'deadbeef' },
        after: { name: 'Till 2', api_key: 'tk_secret' },
        at: new Date('2026-01-10T10:00:00Z'),
      });
      const rows = await auditRowsOf(t, 'terminal', '42');
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        actor_user_id: admin.user.id,
        action: 'update',
        entity_type: 'terminal',
        entity_id: '42',
        before: { name: 'Till 1' },
        after: { name: 'Till 2' },
        ip: '203.0.113.9',
      });
      expect(new Date(rows[0]!.occurred_at).toISOString()).toBe('2026-01-10T10:00:00.000Z');
    });

    it('accepts a bare user id or no actor at all (system changes)', async () => {
      await recordAudit(db(), {
        actor: admin.user.id,
        action: 'run',
        entityType: 'job',
        entityId: 'a',
      });
      await recordAudit(db(), { actor: null, action: 'run', entityType: 'job', entityId: 'b' });
      expect((await auditRowsOf(t, 'job', 'a'))[0]).toMatchObject({
        actor_user_id: admin.user.id,
        ip: null,
      });
      expect((await auditRowsOf(t, 'job', 'b'))[0]).toMatchObject({ actor_user_id: null });
    });

    it('commits or rolls back with the change it records', async () => {
      await expect(
        db().transaction(async (tx) => {
          await recordAudit(tx, {
            actor: null,
            action: 'create',
            entityType: 'probe',
            entityId: 1,
          });
          throw new Error('the change failed');
        }),
      ).rejects.toThrow('the change failed');
      expect(await auditRowsOf(t, 'probe', 1)).toEqual([]);
    });

    it('refuses to update, delete or truncate audit rows', async () => {
      await recordAudit(db(), { actor: null, action: 'create', entityType: 'fixed', entityId: 1 });
      await expect(db().execute(sql`UPDATE audit_log SET action = 'forged'`)).rejects.toThrow();
      await expect(db().execute(sql`DELETE FROM audit_log`)).rejects.toThrow();
      await expect(db().execute(sql`TRUNCATE audit_log`)).rejects.toThrow();
      expect(await auditRowsOf(t, 'fixed', 1)).toHaveLength(1);
    });
  });

  describe('GET /audit-log', () => {
    let actor: SignedInUser;
    const entity = `probe${kind}`;

    beforeAll(async () => {
      actor = await signedIn(t, 'admin');
      const at = (iso: string) => new Date(iso);
      const write = (id: number, action: string, when: string, by: number | null) =>
        recordAudit(db(), {
          actor: by === null ? null : { userId: by, ip: '198.51.100.1' },
          action,
          entityType: entity,
          entityId: id,
          before: { n: id - 1 },
          after: { n: id },
          at: at(when),
        });
      await write(1, 'create', '2026-01-01T09:00:00Z', actor.user.id);
      await write(1, 'update', '2026-01-02T09:00:00Z', actor.user.id);
      await write(2, 'create', '2026-01-02T09:00:00Z', null);
      await write(2, 'delete', '2026-01-03T23:30:00Z', actor.user.id);
    });

    const ids = (res: { json(): { data: { entity_id: string; action: string }[] } }) =>
      res.json().data.map((e) => `${e.entity_id}:${e.action}`);

    it('lists entries newest first, later rows first on a tie, with the actor’s name', async () => {
      const res = await list(`entity_type=${entity}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().total).toBe(4);
      expect(ids(res)).toEqual(['2:delete', '2:create', '1:update', '1:create']);
      const first = auditEntrySchema.parse(res.json().data[0]);
      expect(first).toMatchObject({
        actor_user_id: actor.user.id,
        actor_username: actor.user.username,
        before: { n: 1 },
        after: { n: 2 },
        ip: '198.51.100.1',
        occurred_at: '2026-01-03T23:30:00.000Z',
      });
    });

    it('names the record a row is about by its current name: company, merchant, user', async () => {
      const company = await newCompany(t);
      const merchant = await newMerchant(t);
      const topup = await injectAs(t.app, admin.session, {
        method: 'POST',
        url: '/api/v1/tokens/topup-token',
        payload: { company_id: company.id, amount: 10 },
      });
      expect(topup.statusCode, topup.body).toBe(200);
      const renamed = await injectAs(t.app, admin.session, {
        method: 'PUT',
        url: `/api/v1/merchants/${merchant.id}`,
        payload: { name: `Named Shop ${kind}`, status: 'active' },
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      const rowOf = async (type: string, id: number | string) => {
        const res = await list(`entity_type=${type}&entity_id=${id}`);
        expect(res.statusCode, res.body).toBe(200);
        return auditEntrySchema.parse(res.json().data[0]);
      };
      expect(await rowOf('company', company.id)).toMatchObject({
        action: 'topup',
        entity_name: 'Test company',
      });
      expect(await rowOf('merchant', merchant.id)).toMatchObject({
        action: 'update',
        entity_name: `Named Shop ${kind}`,
      });
      // The name as it is now, not as it was when the row was written.
      await db().execute(
        sql`UPDATE companies SET name = ${`Named Co ${kind}`} WHERE id = ${company.id}`,
      );
      expect((await rowOf('company', company.id)).entity_name).toBe(`Named Co ${kind}`);
      // A record without a name people know (here a probe) has none.
      expect((await list(`entity_type=${entity}`)).json().data[0].entity_name).toBeNull();
    });

    it('filters by entity, actor, action and a date range of whole days', async () => {
      expect(ids(await list(`entity_type=${entity}&entity_id=1`))).toEqual([
        '1:update',
        '1:create',
      ]);
      expect(ids(await list(`entity_type=${entity}&actor_user_id=${actor.user.id}`))).toEqual([
        '2:delete',
        '1:update',
        '1:create',
      ]);
      expect(ids(await list(`entity_type=${entity}&action=create`))).toEqual([
        '2:create',
        '1:create',
      ]);
      expect(
        ids(await list(`entity_type=${entity}&date_from=2026-01-02&date_to=2026-01-03`)),
      ).toEqual(['2:delete', '2:create', '1:update']);
      expect(ids(await list(`entity_type=${entity}&date_to=2026-01-01`))).toEqual(['1:create']);
    });

    it('pages with page and page_size', async () => {
      const second = await list(`entity_type=${entity}&page=2&page_size=10`);
      expect(second.json()).toEqual({ data: [], total: 4 });
    });

    it('reads the date range in APP_TIMEZONE', async () => {
      const shanghai = await createTestApp(kind, { APP_TIMEZONE: 'Asia/Shanghai' });
      try {
        const me = await signedIn(shanghai, 'admin');
        await recordAudit(shanghai.db.database.db, {
          actor: null,
          action: 'create',
          entityType: 'tz',
          entityId: 1,
          // 2026-01-04 07:30 in Shanghai
          at: new Date('2026-01-03T23:30:00Z'),
        });
        const get = (q: string) =>
          injectAs(shanghai.app, me.session, { url: `/api/v1/audit-log?entity_type=tz&${q}` });
        expect((await get('date_from=2026-01-04&date_to=2026-01-04')).json().total).toBe(1);
        expect((await get('date_to=2026-01-03')).json().total).toBe(0);
      } finally {
        await shanghai.close();
      }
    });

    it('refuses bad filters', async () => {
      for (const [query, field] of [
        ['date_from=2026-13-01', 'date_from'],
        ['date_from=2026-01-05&date_to=2026-01-04', 'date_to'],
        ['actor_user_id=abc', 'actor_user_id'],
        ['entity_type=Users%3B', 'entity_type'],
        ['page_size=7', 'page_size'],
      ]) {
        const res = await list(query!);
        expect(res.statusCode, query).toBe(400);
        expect(res.json().code).toBe('QUERY_PARAM_INVALID');
        expect(Object.keys(res.json().metadata), query).toEqual([field]);
      }
    });

    it('sorts by an allow-listed column and finds who acted by part of a username', async () => {
      const sorted = await list(`entity_type=${entity}&sort=action&order=asc`);
      expect(ids(sorted)).toEqual(['1:create', '2:create', '2:delete', '1:update']);
      const desc = await list(`entity_type=${entity}&sort=action&order=desc`);
      expect(ids(desc)).toEqual(['1:update', '2:delete', '2:create', '1:create']);
      const part = actor.user.username.slice(2, 8).toUpperCase();
      expect(ids(await list(`entity_type=${entity}&actor=${part}`))).toEqual([
        '2:delete',
        '1:update',
        '1:create',
      ]);
      expect((await list(`entity_type=${entity}&actor=nobody-acts-so`)).json().total).toBe(0);
      const bad = await list('sort=ip');
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json().metadata)).toEqual(['sort']);
    });

    it('is for the admin, Group HR and company admins (each its scope), no one else', async () => {
      const roles = await oneOfEachRole(t);
      const readers: Role[] = ['admin', 'super_hr', 'company_admin'];
      for (const role of Object.keys(roles) as Role[]) {
        const res = await list('', roles[role].session);
        expect(res.statusCode, role).toBe(readers.includes(role) ? 200 : 403);
        const csv = await injectAs(t.app, roles[role].session, {
          url: '/api/v1/exports/audit-log',
        });
        expect(csv.statusCode, role).toBe(readers.includes(role) ? 200 : 403);
      }
      expect((await t.app.inject({ url: '/api/v1/audit-log' })).statusCode).toBe(401);
      expect((await t.app.inject({ url: '/api/v1/exports/audit-log' })).statusCode).toBe(401);
    });
  });

  describe('scope (decision 0036)', () => {
    const PROBE = `scope_probe_${kind}`;
    let a: { id: number };
    let b: { id: number };
    let adminA: SignedInUser;
    let adminB: SignedInUser;
    let hr: SignedInUser;
    /** The entity label of each probe row, by what it is about. */
    const probes: [label: string, type: string, id: string | number | null, after?: object][] = [];

    beforeAll(async () => {
      a = await newCompany(t);
      b = await newCompany(t);
      adminA = await signedIn(t, 'company_admin', { companyId: a.id });
      adminB = await signedIn(t, 'company_admin', { companyId: b.id });
      hr = await signedIn(t, 'super_hr');
      const otherAdmin = await signedIn(t, 'admin');
      const empA = await createEmployee(
        t.app.deps,
        { kind: 'company', companyId: a.id },
        { employee_id: `SA${kind}`, name: 'Scoped A', status: 'active' },
      );
      const empB = await createEmployee(
        t.app.deps,
        { kind: 'company', companyId: b.id },
        { employee_id: `SB${kind}`, name: 'Scoped B', status: 'active' },
      );
      const merchant = await newMerchant(t);
      probes.push(
        ['company A', 'company', a.id],
        ['company B', 'company', b.id],
        ['employee A', 'employee', empA.id],
        ['employee B', 'employee', empB.id],
        ['import A', 'employee', null, { company_id: a.id }],
        ['user admin A', 'user', adminA.user.id],
        ['sign-in admin B', 'sign_in', adminB.user.id],
        ['merchant', 'merchant', merchant.id],
        ['system', 'system_settings', 1],
        ['user hr', 'user', hr.user.id],
        ['user admin', 'user', otherAdmin.user.id],
        ['sign-in unknown', 'sign_in', null],
        ['terminal', 'terminal', 'not-a-number'],
      );
      for (const [label, entityType, entityId, after] of probes) {
        await recordAudit(db(), {
          actor: admin.user.id,
          action: PROBE,
          entityType,
          entityId,
          after: { label, ...after },
        });
      }
    });

    const seen = async (session: SignedInUser['session'], query = `action=${PROBE}`) => {
      const res = await list(`${query}&page_size=50`, session);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data as { after: { label: string } }[]).map((e) => e.after.label).sort();
    };

    it('the admin sees every row', async () => {
      expect(await seen(admin.session)).toEqual(probes.map(([label]) => label).sort());
    });

    it('Group HR sees the company side of the programme and its own account', async () => {
      expect(await seen(hr.session)).toEqual(
        [
          'company A',
          'company B',
          'employee A',
          'employee B',
          'import A',
          'user admin A',
          'sign-in admin B',
          'user hr',
        ].sort(),
      );
    });

    it('a company admin sees its company, its employees and its users, never another company’s', async () => {
      expect(await seen(adminA.session)).toEqual(
        ['company A', 'employee A', 'import A', 'user admin A'].sort(),
      );
      expect(await seen(adminB.session)).toEqual(
        ['company B', 'employee B', 'sign-in admin B'].sort(),
      );
      // Whatever the filters, nothing of the other company: its record ids find nothing.
      for (const query of [
        `entity_type=company&entity_id=${b.id}`,
        `entity_type=sign_in&entity_id=${adminB.user.id}`,
        `entity_type=user&entity_id=${adminB.user.id}`,
      ]) {
        expect((await list(query, adminA.session)).json().total, query).toBe(0);
      }
    });

    it('shows a company admin the addresses of its own people, not of the platform’s staff', async () => {
      const ADDRESS = `address_probe_${kind}`;
      for (const [by, ip] of [
        [admin.user.id, '198.51.100.7'],
        [adminA.user.id, '198.51.100.8'],
      ] as const) {
        await recordAudit(db(), {
          actor: { userId: by, ip },
          action: ADDRESS,
          entityType: 'company',
          entityId: a.id,
        });
      }
      const ips = async (session: SignedInUser['session']) =>
        ((await list(`action=${ADDRESS}`, session)).json().data as { ip: string | null }[]).map(
          (e) => e.ip,
        );
      expect(await ips(admin.session)).toEqual(['198.51.100.8', '198.51.100.7']);
      expect(await ips(hr.session)).toEqual(['198.51.100.8', '198.51.100.7']);
      expect(await ips(adminA.session)).toEqual(['198.51.100.8', null]);
      const csv = await injectAs(t.app, adminA.session, {
        url: `/api/v1/exports/audit-log?action=${ADDRESS}`,
      });
      const rows = parse(csv.body, { bom: true, columns: true }) as Record<string, string>[];
      expect(rows.map((r) => r.ip)).toEqual(['198.51.100.8', '']);
    });

    it('shows a company’s real sign-ins and failures to it, and to no other company', async () => {
      const failed = await t.app.inject({
        method: 'POST',
        url: '/api/v1/iam/login',
        payload: { username: adminA.user.username, password: 'Wrong-password-1' },
      });
      expect(failed.statusCode).toBe(401);
      const actions = async (session: SignedInUser['session']) =>
        (
          (
            await list(`entity_type=sign_in&entity_id=${adminA.user.id}&page_size=50`, session)
          ).json().data as { action: string; after: Record<string, unknown> }[]
        ).map((e) => e.action);
      expect(await actions(adminA.session)).toEqual(['sign_in_failed', 'sign_in']);
      expect(await actions(adminB.session)).toEqual([]);
      expect(await actions(hr.session)).toEqual(['sign_in_failed', 'sign_in']);
    });

    it('exports the same rows as CSV, with before and after as JSON and no other company’s', async () => {
      const res = await injectAs(t.app, adminA.session, {
        url: `/api/v1/exports/audit-log?action=${PROBE}&sort=entity_type`,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toContain('text/csv');
      const rows = parse(res.body, { bom: true, columns: true }) as Record<string, string>[];
      expect(Object.keys(rows[0]!)).toEqual([
        'id',
        'occurred_at',
        'actor_user_id',
        'actor_username',
        'action',
        'entity_type',
        'entity_id',
        'before',
        'after',
        'ip',
        'entity_name',
      ]);
      const listed = (
        await list(`action=${PROBE}&sort=entity_type&page_size=50`, adminA.session)
      ).json().data as { id: number }[];
      expect(rows.map((r) => Number(r.id))).toEqual(listed.map((e) => e.id));
      expect(rows.map((r) => JSON.parse(r.after!).label).sort()).toEqual(
        ['company A', 'employee A', 'import A', 'user admin A'].sort(),
      );
      expect(rows[0]).toMatchObject({ actor_username: admin.user.username, before: '' });
    });
  });

  it('writes nothing for a change the API refuses', async () => {
    const before = await queryRows<{ n: number }>(
      db(),
      sql`SELECT count(*)::int AS n FROM audit_log`,
    );
    const res = await injectAs(t.app, admin.session, {
      method: 'POST',
      url: '/api/v1/users',
      payload: { username: 'x', email: 'x', password: 'x', type: 'admin', status: 'active' },
    });
    expect(res.statusCode).toBe(400);
    const after = await queryRows<{ n: number }>(
      db(),
      sql`SELECT count(*)::int AS n FROM audit_log`,
    );
    expect(after[0]!.n).toBe(before[0]!.n);
  });
});
