import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { injectAs, type TestSession } from '../../test/auth';
import { testDatabaseKinds } from '../../test/databases';
import { signedIn } from '../../test/management';
import { HSTS_VALUE } from './security-headers';

const directives = (header: unknown): Map<string, string> =>
  new Map(
    String(header)
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...values] = d.split(/\s+/);
        return [name!, values.join(' ')] as const;
      }),
  );

describe.each(await testDatabaseKinds())('security headers on %s', (kind) => {
  let t: TestApp;
  let proxied: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
    proxied = await createTestApp(kind, { TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await t.close();
    await proxied.close();
  });

  it('sends a CSP without inline scripts that forbids framing', async () => {
    const res = await t.app.inject({ url: '/healthz' });
    const csp = directives(res.headers['content-security-policy']);
    expect(csp.get('default-src')).toBe("'self'");
    expect(csp.get('script-src')).toBe("'self'");
    expect(csp.get('script-src-attr')).toBe("'none'");
    expect(csp.get('object-src')).toBe("'none'");
    expect(csp.get('frame-ancestors')).toBe("'none'");
    expect(String(res.headers['content-security-policy'])).not.toMatch(/unsafe-eval/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('sends no server banner', async () => {
    const res = await t.app.inject({ url: '/api/v1/nothing-here' });
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers.server).toBeUndefined();
    expect(res.headers['content-security-policy']).toBeDefined();
  });

  it('sends HSTS only on HTTPS requests, trusting X-Forwarded-Proto only with TRUST_PROXY', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    expect((await t.app.inject({ url: '/healthz' })).headers['strict-transport-security']).toBe(
      undefined,
    );
    expect(
      (await t.app.inject({ url: '/healthz', headers: https })).headers[
        'strict-transport-security'
      ],
    ).toBeUndefined();
    expect(
      (await proxied.app.inject({ url: '/healthz', headers: https })).headers[
        'strict-transport-security'
      ],
    ).toBe(HSTS_VALUE);
    expect(
      (await proxied.app.inject({ url: '/healthz' })).headers['strict-transport-security'],
    ).toBeUndefined();
  });

  it('serves /api/docs under the CSP: external scripts only, all of them served', async () => {
    const page = await t.app.inject({ url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(directives(page.headers['content-security-policy']).get('script-src')).toBe("'self'");

    const scripts = [...page.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, inline] of scripts) {
      expect(attributes).toMatch(/\bsrc="/);
      expect(inline!.trim()).toBe('');
      const src = /\bsrc="([^"]+)"/.exec(attributes!)![1]!;
      const script = await t.app.inject({ url: new URL(src, 'http://x/api/docs/').pathname });
      expect(script.statusCode, src).toBe(200);
    }
    // No inline event handlers either (script-src-attr 'none').
    expect(page.body).not.toMatch(/\son[a-z]+=/i);
  });
});

describe.each(await testDatabaseKinds())(
  'security headers on every kind of answer on %s',
  (kind) => {
    let t: TestApp;
    let proxied: TestApp;
    let session: TestSession;
    beforeAll(async () => {
      t = await createTestApp(kind);
      proxied = await createTestApp(kind, { TRUST_PROXY: 'true' });
      session = (await signedIn(t, 'admin')).session;
    });
    afterAll(async () => {
      await t.close();
      await proxied.close();
    });

    /** One answer of each kind the server gives: success, CSV, every refusal, a URL it cannot route. */
    const answers = async () => ({
      'health check': await t.app.inject({ url: '/healthz' }),
      'API success': await injectAs(t.app, session, { url: '/api/v1/iam/self-info' }),
      'CSV export': await injectAs(t.app, session, { url: '/api/v1/exports/employees' }),
      '400 validation': await injectAs(t.app, session, { url: '/api/v1/companies?page_size=7' }),
      '400 undecodable URL': await t.app.inject({ url: '/api/v1/companies/%C0%AF' }),
      '401 no session': await t.app.inject({ url: '/api/v1/companies' }),
      '403 CSRF': await t.app.inject({
        method: 'POST',
        url: '/api/v1/iam/logout',
        headers: { cookie: session.cookie },
      }),
      '404 route': await t.app.inject({ url: '/api/v1/nothing-here' }),
      '413 body': await t.app.inject({
        method: 'POST',
        url: '/api/v1/iam/login',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ username: 'x'.repeat(1024 * 1024), password: 'y' }),
      }),
      '415 content type': await t.app.inject({
        method: 'POST',
        url: '/api/v1/iam/login',
        headers: { 'content-type': 'text/plain' },
        payload: 'username=x',
      }),
      'OpenAPI document': await t.app.inject({ url: '/api/docs/json' }),
    });

    it('sends the CSP, nosniff and frame denial on every answer, and no banner', async () => {
      for (const [what, res] of Object.entries(await answers())) {
        const csp = directives(res.headers['content-security-policy']);
        expect(csp.get('frame-ancestors'), what).toBe("'none'");
        const scripts = csp.get('script-src') ?? csp.get('default-src');
        expect(scripts, what).toBeDefined();
        expect(scripts, what).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
        expect(res.headers['x-content-type-options'], what).toBe('nosniff');
        expect(res.headers['x-frame-options'], what).toBe('DENY');
        expect(res.headers['x-powered-by'], what).toBeUndefined();
        expect(res.headers.server, what).toBeUndefined();
      }
    });

    it('tells browsers and proxies to keep no copy of any API answer', async () => {
      for (const [what, res] of Object.entries(await answers())) {
        if (what === 'health check' || what === 'OpenAPI document') continue;
        expect(res.headers['cache-control'], what).toBe('no-store');
      }
    });

    it('sends HSTS behind HTTPS on refusals too, the undecodable URL included', async () => {
      const https = { 'x-forwarded-proto': 'https' };
      for (const url of ['/api/v1/companies', '/api/v1/nothing-here', '/api/v1/companies/%C0%AF']) {
        const res = await proxied.app.inject({ url, headers: https });
        expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
        expect(res.headers['strict-transport-security'], url).toBe(HSTS_VALUE);
      }
    });
  },
);
