// OIDC sign-in for back-office users (DESIGN 9, issue 45 item 1, decision 0086), against a real
// OpenID provider on loopback (`oidc-provider`, test/oidc-provider.ts): the Super Admin's
// providers with a write-only secret, the sign-in page's lookup, the code flow with PKCE, state and
// nonce, the account made just in time and found again, and each refusal: a wrong audience, an
// expired ID token, a replayed state, a bad nonce, an inactive account.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Company } from '@app/contract';
import { createTestApp, type TestApp } from '../../../test/app';
import { createUser, injectAs, type TestSession } from '../../../test/auth';
import { testDatabaseKinds } from '../../../test/databases';
import { sessionFromCookies } from '../../../test/http-session';
import { newCompany, signedIn } from '../../../test/management';
import {
  startTestOidcProvider,
  visitProvider,
  type TestOidcProvider,
} from '../../../test/oidc-provider';
import { queryRows } from '../../db/client';

/** `app.inject` reaches the app as http://localhost: the redirect URI to register. */
const REDIRECT_URI = 'http://localhost/api/v1/iam/oidc/callback';
const PROVIDERS = '/api/v1/sys/identity-providers';

describe.each(await testDatabaseKinds())('OIDC sign-in on %s', (kind) => {
  let t: TestApp;
  let idp: TestOidcProvider;
  let admin: TestSession;
  let acme: Company;
  let providerId: number;

  const audit = (action: string) =>
    queryRows<{ action: string; entity_id: unknown; after: Record<string, unknown> }>(
      t.db.database.db,
      sql`SELECT action, entity_id, after FROM audit_log WHERE action = ${action} ORDER BY id DESC`,
    );

  /** Start → the provider → the callback, as a browser; answers the callback's response. */
  async function signInWithProvider(sub: string, options: { from?: string } = {}) {
    idp.next = { sub };
    const start = await t.app.inject({
      method: 'GET',
      url: `/api/v1/iam/oidc/${providerId}/start?from=${encodeURIComponent(options.from ?? '/companies')}`,
    });
    expect(start.statusCode, start.body).toBe(302);
    const stateCookie = start.cookies.find((c) => c.name === 'oidc_state')!;
    expect(stateCookie.httpOnly).toBe(true);
    const back = await visitProvider(start.headers.location as string);
    expect(back.origin + back.pathname).toBe(REDIRECT_URI);
    const callback = await t.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      cookies: { oidc_state: stateCookie.value },
    });
    return { callback, callbackUrl: `${back.pathname}${back.search}`, state: stateCookie.value };
  }

  const sessionOf = (response: { headers: Record<string, unknown> }) => {
    const setCookie = response.headers['set-cookie'] ?? [];
    return sessionFromCookies((Array.isArray(setCookie) ? setCookie : [setCookie]) as string[]);
  };
  const refusedWith = (response: { statusCode: number; headers: Record<string, unknown> }) => {
    expect(response.statusCode).toBe(302);
    const location = new URL(String(response.headers.location), 'http://localhost');
    expect(location.pathname).toBe('/login');
    const setCookie = JSON.stringify(response.headers['set-cookie'] ?? []);
    expect(setCookie).not.toMatch(/sid=[^;]/);
    return location.searchParams.get('sso_error');
  };

  beforeAll(async () => {
    idp = await startTestOidcProvider([REDIRECT_URI]);
    t = await createTestApp(kind);
    admin = (await signedIn(t, 'admin')).session;
    acme = await newCompany(t);
    const put = await injectAs(t.app, admin, {
      method: 'PUT',
      url: PROVIDERS,
      payload: {
        providers: [
          {
            name: 'Acme Login',
            issuer: idp.issuer,
            client_id: idp.clientId,
            client_secret: idp.clientSecret,
            email_domains: ['Acme.test'],
            company_id: acme.id,
            default_type: 'company_admin',
          },
        ],
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    providerId = put.json().data[0].id;
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  it('keeps the providers for the Super Admin only, the secret write-only and sealed', async () => {
    const list = await injectAs(t.app, admin, { method: 'GET', url: PROVIDERS });
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toEqual([
      expect.objectContaining({
        id: providerId,
        name: 'Acme Login',
        issuer: idp.issuer,
        client_id: idp.clientId,
        client_secret_set: true,
        email_domains: ['acme.test'],
        company_id: acme.id,
        default_type: 'company_admin',
      }),
    ]);
    expect(list.body).not.toContain(idp.clientSecret);
    const [row] = await queryRows<{ client_secret_encrypted: string }>(
      t.db.database.db,
      sql`SELECT client_secret_encrypted FROM identity_providers WHERE id = ${providerId}`,
    );
    expect(row!.client_secret_encrypted).toMatch(/^v1\./);
    expect(row!.client_secret_encrypted).not.toContain(idp.clientSecret);
    const audits = await queryRows<{ after: unknown }>(
      t.db.database.db,
      sql`SELECT after FROM audit_log WHERE entity_type = 'identity_provider'`,
    );
    expect(audits.length).toBeGreaterThan(0);
    expect(JSON.stringify(audits)).not.toContain(idp.clientSecret);

    // A new provider needs a secret; a domain belongs to one provider.
    const current = list.json().data[0];
    const keep = {
      id: current.id,
      name: current.name,
      issuer: current.issuer,
      client_id: current.client_id,
      email_domains: current.email_domains,
      company_id: current.company_id,
      default_type: current.default_type,
    };
    const noSecret = await injectAs(t.app, admin, {
      method: 'PUT',
      url: PROVIDERS,
      payload: { providers: [keep, { ...keep, id: undefined, name: 'Second' }] },
    });
    expect(noSecret.statusCode).toBe(400);
    expect(noSecret.json().code).toBe('BODY_INVALID');
    const taken = await injectAs(t.app, admin, {
      method: 'PUT',
      url: PROVIDERS,
      payload: {
        providers: [keep, { ...keep, id: undefined, name: 'Second', client_secret: 'x' }],
      },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('EMAIL_DOMAIN_TAKEN');
    // Saved again without a secret: the secret stays.
    const again = await injectAs(t.app, admin, {
      method: 'PUT',
      url: PROVIDERS,
      payload: { providers: [keep] },
    });
    expect(again.statusCode, again.body).toBe(200);
    const [kept] = await queryRows<{ client_secret_encrypted: string }>(
      t.db.database.db,
      sql`SELECT client_secret_encrypted FROM identity_providers WHERE id = ${providerId}`,
    );
    expect(kept!.client_secret_encrypted).toBe(row!.client_secret_encrypted);

    const hr = (await signedIn(t, 'super_hr')).session;
    expect((await injectAs(t.app, hr, { method: 'GET', url: PROVIDERS })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: PROVIDERS })).statusCode).toBe(401);
  });

  it('tells the sign-in page which provider signs in an email, and nothing else', async () => {
    const match = await t.app.inject({
      method: 'GET',
      url: '/api/v1/iam/oidc/providers?email=Ann%40ACME.test',
    });
    expect(match.statusCode, match.body).toBe(200);
    expect(match.json()).toEqual({ data: { provider: { id: providerId, name: 'Acme Login' } } });
    const none = await t.app.inject({
      method: 'GET',
      url: '/api/v1/iam/oidc/providers?email=ann%40example.com',
    });
    expect(none.json()).toEqual({ data: { provider: null } });
  });

  it('signs in, making the account just in time with the mapped type and company, then finds it again', async () => {
    idp.accounts.set('ann-sub', { sub: 'ann-sub', email: 'ann@acme.test', email_verified: true });
    const { callback } = await signInWithProvider('ann-sub', { from: '/companies?page=2' });
    expect(callback.statusCode, callback.body).toBe(302);
    expect(callback.headers.location).toBe('/companies?page=2');
    const session = sessionOf(callback);
    const self = await injectAs(t.app, session, { method: 'GET', url: '/api/v1/iam/self-info' });
    expect(self.statusCode, self.body).toBe(200);
    const user = self.json().data;
    expect(user).toMatchObject({
      type: 'company_admin',
      company_id: acme.id,
      email: 'ann@acme.test',
      username: 'ann',
      status: 'active',
    });
    const [created] = await audit('create');
    expect(created!.after).toMatchObject({ source: 'oidc', provider_id: providerId });
    const [signIn] = await audit('sign_in');
    expect(signIn!.after).toMatchObject({
      method: 'oidc',
      provider_id: providerId,
      created: true,
      second_factor_at_provider: false,
    });

    // An OIDC sign-in is a fresh sign-in for step-up (decision 0083): a rules change goes through.
    const rules = await injectAs(t.app, session, {
      method: 'PUT',
      url: `/api/v1/companies/${acme.id}/spending-rules`,
      payload: {
        effective_from: '2026-02-01',
        daily_limit: 25,
        order_limit: null,
        weekdays: [1, 2, 3, 4, 5],
        hours: null,
        closed_on_holidays: false,
        merchant_categories: null,
        partial_payment: false,
      },
    });
    expect(rules.statusCode, rules.body).toBe(200);

    const second = await signInWithProvider('ann-sub');
    expect(second.callback.statusCode).toBe(302);
    expect(second.callback.headers.location).toBe('/companies');
    const again = await injectAs(t.app, sessionOf(second.callback), {
      method: 'GET',
      url: '/api/v1/iam/self-info',
    });
    expect(again.json().data.user_id).toBe(user.user_id);
    const [{ n }] = (await queryRows<{ n: number }>(
      t.db.database.db,
      sql`SELECT count(*)::int AS n FROM users WHERE lower(email) = 'ann@acme.test'`,
    )) as [{ n: number }];
    expect(n).toBe(1);
  });

  it('links an existing account by verified email, and refuses an unverified one', async () => {
    const existing = await createUser(t.db.database.db, {
      type: 'company_admin',
      companyId: acme.id,
      email: 'cat@acme.test',
    });
    idp.accounts.set('cat-sub', { sub: 'cat-sub', email: 'cat@acme.test', email_verified: true });
    const { callback } = await signInWithProvider('cat-sub');
    expect(callback.statusCode).toBe(302);
    const self = await injectAs(t.app, sessionOf(callback), {
      method: 'GET',
      url: '/api/v1/iam/self-info',
    });
    expect(self.json().data.user_id).toBe(existing.id);

    idp.accounts.set('dan-sub', { sub: 'dan-sub', email: 'dan@acme.test', email_verified: false });
    const unverified = await signInWithProvider('dan-sub');
    expect(refusedWith(unverified.callback)).toBe('OIDC_ACCOUNT_NOT_ALLOWED');
  });

  it('refuses an ID token for another audience', async () => {
    idp.accounts.set('eve-sub', { sub: 'eve-sub', email: 'eve@acme.test', email_verified: true });
    idp.tamper = (claims) => ({ ...claims, aud: 'another-client' });
    try {
      const { callback } = await signInWithProvider('eve-sub');
      expect(refusedWith(callback)).toBe('OIDC_SIGN_IN_FAILED');
    } finally {
      idp.tamper = null;
    }
    const [failed] = await audit('sign_in_failed');
    expect(failed!.after).toMatchObject({ method: 'oidc', reason: 'oidc_token_refused' });
    expect(failed!.after).toMatchObject({ claim: 'aud' });
  });

  it('refuses an expired ID token', async () => {
    const now = Math.floor(Date.now() / 1000);
    idp.tamper = (claims) => ({ ...claims, iat: now - 7200, exp: now - 3600 });
    try {
      const { callback } = await signInWithProvider('eve-sub');
      expect(refusedWith(callback)).toBe('OIDC_SIGN_IN_FAILED');
    } finally {
      idp.tamper = null;
    }
    const [failed] = await audit('sign_in_failed');
    expect(failed!.after).toMatchObject({ reason: 'oidc_token_refused', claim: 'exp' });
  });

  it('refuses an ID token with another nonce', async () => {
    idp.tamper = (claims) => ({ ...claims, nonce: 'not-the-nonce-we-sent' });
    try {
      const { callback } = await signInWithProvider('eve-sub');
      expect(refusedWith(callback)).toBe('OIDC_SIGN_IN_FAILED');
    } finally {
      idp.tamper = null;
    }
    const [failed] = await audit('sign_in_failed');
    expect(failed!.after).toMatchObject({ reason: 'oidc_token_refused', claim: 'nonce' });
    const eve = await queryRows(
      t.db.database.db,
      sql`SELECT id FROM users WHERE email = 'eve@acme.test'`,
    );
    expect(eve).toEqual([]);
  });

  it('refuses a replayed state, and a callback the starting browser did not make', async () => {
    idp.accounts.set('fay-sub', { sub: 'fay-sub', email: 'fay@acme.test', email_verified: true });
    const first = await signInWithProvider('fay-sub');
    expect(first.callback.headers.location).toBe('/companies');
    const replay = await t.app.inject({
      method: 'GET',
      url: first.callbackUrl,
      cookies: { oidc_state: first.state },
    });
    expect(refusedWith(replay)).toBe('OIDC_STATE_INVALID');

    // A fresh trip whose callback comes without the state cookie (another browser).
    idp.next = { sub: 'fay-sub' };
    const start = await t.app.inject({
      method: 'GET',
      url: `/api/v1/iam/oidc/${providerId}/start`,
    });
    const back = await visitProvider(start.headers.location as string);
    const lured = await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(refusedWith(lured)).toBe('OIDC_STATE_INVALID');
    const [failed] = await audit('sign_in_failed');
    expect(failed!.after).toMatchObject({ method: 'oidc', reason: 'oidc_state_invalid' });
  });

  it('refuses an inactive account as a password sign-in does', async () => {
    const gus = await createUser(t.db.database.db, {
      type: 'company_admin',
      companyId: acme.id,
      email: 'gus@acme.test',
      status: 'inactive',
    });
    idp.accounts.set('gus-sub', { sub: 'gus-sub', email: 'gus@acme.test', email_verified: true });
    const { callback } = await signInWithProvider('gus-sub');
    expect(refusedWith(callback)).toBe('USER_INACTIVE');
    const [failed] = await audit('sign_in_failed');
    expect(failed!.after).toMatchObject({ method: 'oidc', reason: 'user_inactive' });
    expect(Number(failed!.entity_id)).toBe(gus.id);
  });

  it('sends a user with TOTP on to the second step, unless the provider checked a second factor', async () => {
    const hal = await createUser(t.db.database.db, {
      type: 'company_admin',
      companyId: acme.id,
      email: 'hal@acme.test',
    });
    // TOTP on, as enrolment leaves it (the secret is never read on this path).
    await t.db.database.db.execute(
      sql`INSERT INTO user_totp (user_id, secret_encrypted, enabled_at, created_at, updated_at)
          VALUES (${hal.id}, 'v1.x.y.z', now(), now(), now())`,
    );
    idp.accounts.set('hal-sub', { sub: 'hal-sub', email: 'hal@acme.test', email_verified: true });
    const { callback } = await signInWithProvider('hal-sub');
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/login?second_step=1&from=%2Fcompanies');
    const cookies = callback.cookies.map((c) => c.name);
    expect(cookies).toContain('mfa_challenge');
    expect(cookies).not.toContain('sid');

    idp.next = { sub: 'hal-sub', amr: ['pwd', 'mfa'] };
    const start = await t.app.inject({
      method: 'GET',
      url: `/api/v1/iam/oidc/${providerId}/start`,
    });
    const stateCookie = start.cookies.find((c) => c.name === 'oidc_state')!;
    const back = await visitProvider(start.headers.location as string);
    const withMfa = await t.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      cookies: { oidc_state: stateCookie.value },
    });
    expect(withMfa.headers.location).toBe('/');
    const self = await injectAs(t.app, sessionOf(withMfa), {
      method: 'GET',
      url: '/api/v1/iam/self-info',
    });
    expect(self.json().data.user_id).toBe(hal.id);
    const [signIn] = await audit('sign_in');
    expect(signIn!.after).toMatchObject({ second_factor_at_provider: true });
  });

  it('goes back only to a path of this site', async () => {
    for (const from of ['https://evil.example/', '//evil.example/x', '/\\evil.example']) {
      idp.next = { sub: 'ann-sub' };
      const start = await t.app.inject({
        method: 'GET',
        url: `/api/v1/iam/oidc/${providerId}/start?from=${encodeURIComponent(from)}`,
      });
      const stateCookie = start.cookies.find((c) => c.name === 'oidc_state')!;
      const back = await visitProvider(start.headers.location as string);
      const callback = await t.app.inject({
        method: 'GET',
        url: `${back.pathname}${back.search}`,
        cookies: { oidc_state: stateCookie.value },
      });
      expect(callback.headers.location).toBe('/');
    }
  });
});
