import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app';
import { createUser, injectAs, signIn, type TestSession, type TestUser } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import { sessionFromCookies } from '../../../test/http-session';
import { ConfigError, loadConfig } from '../../config';
import { queryRows } from '../../db/client';
import { MFA_KEY_FILE } from './mfa-keys';
import { MFA_CHALLENGE } from './mfa.service';

const STEP_MS = 30_000;

/** The code an authenticator app shows for `secret` at `at`. */
const codeAt = (secret: string, at: Date) =>
  OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), timestamp: at.getTime() });

const setCookies = (res: { headers: Record<string, unknown> }): string[] => {
  const raw = res.headers['set-cookie'];
  return Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
};
/** A cookie the answer sets to a value (a cleared cookie does not count). */
const setCookie = (res: { headers: Record<string, unknown> }, name: string) =>
  setCookies(res).find((c) => c.startsWith(`${name}=`) && !c.startsWith(`${name}=;`));

async function passwordStep(t: TestApp, user: TestUser) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/iam/login',
    payload: { username: user.username, password: user.password },
  });
  const challenge = setCookie(res, 'mfa_challenge');
  return { res, cookie: challenge ? challenge.split(';')[0]! : '' };
}

const secondStep = (t: TestApp, cookie: string, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/iam/login/mfa',
    headers: cookie ? { cookie } : {},
    payload,
  });

const sessionOf = (res: { headers: Record<string, unknown> }) =>
  sessionFromCookies(setCookies(res));

const selfInfo = (t: TestApp, session: Pick<TestSession, 'cookie' | 'xsrf'>) =>
  injectAs(t.app, session, { url: '/api/v1/iam/self-info' });

