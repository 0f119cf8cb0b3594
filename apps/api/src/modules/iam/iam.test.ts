import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfUserSchema } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { createUser, injectAs, signIn, type TestSession } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import { queryRows } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { setPassword } from './iam.service';
import { revokeUserSessions } from './sessions.repository';
import { hashToken } from './session-tokens';

const MINUTE = 60_000;

const login = (
  t: TestApp,
  username: unknown,
  password: unknown,
  headers = {},
  remoteAddress?: string,
) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/iam/login',
    headers,
    ...(remoteAddress ? { remoteAddress } : {}),
    payload: { username, password },
  });

const selfInfo = (t: TestApp, session: Pick<TestSession, 'cookie' | 'xsrf'>) =>
  injectAs(t.app, session, { url: '/api/v1/iam/self-info' });

const setCookieHeaders = (res: { headers: Record<string, unknown> }): string[] => {
  const raw = res.headers['set-cookie'];
  return Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
};
const setCookie = (res: { headers: Record<string, unknown> }, name: string) =>
  setCookieHeaders(res).find((c) => c.startsWith(`${name}=`));

describe.each(await testDatabaseKinds())('sign-in and sessions on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const db = () => t.db.database.db;

  describe('signing in', () => {
    it('sets an HttpOnly, SameSite=Lax session cookie and a readable XSRF-TOKEN cookie', async () => {
      const user = await createUser(db(), { type: 'admin' });
      const res = await login(t, user.username, user.password);

      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(selfUserSchema.parse(body.data.user)).toEqual({
        user_id: user.id,
        type: 'admin',
        username: user.username,
        email: user.email,
        employee_id: null,
        company_id: null,
        merchant_id: null,
        status: 'active',
        mfa_enabled: false,
        mfa_enrolment_required: false,
      });
      const sid = setCookie(res, 'sid')!;
      expect(sid).toMatch(/; HttpOnly/);
      expect(sid).toMatch(/; SameSite=Lax/);
      expect(sid).toMatch(/; Path=\//);
      expect(sid).not.toMatch(/Secure/);
      const xsrf = setCookie(res, 'XSRF-TOKEN')!;
      expect(xsrf).toMatch(/; Path=\//);
      expect(xsrf).not.toMatch(/HttpOnly/);
    });

    it('accepts the username or the email in any case', async () => {
      const user = await createUser(db(), { type: 'super_hr', email: 'Jane.Roe@Example.com' });
      expect((await login(t, user.username.toUpperCase(), user.password)).statusCode).toBe(200);
      expect((await login(t, 'jane.roe@example.COM', user.password)).statusCode).toBe(200);
    });

    it('answers self-info with the signed-in user', async () => {
      const user = await createUser(db(), { type: 'admin' });
      const session = await signIn(t.app, user.username, user.password);
      const res = await selfInfo(t, session);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: session.user });
    });

    it('issues a new session id at every sign-in and ends the one presented at sign-in', async () => {
      const user = await createUser(db(), { type: 'admin' });
      const first = await signIn(t.app, user.username, user.password);
      const second = await signIn(t.app, user.username, user.password);
      expect(second.sessionCookie.value).not.toBe(first.sessionCookie.value);
      expect(second.xsrf).not.toBe(first.xsrf);
      // Two sign-ins from two browsers both stay valid.
      expect((await selfInfo(t, first)).statusCode).toBe(200);
      expect((await selfInfo(t, second)).statusCode).toBe(200);

      // Signing in again from the first browser replaces its session.
      const third = await signIn(t.app, user.username, user.password, { cookie: first.cookie });
      expect(third.sessionCookie.value).not.toBe(first.sessionCookie.value);
      expect((await selfInfo(t, first)).statusCode).toBe(401);
      expect((await selfInfo(t, third)).statusCode).toBe(200);
    });

    it('stores only the SHA-256 digest of the session token, and nothing of the CSRF token', async () => {
      const user = await createUser(db(), { type: 'admin' });
      const session = await signIn(t.app, user.username, user.password);
      const rows = await queryRows<Record<string, unknown>>(
        db(),
        sql`SELECT * FROM sessions WHERE user_id = ${user.id}`,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.id_hash).toBe(hashToken(session.sessionCookie.value));
      const stored = JSON.stringify(rows);
      expect(stored).not.toContain(session.sessionCookie.value);
      expect(stored).not.toContain(session.xsrf);
      expect(stored).not.toContain(hashToken(session.xsrf));
    });
  });

  describe('refusals', () => {
    it('answers a wrong password and an unknown username with the same 401', async () => {
      const user = await createUser(db(), { type: 'admin' });
      const wrongPassword = await login(t, user.username, 'Wrong-Passw0rd');
      const unknownUser = await login(t, 'nobody.here', user.password);

      expect(wrongPassword.statusCode).toBe(401);
      expect(wrongPassword.json()).toEqual({
        statusCode: 401,
        error: 'Unauthorized',
        code: 'INVALID_CREDENTIALS',
        message: 'Incorrect username or password.',
      });
      expect(unknownUser.statusCode).toBe(401);
      expect(unknownUser.json()).toEqual(wrongPassword.json());
      expect(setCookieHeaders(wrongPassword)).toEqual([]);
      expect(setCookieHeaders(unknownUser)).toEqual([]);
    });

    it('refuses an inactive user with the right password, and treats a wrong one as invalid', async () => {
      const user = await createUser(db(), { type: 'admin', status: 'inactive' });
      const right = await login(t, user.username, user.password);
      expect(right.statusCode).toBe(403);
      expect(right.json()).toMatchObject({ code: 'USER_INACTIVE' });
      expect(setCookieHeaders(right)).toEqual([]);
      expect((await login(t, user.username, 'Wrong-Passw0rd')).json().code).toBe(
        'INVALID_CREDENTIALS',
      );
    });
  });

  describe('no account lock-out (decision 0014)', () => {
    it('never locks an account: after many failures the owner signs in, never a 423', async () => {
      const user = await createUser(db(), { type: 'admin' });
      const statuses = new Set<number>();
      for (let i = 0; i < 12; i += 1) {
        const res = await login(t, user.username, 'Wrong-Passw0rd', {}, '10.20.0.1');
        statuses.add(res.statusCode);
      }
      expect([...statuses].sort()).toEqual([401, 429]);
      // From another address at once; from the same one once its wait is over.
      expect((await login(t, user.username, user.password, {}, '10.20.0.2')).statusCode).toBe(200);
      t.clock.advance(16 * MINUTE);
      expect((await login(t, user.username, user.password, {}, '10.20.0.1')).statusCode).toBe(200);
      expect((await login(t, user.email, user.password, {}, '10.20.0.1')).statusCode).toBe(200);
    });
  });

  describe('CSRF and signing out', () => {
    it('refuses a cookie-authenticated POST without the X-XSRF-TOKEN header or with a wrong one', async () => {
      const user = await createUser(db(), { type: 'admin' });
      const session = await signIn(t.app, user.username, user.password);

      const missing = await t.app.inject({
        method: 'POST',
        url: '/api/v1/iam/logout',
        headers: { cookie: session.cookie },
      });
      expect(missing.statusCode).toBe(403);
      expect(missing.json()).toMatchObject({ code: 'CSRF_INVALID' });

      const other = await signIn(t.app, user.username, user.password);
      const wrong = await injectAs(
        t.app,
        { cookie: session.cookie, xsrf: other.xsrf },
        { method: 'POST', url: '/api/v1/iam/logout' },
      );
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json()).toMatchObject({ code: 'CSRF_INVALID' });
      // Neither refusal signed the user out.
      expect((await selfInfo(t, session)).statusCode).toBe(200);
    });

    it('signs out with the right header: the session ends server-side and cookies are cleared', async () => {
      const user = await createUser(db(), { type: 'admin' });
      const session = await signIn(t.app, user.username, user.password);

      const res = await injectAs(t.app, session, { method: 'POST', url: '/api/v1/iam/logout' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: { ok: true } });
      expect(setCookie(res, 'sid')).toMatch(/^sid=;.*Max-Age=0/);
      expect(setCookie(res, 'XSRF-TOKEN')).toMatch(/^XSRF-TOKEN=;.*Max-Age=0/);

      // A copy of the old cookie no longer opens anything.
      const after = await selfInfo(t, session);
      expect(after.statusCode).toBe(401);
      expect(after.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    });

    it('answers sign-out without a session with ok, clearing the cookies', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/iam/logout' });
      expect(res.statusCode).toBe(200);
      expect(setCookie(res, 'sid')).toMatch(/Max-Age=0/);
    });

    it('re-sends the same XSRF-TOKEN to a tab without it, so every tab keeps working', async () => {
      const user = await createUser(db(), { type: 'admin' });
      const session = await signIn(t.app, user.username, user.password);
      const sidOnly = `${session.sessionCookie.name}=${session.sessionCookie.value}`;
      const sessionRow = () =>
        queryRows<Record<string, unknown>>(
          db(),
          sql`SELECT * FROM sessions WHERE id_hash = ${hashToken(session.sessionCookie.value)}`,
        );
      const before = await sessionRow();

      // A second tab (or a browser that lost the cookie) asks who it is without XSRF-TOKEN.
      const res = await t.app.inject({
        url: '/api/v1/iam/self-info',
        headers: { cookie: sidOnly },
      });
      expect(res.statusCode).toBe(200);
      const resent = res.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value;
      expect(resent).toBe(session.xsrf);
      expect(setCookie(res, 'XSRF-TOKEN')).not.toMatch(/HttpOnly/);

      // With its cookie present, self-info leaves it alone.
      const again = await selfInfo(t, session);
      expect(setCookie(again, 'XSRF-TOKEN')).toBeUndefined();
      // The GETs changed no session row.
      expect(await sessionRow()).toEqual(before);

      // The first tab's token still works for a write.
      const ok = await injectAs(t.app, session, { method: 'POST', url: '/api/v1/iam/logout' });
      expect(ok.statusCode).toBe(200);
    });
  });

  describe('expiry', () => {
    const lastSeen = async (session: TestSession) => {
      const [row] = await queryRows<{ last_seen_at: string | Date }>(
        db(),
        sql`SELECT last_seen_at FROM sessions WHERE id_hash = ${hashToken(session.sessionCookie.value)}`,
      );
      return row ? new Date(row.last_seen_at).getTime() : null;
    };

    it('ends a session idle for SESSION_IDLE_MINUTES, sliding with use', async () => {
      const user = await createUser(db(), { type: 'admin' });
      const session = await signIn(t.app, user.username, user.password);
      const signedInAt = t.clock.now().getTime();

      // Used within a minute: last_seen_at is not rewritten.
      t.clock.advance(30_000);
      expect((await selfInfo(t, session)).statusCode).toBe(200);
      expect(await lastSeen(session)).toBe(signedInAt);

      t.clock.advance(29 * MINUTE);
      expect((await selfInfo(t, session)).statusCode).toBe(200);
      expect(await lastSeen(session)).toBe(t.clock.now().getTime());
      t.clock.advance(29 * MINUTE);
      expect((await selfInfo(t, session)).statusCode).toBe(200);

      t.clock.advance(30 * MINUTE);
      const res = await selfInfo(t, session);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
      expect(await lastSeen(session)).toBeNull();
    });

    it('ends a session SESSION_ABSOLUTE_HOURS after sign-in however busy it is', async () => {
      const user = await createUser(db(), { type: 'admin' });
      const session = await signIn(t.app, user.username, user.password);
      // 28 uses 25 minutes apart: 11 h 40 min, never idle.
      for (let i = 0; i < 28; i += 1) {
        t.clock.advance(25 * MINUTE);
        expect((await selfInfo(t, session)).statusCode).toBe(200);
      }
      t.clock.advance(20 * MINUTE - 1);
      expect((await selfInfo(t, session)).statusCode).toBe(200);
      t.clock.advance(1);
      expect((await selfInfo(t, session)).statusCode).toBe(401);
    });
  });

  describe('housekeeping at sign-in', () => {
    it("deletes the user's idle and expired sessions as it opens a new one, and nobody else's", async () => {
      const user = await createUser(db(), { type: 'admin' });
      const other = await createUser(db(), { type: 'admin' });
      const idle = await signIn(t.app, user.username, user.password);
      const othersIdle = await signIn(t.app, other.username, other.password);
      t.clock.advance(20 * MINUTE);
      const live = await signIn(t.app, user.username, user.password);
      // The first session has been idle for SESSION_IDLE_MINUTES (30), the second for 10.
      t.clock.advance(10 * MINUTE);
      const fresh = await signIn(t.app, user.username, user.password);
      const rows = await queryRows<{ id_hash: string; user_id: unknown }>(
        db(),
        sql`SELECT id_hash, user_id FROM sessions WHERE user_id IN (${user.id}, ${other.id})`,
      );
      const hashes = rows.map((r) => r.id_hash);
      expect(hashes).not.toContain(hashToken(idle.sessionCookie.value));
      expect(hashes).toContain(hashToken(live.sessionCookie.value));
      expect(hashes).toContain(hashToken(fresh.sessionCookie.value));
      // Another user's dead session waits for its own user's sign-in (or its own next use).
      expect(hashes).toContain(hashToken(othersIdle.sessionCookie.value));
      // And the new session works, answering self-info with TOTP off.
      const self = await selfInfo(t, fresh);
      expect(self.statusCode).toBe(200);
      expect(self.json().data).toMatchObject({ user_id: user.id, mfa_enabled: false });
    });
  });

  describe('ending sessions and setting passwords', () => {
    it('revokeUserSessions ends every session of the user and no other', async () => {
      const user = await createUser(db(), { type: 'admin' });
      const other = await createUser(db(), { type: 'admin' });
      const a = await signIn(t.app, user.username, user.password);
      const b = await signIn(t.app, user.username, user.password);
      const c = await signIn(t.app, other.username, other.password);

      expect(await revokeUserSessions(db(), user.id)).toBe(2);
      expect((await selfInfo(t, a)).statusCode).toBe(401);
      expect((await selfInfo(t, b)).statusCode).toBe(401);
      expect((await selfInfo(t, c)).statusCode).toBe(200);
    });

    it('refuses a session whose user has been deactivated', async () => {
      const user = await createUser(db(), { type: 'admin' });
      const session = await signIn(t.app, user.username, user.password);
      await queryRows(db(), sql`UPDATE users SET status = 'inactive' WHERE id = ${user.id}`);
      expect((await selfInfo(t, session)).statusCode).toBe(401);
    });

    it('setPassword applies the password rules and ends the sessions', async () => {
      const user = await createUser(db(), { type: 'admin' });
      const session = await signIn(t.app, user.username, user.password);

      const weak = await setPassword(db(), t.clock, { userId: user.id, password: 'password1!' })
        .then(() => null)
        .catch((e: unknown) => e);
      expect(weak).toBeInstanceOf(AppError);
      expect(weak).toMatchObject({
        code: 'BODY_INVALID',
        metadata: { password: 'v.password_upper' },
      });
      expect((await selfInfo(t, session)).statusCode).toBe(200);

      await setPassword(db(), t.clock, { userId: user.id, password: 'N3w-Password' });
      expect((await selfInfo(t, session)).statusCode).toBe(401);
      expect((await login(t, user.username, user.password)).statusCode).toBe(401);
      expect((await login(t, user.username, 'N3w-Password')).statusCode).toBe(200);
      const [row] = await queryRows<{ password_hash: string }>(
        db(),
        sql`SELECT password_hash FROM users WHERE id = ${user.id}`,
      );
      // At the test processes' cost (test/setup.ts); passwords.test.ts checks the servers' own.
      expect(row!.password_hash).toMatch(/^\$argon2id\$v=19\$m=64,t=1,p=1\$/);
    });
  });

  describe('validation', () => {
    it('answers missing fields with BODY_INVALID and a message per field, in English', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/iam/login', payload: {} });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        code: 'BODY_INVALID',
        message: 'The request body is invalid.',
        metadata: { username: 'Enter your username or email', password: 'Enter a password' },
      });
    });

    it('answers in Chinese to Accept-Language: zh-CN', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/iam/login',
        headers: { 'accept-language': 'zh-CN,zh;q=0.9' },
        payload: { username: 'someone' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'BODY_INVALID',
        message: '请求内容无效。',
        metadata: { password: '请输入密码' },
      });
    });

    it('refuses an unknown field', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/iam/login',
        payload: { username: 'someone', password: 'Passw0rd!', remember: true },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'BODY_INVALID',
        metadata: { remember: 'Remove this field' },
      });
    });
  });
});

