import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { currentPeriodSchema, ROLES, type SystemPeriod } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { createUser, injectAs, signIn, type TestSession, type TestUser } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import { auditRowsOf, oneOfEachRole } from '../../../test/management';
import { advanceSystemPeriods, followingSystemResetDate, periodOpenedOn } from './system.service';

describe('system period arithmetic', () => {
  it('schedules the next reset on the reset day of the following month, clamped', () => {
    expect(followingSystemResetDate('2026-01-20', 20)).toBe('2026-02-20');
    expect(followingSystemResetDate('2026-01-31', 31)).toBe('2026-02-28');
    expect(followingSystemResetDate('2026-02-28', 31)).toBe('2026-03-31');
    expect(followingSystemResetDate('2028-01-30', 30)).toBe('2028-02-29');
    expect(followingSystemResetDate('2026-12-05', 5)).toBe('2027-01-05');
  });

  it('names a new period after its reset day’s month, never reusing or going back', () => {
    expect(periodOpenedOn('2026-01', '2026-02-01')).toBe('2026-02');
    expect(periodOpenedOn('2026-01', '2026-01-20')).toBe('2026-02');
    expect(periodOpenedOn('2026-01', '2026-04-10')).toBe('2026-04');
    expect(periodOpenedOn('2026-12', '2027-01-01')).toBe('2027-01');
  });
});

