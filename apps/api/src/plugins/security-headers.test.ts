import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { testDatabaseKinds } from '../../test/databases';
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