describe.each(await testDatabaseKinds())('sign-in behind an HTTPS proxy on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { TRUST_PROXY: 'true' });
  });
  afterAll(() => t.close());

  const https = { 'x-forwarded-proto': 'https' };

  it('sets a Secure __Host-sid cookie and a Secure XSRF-TOKEN', async () => {
    const user = await createUser(t.db.database.db, { type: 'admin' });
    const res = await login(t, user.username, user.password, https);
    expect(res.statusCode).toBe(200);
    const sid = setCookie(res, '__Host-sid')!;
    expect(sid).toMatch(/; Secure/);
    expect(sid).toMatch(/; HttpOnly/);
    expect(sid).toMatch(/; SameSite=Lax/);
    expect(sid).toMatch(/; Path=\//);
    expect(sid).not.toMatch(/Domain=/);
    expect(setCookie(res, 'sid')).toBeUndefined();
    expect(setCookie(res, 'XSRF-TOKEN')).toMatch(/; Secure/);
    expect(setCookie(res, 'XSRF-TOKEN')).toMatch(/; SameSite=Lax/);

    const session = await signIn(t.app, user.username, user.password, https);
    expect(session.sessionCookie.name).toBe('__Host-sid');
    const me = await injectAs(t.app, session, { url: '/api/v1/iam/self-info', headers: https });
    expect(me.statusCode).toBe(200);
  });

  it('ignores a plain sid cookie on an HTTPS request', async () => {
    const user = await createUser(t.db.database.db, { type: 'admin' });
    const session = await signIn(t.app, user.username, user.password, https);
    const planted = { cookie: `sid=${session.sessionCookie.value}`, xsrf: session.xsrf };
    const res = await injectAs(t.app, planted, { url: '/api/v1/iam/self-info', headers: https });
    expect(res.statusCode).toBe(401);
  });

  it('keeps the plain cookie when the proxy says the request came over HTTP', async () => {
    const user = await createUser(t.db.database.db, { type: 'admin' });
    const res = await login(t, user.username, user.password, { 'x-forwarded-proto': 'http' });
    expect(setCookie(res, 'sid')).not.toMatch(/Secure/);
  });
});

describe.each(await testDatabaseKinds())('sign-in rate limit on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { LOGIN_RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(() => t.close());

  it('answers 429 TOO_MANY_REQUESTS in the envelope past the limit, per client address', async () => {
    const attempt = (remoteAddress: string, lang = 'en') =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/iam/login',
        remoteAddress,
        headers: { 'accept-language': lang },
        payload: { username: 'nobody.here', password: 'Passw0rd!' },
      });
    for (let i = 0; i < 3; i += 1) expect((await attempt('10.0.0.1')).statusCode).toBe(401);

    const limited = await attempt('10.0.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.json()).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      code: 'TOO_MANY_REQUESTS',
      message: 'Too many requests. Please wait and try again.',
    });
    expect((await attempt('10.0.0.1', 'zh-CN')).json().message).toBe('请求过于频繁，请稍后再试。');

    // Another address has its own allowance.
    expect((await attempt('10.0.0.2')).statusCode).toBe(401);
  });
});