describe.each(await testDatabaseKinds())('system periods on %s', (kind) => {
  let t: TestApp;
  let adminUser: TestUser;

  beforeAll(async () => {
    t = await createTestApp(kind);
    adminUser = await createUser(t.db.database.db, { type: 'admin' });
  });
  afterAll(() => t.close());

  // Each test starts with no system period yet, on 15 January 2026.
  beforeEach(async () => {
    await t.db.database.db.execute(sql`DELETE FROM system_periods`);
    await t.db.database.db.execute(sql`DELETE FROM system_settings`);
    t.clock.set('2026-01-15T08:00:00Z');
  });

  /** Sessions expire as the clock moves on, so each call signs in afresh. */
  const admin = async (): Promise<TestSession> => signIn(t.app, adminUser.username);
  const get = async (url: string, session?: TestSession) =>
    injectAs(t.app, session ?? (await admin()), { url: `/api/v1/sys${url}` });
  const putSystemResetDate = async (payload: object, session?: TestSession) =>
    injectAs(t.app, session ?? (await admin()), {
      method: 'PUT',
      url: '/api/v1/sys/reset-date',
      payload,
    });
  const current = async () => {
    const res = await get('/current-period');
    expect(res.statusCode, res.body).toBe(200);
    return currentPeriodSchema.parse(res.json().data);
  };
  const periods = async (query = '') => {
    const res = await get(`/system-periods${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: SystemPeriod[]; total: number };
  };

  it('starts with the calendar month of first use, resetting on the 1st', async () => {
    expect(await current()).toEqual({
      period: '2026-01',
      starts_at: '2026-01-01T00:00:00.000Z',
      ends_at: '2026-02-01T00:00:00.000Z',
      next_reset_date: '2026-02-01',
    });
    const reset = await get('/reset-date');
    expect(reset.json()).toEqual({
      data: { reset_date: '2026-02-01', updated_at: null, updated_by: null },
    });
  });

  it('advances when the clock passes the reset, and lists periods newest first', async () => {
    await current();
    t.clock.set('2026-01-31T23:59:59Z');
    expect((await current()).period).toBe('2026-01');
    t.clock.set('2026-02-01T00:00:00Z');
    expect(await current()).toEqual({
      period: '2026-02',
      starts_at: '2026-02-01T00:00:00.000Z',
      ends_at: '2026-03-01T00:00:00.000Z',
      next_reset_date: '2026-03-01',
    });
    expect(await periods()).toEqual({
      total: 2,
      data: [
        {
          period: '2026-02',
          starts_at: '2026-02-01T00:00:00.000Z',
          ends_at: '2026-03-01T00:00:00.000Z',
          is_current: true,
        },
        {
          period: '2026-01',
          starts_at: '2026-01-01T00:00:00.000Z',
          ends_at: '2026-02-01T00:00:00.000Z',
          is_current: false,
        },
      ],
    });
  });

  it('catches up every reset missed while nobody looked', async () => {
    await current();
    t.clock.set('2026-04-15T00:00:00Z');
    expect((await current()).period).toBe('2026-04');
    const list = await periods('?page=1&page_size=10');
    expect(list.total).toBe(4);
    expect(list.data.map((p) => p.period)).toEqual(['2026-04', '2026-03', '2026-02', '2026-01']);
    expect((await periods('?page=2&page_size=10')).data).toEqual([]);
  });

  it('moves the end of the current period to the reset date an admin sets', async () => {
    await current();
    const res = await putSystemResetDate({ reset_date: '2026-01-20' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      reset_date: '2026-01-20',
      updated_at: '2026-01-15T08:00:00.000Z',
      updated_by: adminUser.id,
    });
    expect(await current()).toMatchObject({
      period: '2026-01',
      ends_at: '2026-01-20T00:00:00.000Z',
      next_reset_date: '2026-01-20',
    });
    expect((await get('/reset-date')).json().data.reset_date).toBe('2026-01-20');

    // The reset opens the next period and schedules the following one on the same day.
    t.clock.set('2026-01-20T00:00:00Z');
    expect(await current()).toEqual({
      period: '2026-02',
      starts_at: '2026-01-20T00:00:00.000Z',
      ends_at: '2026-02-20T00:00:00.000Z',
      next_reset_date: '2026-02-20',
    });
    t.clock.set('2026-02-20T00:00:00Z');
    expect((await current()).period).toBe('2026-03');
  });

  it('clamps a reset day of 31 to short months and returns to 31 after', async () => {
    await putSystemResetDate({ reset_date: '2026-01-31' });
    t.clock.set('2026-01-31T00:00:00Z');
    expect((await current()).next_reset_date).toBe('2026-02-28');
    t.clock.set('2026-02-28T00:00:00Z');
    expect((await current()).next_reset_date).toBe('2026-03-31');
  });

  it('records each reset-date change in the audit log', async () => {
    await putSystemResetDate({ reset_date: '2026-01-25' });
    await putSystemResetDate({ reset_date: '2026-02-10' });
    const rows = await auditRowsOf(t, 'system_settings', 'reset_date');
    expect(rows.slice(-2)).toMatchObject([
      {
        action: 'update',
        actor_user_id: adminUser.id,
        before: { reset_date: '2026-02-01', reset_day: 1 },
        after: { reset_date: '2026-01-25', reset_day: 25, current_period: '2026-01' },
      },
      {
        before: { reset_date: '2026-01-25' },
        after: { reset_date: '2026-02-10', reset_day: 10 },
      },
    ]);
  });

  it.each([
    ['2026-01-15', 'Reset date must be after today'],
    ['2025-12-31', 'Reset date must be after today'],
    ['2026-02-30', 'Enter a day that exists in the calendar'],
    ['2026-13-01', 'Enter a day that exists in the calendar'],
    ['10000-01-01', 'Enter a valid date (YYYY-MM-DD)'],
    ['15/02/2026', 'Enter a valid date (YYYY-MM-DD)'],
    ['', 'Enter a valid date (YYYY-MM-DD)'],
    // A number is not a missing date: the message says what is wrong (issue 14).
    [20260201, 'Enter a valid date (YYYY-MM-DD)'],
    [undefined, 'Fill in this field'],
  ])('refuses the reset date %j with "%s"', async (value, message) => {
    const res = await putSystemResetDate(value === undefined ? {} : { reset_date: value });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'BODY_INVALID', metadata: { reset_date: message } });
    expect((await current()).next_reset_date).toBe('2026-02-01');
  });

  it('refuses unknown fields in the reset-date body', async () => {
    const res = await putSystemResetDate({ reset_date: '2026-02-10', period: '2026-02' });
    expect(res.statusCode).toBe(400);
    expect(res.json().metadata).toEqual({ period: 'Remove this field' });
  });

  it('judges "after today" and midnight in APP_TIMEZONE', async () => {
    const shanghai = await createTestApp(kind, { APP_TIMEZONE: 'Asia/Shanghai' });
    try {
      const user = await createUser(shanghai.db.database.db, { type: 'admin' });
      // 20:00 UTC on 15 January is already 16 January in Shanghai.
      shanghai.clock.set('2026-01-15T20:00:00Z');
      const session = await signIn(shanghai.app, user.username);
      const call = (method: 'GET' | 'PUT', url: string, payload?: object) =>
        injectAs(shanghai.app, session, { method, url: `/api/v1/sys${url}`, payload });

      expect((await call('GET', '/current-period')).json().data).toEqual({
        period: '2026-01',
        starts_at: '2025-12-31T16:00:00.000Z',
        ends_at: '2026-01-31T16:00:00.000Z',
        next_reset_date: '2026-02-01',
      });
      const today = await call('PUT', '/reset-date', { reset_date: '2026-01-16' });
      expect(today.json().metadata).toEqual({ reset_date: 'Reset date must be after today' });
      const tomorrow = await call('PUT', '/reset-date', { reset_date: '2026-01-17' });
      expect(tomorrow.statusCode).toBe(200);
      expect((await call('GET', '/current-period')).json().data.ends_at).toBe(
        '2026-01-16T16:00:00.000Z',
      );
    } finally {
      await shanghai.close();
    }
  });

  it('lets a timer advance the periods, opening each once however often it runs', async () => {
    await current();
    t.clock.set('2026-03-01T00:00:00Z');
    const deps = t.app.deps;
    const runs = await Promise.all([
      advanceSystemPeriods(deps),
      advanceSystemPeriods(deps),
      advanceSystemPeriods(deps),
    ]);
    expect(runs.flat().sort()).toEqual(['2026-02', '2026-03']);
    expect(await advanceSystemPeriods(deps)).toEqual([]);
  });

  it('opens a due period once when many read it at the same moment', async () => {
    await current();
    t.clock.set('2026-02-01T00:00:00Z');
    const session = await admin();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => get('/current-period', session)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((a) => a.json().data.period))).toEqual(new Set(['2026-02']));
    expect((await periods()).total).toBe(2);
  });

  it('shows the current period to every signed-in role; the rest is for admins only', async () => {
    const roles = await oneOfEachRole(t);
    expect(Object.keys(roles).sort()).toEqual([...ROLES].sort());
    for (const [role, { session }] of Object.entries(roles)) {
      expect((await get('/current-period', session)).statusCode, role).toBe(200);
      const expected = role === 'admin' ? 200 : 403;
      expect((await get('/system-periods', session)).statusCode, role).toBe(expected);
      expect((await get('/reset-date', session)).statusCode, role).toBe(expected);
      const put = await putSystemResetDate({ reset_date: '2026-02-10' }, session);
      expect(put.statusCode, role).toBe(expected);
    }
    for (const [method, url] of [
      ['GET', '/current-period'],
      ['GET', '/system-periods'],
      ['GET', '/reset-date'],
      ['PUT', '/reset-date'],
    ] as const) {
      const res = await t.app.inject({
        method,
        url: `/api/v1/sys${url}`,
        payload: method === 'PUT' ? { reset_date: '2026-02-10' } : undefined,
      });
      expect(res.statusCode, url).toBe(401);
    }
  });
});