async function startEnrolment(t: TestApp, session: TestSession) {
  const res = await injectAs(t.app, session, { method: 'POST', url: '/api/v1/iam/mfa/totp' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { secret: string; otpauth_url: string };
}

/** Enrols a signed-in user at the clock's time; returns its secret and recovery codes. */
async function enrol(t: TestApp, session: TestSession) {
  const { secret } = await startEnrolment(t, session);
  const res = await injectAs(t.app, session, {
    method: 'POST',
    url: '/api/v1/iam/mfa/totp/verify',
    payload: { code: codeAt(secret, t.clock.now()) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { secret, recoveryCodes: res.json().data.recovery_codes as string[] };
}

const auditActions = async (t: TestApp, userId: number) =>
  (
    await queryRows<{ action: string; actor_user_id: string | null }>(
      t.db.database.db,
      sql`SELECT action, actor_user_id FROM audit_log
          WHERE entity_type = 'user' AND entity_id = ${String(userId)} ORDER BY id`,
    )
  ).map((r) => ({
    action: r.action,
    actor: r.actor_user_id === null ? null : Number(r.actor_user_id),
  }));

describe('two-factor configuration', () => {
  const base = { NODE_ENV: 'test', SERVE_WEB: 'false' } as const;

  it('requires admin and super_hr to enrol by default on a real deployment', () => {
    expect(loadConfig({ ...base, DATABASE_URL: 'postgres://x@db/app' }).mfaRequiredRoles).toEqual([
      'admin',
      'super_hr',
    ]);
    expect(
      loadConfig({ ...base, ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'Passw0rd!' }).mfaRequiredRoles,
    ).toEqual(['admin', 'super_hr']);
  });

  it('requires no one on the embedded demo unless told, and accepts none or a list', () => {
    expect(loadConfig({ ...base }).mfaRequiredRoles).toEqual([]);
    expect(loadConfig({ ...base, MFA_REQUIRED_ROLES: 'admin' }).mfaRequiredRoles).toEqual([
      'admin',
    ]);
    expect(
      loadConfig({ ...base, DATABASE_URL: 'postgres://x@db/app', MFA_REQUIRED_ROLES: 'none' })
        .mfaRequiredRoles,
    ).toEqual([]);
  });

  it('refuses an unknown role and a key that is not 32 bytes', () => {
    expect(() => loadConfig({ ...base, MFA_REQUIRED_ROLES: 'admin,root' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, MFA_ENCRYPTION_KEY: 'abcd' })).toThrow(/MFA_ENCRYPTION_KEY/);
    expect(
      loadConfig({ ...base, MFA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') }),
    ).toHaveProperty('mfaEncryptionKey', Buffer.alloc(32, 7));
  });
});

describe.each(await testDatabaseKinds())('two-factor sign-in on %s', (kind) => {
  let t: TestApp;
  let admin: TestUser;
  let adminSession: TestSession;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await createUser(t.db.database.db, { type: 'admin' });
    adminSession = await signIn(t.app, admin.username);
  });
  afterAll(() => t.close());

  const newUser = async () => {
    const user = await createUser(t.db.database.db, { type: 'super_hr' });
    return { user, session: await signIn(t.app, user.username) };
  };

  it('enrols: a base32 secret and its otpauth URL (SHA-1, 6 digits, 30 s), replaced until confirmed', async () => {
    const { user, session } = await newUser();
    const first = await startEnrolment(t, session);
    expect(first.secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(first.otpauth_url);
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe(first.secret);
    expect(url.searchParams.get('algorithm')).toBe('SHA1');
    expect(url.searchParams.get('digits')).toBe('6');
    expect(url.searchParams.get('period')).toBe('30');
    expect(decodeURIComponent(url.pathname)).toContain(user.email!);

    const second = await startEnrolment(t, session);
    expect(second.secret).not.toBe(first.secret);
    const stale = await injectAs(t.app, session, {
      method: 'POST',
      url: '/api/v1/iam/mfa/totp/verify',
      payload: { code: codeAt(first.secret, t.clock.now()) },
    });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().code).toBe('MFA_CODE_INVALID');
    expect((await selfInfo(t, session)).json().data.mfa_enabled).toBe(false);
  });

  it('refuses a wrong code, then turns TOTP on with the right one and gives ten recovery codes', async () => {
    const { user, session } = await newUser();
    const { secret } = await startEnrolment(t, session);
    const right = codeAt(secret, t.clock.now());
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    const refused = await injectAs(t.app, session, {
      method: 'POST',
      url: '/api/v1/iam/mfa/totp/verify',
      payload: { code: wrong },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('MFA_CODE_INVALID');
    expect((await selfInfo(t, session)).json().data.mfa_enabled).toBe(false);

    const res = await injectAs(t.app, session, {
      method: 'POST',
      url: '/api/v1/iam/mfa/totp/verify',
      payload: { code: right },
    });
    expect(res.statusCode, res.body).toBe(200);
    const codes = res.json().data.recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);

    expect((await selfInfo(t, session)).json().data).toMatchObject({
      mfa_enabled: true,
      mfa_enrolment_required: false,
    });
    const status = await injectAs(t.app, session, { url: '/api/v1/iam/mfa' });
    expect(status.json().data).toEqual({
      mfa_enabled: true,
      mfa_enrolment_required: false,
      recovery_codes_remaining: 10,
    });
    const again = await injectAs(t.app, session, { method: 'POST', url: '/api/v1/iam/mfa/totp' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('MFA_ALREADY_ENABLED');
    // Enrolment, the wrong code and the right one are each audited, in order (decision 0036).
    expect(await auditActions(t, user.id)).toEqual([
      { action: 'mfa_enrolment_started', actor: user.id },
      { action: 'mfa_enable_failed', actor: user.id },
      { action: 'mfa_enable', actor: user.id },
    ]);
    // No trace of the secret or the recovery codes in the audit log.
    const logged = await queryRows<{ row: string }>(
      t.db.database.db,
      sql`SELECT row_to_json(a)::text AS row FROM audit_log a
          WHERE entity_type = 'user' AND entity_id = ${String(user.id)}`,
    );
    for (const { row } of logged) {
      expect(row).not.toContain(secret);
      for (const code of codes) expect(row).not.toContain(code);
    }
  });

  it('keeps the secret encrypted and the recovery codes hashed at rest', async () => {
    const { user, session } = await newUser();
    const { secret, recoveryCodes } = await enrol(t, session);
    const [row] = await queryRows<{ secret_encrypted: string }>(
      t.db.database.db,
      sql`SELECT secret_encrypted FROM user_totp WHERE user_id = ${user.id}`,
    );
    expect(row!.secret_encrypted).not.toBe(secret);
    expect(row!.secret_encrypted).not.toContain(secret);
    expect(row!.secret_encrypted).toMatch(/^v1\./);
    const hashes = await queryRows<{ code_hash: string }>(
      t.db.database.db,
      sql`SELECT code_hash FROM user_recovery_codes WHERE user_id = ${user.id}`,
    );
    expect(hashes).toHaveLength(10);
    const stored = hashes.map((h) => h.code_hash).join(' ');
    for (const code of recoveryCodes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace('-', ''));
    }
  });

  it('grants nothing for the password alone, then signs in with the code, and refuses its replay', async () => {
    const { user, session } = await newUser();
    const { secret } = await enrol(t, session);
    t.clock.advance(STEP_MS);

    const { res, cookie } = await passwordStep(t, user);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { mfa_required: true } });
    expect(setCookie(res, 'sid')).toBeUndefined();
    expect(setCookie(res, 'XSRF-TOKEN')).toBeUndefined();
    expect(setCookie(res, 'mfa_challenge')).toMatch(/HttpOnly/i);
    // Whatever the browser now holds, it is no session.
    const anonymous = await t.app.inject({
      url: '/api/v1/iam/self-info',
      headers: { cookie },
    });
    expect(anonymous.statusCode).toBe(401);

    const code = codeAt(secret, t.clock.now());
    const done = await secondStep(t, cookie, { code });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data.user).toMatchObject({ user_id: user.id, mfa_enabled: true });
    expect(setCookie(done, 'sid')).toBeDefined();
    const signedIn = sessionOf(done);
    expect((await selfInfo(t, signedIn)).statusCode).toBe(200);

    // The same code again, on a new sign-in within its step: refused.
    const replay = await passwordStep(t, user);
    const refused = await secondStep(t, replay.cookie, { code });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('MFA_CODE_INVALID');
    // The next step's code is fine.
    t.clock.advance(STEP_MS);
    const next = await secondStep(t, replay.cookie, { code: codeAt(secret, t.clock.now()) });
    expect(next.statusCode).toBe(200);
    const actions = (await auditActions(t, user.id)).map((a) => a.action);
    expect(actions).toContain('sign_in_mfa');
    expect(actions).toContain('sign_in_mfa_failed');
  });

  it('accepts a recovery code once, in its own field or typed in the code field', async () => {
    const { user, session } = await newUser();
    const { recoveryCodes } = await enrol(t, session);
    const [first, second] = recoveryCodes as [string, string];

    const a = await passwordStep(t, user);
    const used = await secondStep(t, a.cookie, { recovery_code: first.toUpperCase() });
    expect(used.statusCode, used.body).toBe(200);

    const b = await passwordStep(t, user);
    const again = await secondStep(t, b.cookie, { recovery_code: first });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('MFA_CODE_INVALID');
    const typed = await secondStep(t, b.cookie, { code: second.replace('-', ' ') });
    expect(typed.statusCode).toBe(200);

    const status = await injectAs(t.app, sessionOf(typed), { url: '/api/v1/iam/mfa' });
    expect(status.json().data.recovery_codes_remaining).toBe(8);
    const actions = (await auditActions(t, user.id)).map((a) => a.action);
    expect(actions.filter((x) => x === 'recovery_code_used')).toHaveLength(2);
  });

  it(`voids a challenge after ${MFA_CHALLENGE.maxFailures} wrong codes; the password must be given again`, async () => {
    const { user, session } = await newUser();
    const { secret } = await enrol(t, session);
    t.clock.advance(STEP_MS);
    const { cookie } = await passwordStep(t, user);
    const right = codeAt(secret, t.clock.now());
    const wrong = String((Number(right) + 500_000) % 1_000_000).padStart(6, '0');
    for (let i = 1; i < MFA_CHALLENGE.maxFailures; i += 1) {
      const res = await secondStep(t, cookie, { code: wrong });
      expect(res.json().code, `attempt ${i}`).toBe('MFA_CODE_INVALID');
    }
    const last = await secondStep(t, cookie, { code: wrong });
    expect(last.statusCode).toBe(401);
    expect(last.json().code).toBe('MFA_CHALLENGE_INVALID');
    const afterwards = await secondStep(t, cookie, { code: right });
    expect(afterwards.statusCode).toBe(401);
    expect(afterwards.json().code).toBe('MFA_CHALLENGE_INVALID');

    const fresh = await passwordStep(t, user);
    expect((await secondStep(t, fresh.cookie, { code: right })).statusCode).toBe(200);
  });

  it('throttles codes like passwords: fresh challenges keep the count, and a wait is 429 even for the right code', async () => {
    const { user, session } = await newUser();
    const { secret } = await enrol(t, session);
    t.clock.advance(STEP_MS);
    const right = () => codeAt(secret, t.clock.now());
    const wrong = () => String((Number(right()) + 500_000) % 1_000_000).padStart(6, '0');
    let throttled: Awaited<ReturnType<typeof secondStep>> | undefined;
    let cookie = '';
    let wrongCodes = 0;
    for (let round = 0; round < 4 && !throttled; round += 1) {
      cookie = (await passwordStep(t, user)).cookie;
      // Fewer than the challenge's own limit, so only the shared throttle can stop them.
      for (let i = 0; i < MFA_CHALLENGE.maxFailures - 1; i += 1) {
        const res = await secondStep(t, cookie, { code: wrong() });
        if (res.statusCode === 429) {
          throttled = res;
          break;
        }
        expect(res.json().code).toBe('MFA_CODE_INVALID');
        wrongCodes += 1;
      }
    }
    expect(throttled?.json().code).toBe('TOO_MANY_REQUESTS');
    // The free failures, then one more that starts the first wait.
    expect(wrongCodes).toBe(6);
    const retryAfter = Number(throttled?.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect((await secondStep(t, cookie, { code: right() })).statusCode).toBe(429);

    t.clock.advance(retryAfter * 1_000);
    const done = await secondStep(t, cookie, { code: right() });
    expect(done.statusCode).toBe(200);
    // A completed sign-in settles the count: the next sign-in's first wrong code is no 429.
    t.clock.advance(STEP_MS);
    const next = await passwordStep(t, user);
    expect((await secondStep(t, next.cookie, { code: wrong() })).json().code).toBe(
      'MFA_CODE_INVALID',
    );
  });

  // Issue 39 item 5 (decision 0070): "Clear sign-in wait" clears the second factor's wait too.
  it('accepts the owner’s right code at once after an admin clears its sign-in wait', async () => {
    const { user, session } = await newUser();
    const { secret } = await enrol(t, session);
    t.clock.advance(STEP_MS);
    const right = () => codeAt(secret, t.clock.now());
    const wrong = () => String((Number(right()) + 500_000) % 1_000_000).padStart(6, '0');
    let cookie = '';
    let throttled = false;
    for (let round = 0; round < 4 && !throttled; round += 1) {
      cookie = (await passwordStep(t, user)).cookie;
      for (let i = 0; i < MFA_CHALLENGE.maxFailures - 1 && !throttled; i += 1) {
        throttled = (await secondStep(t, cookie, { code: wrong() })).statusCode === 429;
      }
    }
    expect(throttled).toBe(true);
    expect((await secondStep(t, cookie, { code: right() })).statusCode).toBe(429);

    const cleared = await injectAs(t.app, adminSession, {
      method: 'DELETE',
      url: `/api/v1/users/${user.id}/sign-in-throttle`,
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    // The codes' counter and the pending password step's attempt.
    expect(cleared.json().data.cleared).toBe(2);
    const done = await secondStep(t, cookie, { code: right() });
    expect(done.statusCode, done.body).toBe(200);
  });

  // Issue 39 item 5: a session alone cannot remove the second factor that protects it.
  it('refuses DELETE /users/{own id}/mfa: one’s own second factor goes only with a code', async () => {
    const me = await createUser(t.db.database.db, { type: 'admin' });
    const mine = await signIn(t.app, me.username);
    const { secret } = await enrol(t, mine);
    const res = await injectAs(t.app, mine, {
      method: 'DELETE',
      url: `/api/v1/users/${me.id}/mfa`,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'MFA_RESET_OWN' });
    expect((await selfInfo(t, mine)).json().data.mfa_enabled).toBe(true);
    expect(await auditActions(t, me.id)).not.toContainEqual({ action: 'mfa_reset', actor: me.id });
    // With a code, through its own route, it goes.
    t.clock.advance(STEP_MS);
    const off = await injectAs(t.app, mine, {
      method: 'DELETE',
      url: '/api/v1/iam/mfa/totp',
      payload: { code: codeAt(secret, t.clock.now()) },
    });
    expect(off.statusCode, off.body).toBe(200);
  });

  it('refuses a second step without a challenge, or after five minutes', async () => {
    const { user, session } = await newUser();
    const { secret } = await enrol(t, session);
    const none = await secondStep(t, '', { code: '123456' });
    expect(none.statusCode).toBe(401);
    expect(none.json().code).toBe('MFA_CHALLENGE_INVALID');

    const { cookie } = await passwordStep(t, user);
    t.clock.advance(MFA_CHALLENGE.ttlMs);
    const late = await secondStep(t, cookie, { code: codeAt(secret, t.clock.now()) });
    expect(late.statusCode).toBe(401);
    expect(late.json().code).toBe('MFA_CHALLENGE_INVALID');
  });

  it('turns TOTP off with a code (not with a wrong one); the password then signs in alone', async () => {
    const { user, session } = await newUser();
    const { secret } = await enrol(t, session);
    t.clock.advance(STEP_MS);
    const wrong = await injectAs(t.app, session, {
      method: 'DELETE',
      url: '/api/v1/iam/mfa/totp',
      payload: { code: '000000' === codeAt(secret, t.clock.now()) ? '111111' : '000000' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('MFA_CODE_INVALID');

    const off = await injectAs(t.app, session, {
      method: 'DELETE',
      url: '/api/v1/iam/mfa/totp',
      payload: { code: codeAt(secret, t.clock.now()) },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect((await selfInfo(t, session)).json().data.mfa_enabled).toBe(false);
    const again = await injectAs(t.app, session, {
      method: 'DELETE',
      url: '/api/v1/iam/mfa/totp',
      payload: { code: '123456' },
    });
    expect(again.json().code).toBe('MFA_NOT_ENABLED');

    const { res } = await passwordStep(t, user);
    expect(res.json().data.user).toMatchObject({ user_id: user.id, mfa_enabled: false });
    expect(await auditActions(t, user.id)).toContainEqual({
      action: 'mfa_disable',
      actor: user.id,
    });
  });

  it('lets an admin reset another user’s second factor, audited; 404 for an unknown user', async () => {
    const { user, session } = await newUser();
    await enrol(t, session);
    const res = await injectAs(t.app, adminSession, {
      method: 'DELETE',
      url: `/api/v1/users/${user.id}/mfa`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await auditActions(t, user.id)).toContainEqual({ action: 'mfa_reset', actor: admin.id });
    const { res: login } = await passwordStep(t, user);
    expect(login.json().data.user).toMatchObject({ user_id: user.id, mfa_enabled: false });

    const unknown = await injectAs(t.app, adminSession, {
      method: 'DELETE',
      url: '/api/v1/users/987654/mfa',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('RECORD_NOT_FOUND');
    // Only an admin may: Group HR is refused.
    const refused = await injectAs(t.app, session, {
      method: 'DELETE',
      url: `/api/v1/users/${admin.id}/mfa`,
    });
    expect(refused.statusCode).toBe(403);
  });
});

describe.each(await testDatabaseKinds())('the enrolment gate on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { MFA_REQUIRED_ROLES: 'admin' });
  });
  afterAll(() => t.close());

  it('refuses a required role everything but self-info, sign-out and enrolment until it enrols', async () => {
    const admin = await createUser(t.db.database.db, { type: 'admin' });
    const hr = await createUser(t.db.database.db, { type: 'super_hr' });
    const session = await signIn(t.app, admin.username);
    expect(session.user).toMatchObject({ mfa_enabled: false, mfa_enrolment_required: true });
    const me = await selfInfo(t, session);
    expect(me.statusCode).toBe(200);
    expect(me.json().data.mfa_enrolment_required).toBe(true);

    for (const url of ['/api/v1/companies', '/api/v1/users', '/api/v1/dashboard']) {
      const res = await injectAs(t.app, session, { url });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().code, url).toBe('MFA_ENROLMENT_REQUIRED');
    }
    const status = await injectAs(t.app, session, { url: '/api/v1/iam/mfa' });
    expect(status.statusCode).toBe(200);
    // A role not named is not held back.
    const hrSession = await signIn(t.app, hr.username);
    expect((await injectAs(t.app, hrSession, { url: '/api/v1/companies' })).statusCode).toBe(200);

    await enrol(t, session);
    expect((await injectAs(t.app, session, { url: '/api/v1/companies' })).statusCode).toBe(200);
    expect((await selfInfo(t, session)).json().data.mfa_enrolment_required).toBe(false);
    const out = await injectAs(t.app, session, { method: 'POST', url: '/api/v1/iam/logout' });
    expect(out.statusCode).toBe(200);
  });
});

describe.each(await testDatabaseKinds())('the TOTP secret key on %s', (kind) => {
  it('refuses enrolment with MFA_NOT_CONFIGURED when DATABASE_URL is set without a key, and still starts', async () => {
    const t = await createTestApp(kind, {
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/unused',
      MFA_ENCRYPTION_KEY: '',
    });
    try {
      const user = await createUser(t.db.database.db, { type: 'admin' });
      const session = await signIn(t.app, user.username);
      const res = await injectAs(t.app, session, { method: 'POST', url: '/api/v1/iam/mfa/totp' });
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('MFA_NOT_CONFIGURED');
    } finally {
      await t.close();
    }
  });

  it('makes a key file (0600) in DATA_DIR on the embedded default, and reuses it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mfa-key-'));
    const t = await createTestApp(kind, { MFA_ENCRYPTION_KEY: '', DATA_DIR: dataDir });
    try {
      const user = await createUser(t.db.database.db, { type: 'admin' });
      const session = await signIn(t.app, user.username);
      await enrol(t, session);
      const file = path.join(dataDir, MFA_KEY_FILE);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const key = fs.readFileSync(file, 'utf8');
      expect(key.trim()).toMatch(/^[0-9a-f]{64}$/);
      // The second factor still works: the same key decrypts the stored secret.
      t.clock.advance(STEP_MS);
      const { res } = await passwordStep(t, user);
      expect(res.json().data).toEqual({ mfa_required: true });
      expect(fs.readFileSync(file, 'utf8')).toBe(key);
    } finally {
      await t.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
