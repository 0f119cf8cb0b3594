import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { testDatabaseKinds } from '../test/databases';
import { newCompany, signedIn } from '../test/management';
import { dashboardRequestOf } from './web-preload';

const INDEX = '<!doctype html><html><body><div id="root"></div></body></html>';
const SCRIPT = 'console.log("spa");';
/** The sign-in page pre-rendered by the web build in each language (decision 0037). */
const LOGIN = {
  en: '<!doctype html><html lang="en"><body><div id="root"><h1>Sign in</h1></div></body></html>',
  zh: '<!doctype html><html lang="zh"><body><div id="root"><h1>登录</h1></div></body></html>',
};
/** index.html with the dashboard route's chunks preloaded (decision 0049). */
const DASHBOARD =
  '<!doctype html><html><head><link rel="modulepreload" href="/assets/x.js"></head><body><div id="root"></div></body></html>';
/** The till's own page (DESIGN 8), and the files of its service worker and manifest. */
const TILL =
  '<!doctype html><html><body><div id="root"></div><script src="/assets/till-app.js"></script></body></html>';
const TILL_SW = 'self.addEventListener("fetch", () => {});';
/** Large enough to be worth compressing, like every real bundle. */
const BIG_SCRIPT = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ row: i })))};`;

describe.each(await testDatabaseKinds())('the built web app on %s', (kind) => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
    fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'assets', 'x.js'), SCRIPT);
    // What the web build writes beside each asset (vite-plugin-compression2).
    fs.writeFileSync(path.join(dist, 'assets', 'big-Ab12Cd.js'), BIG_SCRIPT);
    fs.writeFileSync(
      path.join(dist, 'assets', 'big-Ab12Cd.js.br'),
      zlib.brotliCompressSync(BIG_SCRIPT),
    );
    fs.writeFileSync(path.join(dist, 'assets', 'big-Ab12Cd.js.gz'), zlib.gzipSync(BIG_SCRIPT));
    fs.writeFileSync(path.join(dist, 'index.html.gz'), zlib.gzipSync(INDEX));
    fs.writeFileSync(path.join(dist, 'dashboard.html'), DASHBOARD);
    fs.writeFileSync(path.join(dist, 'till.html'), TILL);
    fs.writeFileSync(path.join(dist, 'till-sw.js'), TILL_SW);
    fs.writeFileSync(path.join(dist, 'till.webmanifest'), '{"start_url":"/till"}');
    for (const [lng, page] of Object.entries(LOGIN)) {
      fs.writeFileSync(path.join(dist, `login.${lng}.html`), page);
      fs.writeFileSync(path.join(dist, `login.${lng}.html.br`), zlib.brotliCompressSync(page));
    }
    fs.mkdirSync(path.join(dist, 'locales', 'en'), { recursive: true });
    fs.writeFileSync(path.join(dist, 'locales', 'en', 'common.json'), '{}');
    t = await createTestApp(kind, {
      SERVE_WEB: 'true',
      WEB_DIST_DIR: dist,
      // The pages as the browser draws them alone (the dashboard the API renders, decision
      // 0050: web-render.test.ts).
      WEB_SERVER_RENDER: 'false',
    });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('answers a client route with index.html', async () => {
    const res = await t.app.inject({ url: '/some/client/route' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toBe(INDEX);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it("answers /till with the till's own page, and serves its service worker and manifest fresh", async () => {
    for (const url of ['/till', '/till/', '/till?terminal=3']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toContain('text/html');
      expect(res.body, url).toBe(TILL);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    // Not the paths below it, nor the back office's routes.
    expect((await t.app.inject({ url: '/till/other' })).body).toBe(INDEX);
    expect((await t.app.inject({ url: '/tills' })).body).toBe(INDEX);
    const worker = await t.app.inject({ url: '/till-sw.js' });
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['content-type']).toContain('javascript');
    expect(worker.body).toBe(TILL_SW);
    // A new version is seen at the next visit, never a year later.
    expect(worker.headers['cache-control']).toBe('no-cache');
    const manifest = await t.app.inject({ url: '/till.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toContain('manifest+json');
    expect(manifest.headers['cache-control']).toBe('no-cache');
  });

  it('serves the root as index.html', async () => {
    const res = await t.app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(INDEX);
  });

  it('answers /login with the sign-in page pre-rendered in the language of the lang cookie', async () => {
    const english = await t.app.inject({ url: '/login?from=%2Fcompanies' });
    expect(english.statusCode).toBe(200);
    expect(english.headers['content-type']).toContain('text/html');
    expect(english.body).toBe(LOGIN.en);
    // The language the web app reads: only the cookie, whatever Accept-Language says.
    const stillEnglish = await t.app.inject({
      url: '/login',
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(stillEnglish.body).toBe(LOGIN.en);
    const chinese = await t.app.inject({
      url: '/login',
      cookies: { lang: 'zh' },
      headers: { 'accept-encoding': 'br' },
    });
    expect(chinese.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(chinese.rawPayload).toString()).toBe(LOGIN.zh);
    expect(chinese.headers['vary']).toMatch(/cookie/i);
    expect(chinese.headers['cache-control']).toBe('no-cache');
    // Every other page is the empty shell.
    const other = await t.app.inject({ url: '/dashboard', cookies: { lang: 'zh' } });
    expect(other.body).toBe(INDEX);
  });

  it("preloads a signed-in user's GET /dashboard with /dashboard's page, and nobody else's", async () => {
    // Decision 0044: the exact request the page's loader makes, so the browser hands it over.
    const admin = await signedIn(t, 'admin');
    const page = await t.app.inject({
      url: '/dashboard?month=2026-10&company_id=7&x=1',
      headers: { cookie: admin.session.cookie },
    });
    expect(page.statusCode).toBe(200);
    // With its route's chunks preloaded too (decision 0049).
    expect(page.body).toBe(DASHBOARD);
    expect(page.headers['link']).toBe(
      '</api/v1/dashboard?month=2026-10&company_id=7>; rel=preload; as=fetch; crossorigin',
    );
    expect(page.headers['vary']).toMatch(/cookie/i);
    const plain = await t.app.inject({
      url: '/dashboard/',
      headers: { cookie: admin.session.cookie },
    });
    expect(plain.headers['link']).toBe('</api/v1/dashboard>; rel=preload; as=fetch; crossorigin');
    // The API answers that very request.
    const api = await t.app.inject({
      url: '/api/v1/dashboard',
      headers: { cookie: admin.session.cookie },
    });
    expect(api.statusCode).toBe(200);

    // No session, a dead one, an employee (whose landing page is the wallet), another page: none.
    const anonymous = await t.app.inject({ url: '/dashboard' });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.headers['link']).toBeUndefined();
    // Sent to sign in, a visitor without a session loads none of the dashboard's code.
    expect(anonymous.body).toBe(INDEX);
    const dead = await t.app.inject({ url: '/dashboard', cookies: { sid: 'x'.repeat(43) } });
    expect(dead.headers['link']).toBeUndefined();
    const company = await newCompany(t);
    const employee = await signedIn(t, 'company_employee', { companyId: company.id });
    const wallet = await t.app.inject({
      url: '/dashboard',
      headers: { cookie: employee.session.cookie },
    });
    expect(wallet.headers['link']).toBeUndefined();
    expect(wallet.body).toBe(INDEX);
    const other = await t.app.inject({
      url: '/companies',
      headers: { cookie: admin.session.cookie },
    });
    expect(other.headers['link']).toBeUndefined();
  });

  it("builds the dashboard's request as the web app does: invalid values read as absent", () => {
    const of = (search: string) => dashboardRequestOf(new URLSearchParams(search));
    expect(of('')).toBe('/api/v1/dashboard');
    expect(of('company_id=12&month=2026-01')).toBe('/api/v1/dashboard?month=2026-01&company_id=12');
    expect(of('month=2026-13&company_id=0')).toBe('/api/v1/dashboard');
    expect(of('month=2026-1&company_id=012')).toBe('/api/v1/dashboard');
    expect(of('company_id=12345678901')).toBe('/api/v1/dashboard');
  });

  it('serves built assets as themselves', async () => {
    const res = await t.app.inject({ url: '/assets/x.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.body).toBe(SCRIPT);
  });

  it('answers an unknown API path with the JSON 404, not the page', async () => {
    const res = await t.app.inject({ url: '/api/v1/unknown' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
  });

  it('does not answer a POST to a client route with the page', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/some/client/route' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
  });

  it('sends a script asked for with Accept-Encoding: br as its brotli twin', async () => {
    const res = await t.app.inject({
      url: '/assets/big-Ab12Cd.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['vary']).toMatch(/accept-encoding/i);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(BIG_SCRIPT);
    expect(res.rawPayload.length).toBeLessThan(BIG_SCRIPT.length / 4);
  });

  it('sends gzip to a browser without brotli, and the plain file to one asking for neither', async () => {
    const gzip = await t.app.inject({
      url: '/assets/big-Ab12Cd.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(BIG_SCRIPT);
    const plain = await t.app.inject({ url: '/assets/big-Ab12Cd.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG_SCRIPT);
  });

  it('lets browsers keep hashed assets for a year, and revalidate the page and locales', async () => {
    const asset = await t.app.inject({
      url: '/assets/big-Ab12Cd.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/', '/some/client/route', '/locales/en/common.json']) {
      const res = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('compresses JSON answers above 1 KiB and leaves small ones alone', async () => {
    const big = await t.app.inject({
      url: '/api/docs/json',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(big.statusCode).toBe(200);
    expect(big.headers['content-encoding']).toBe('br');
    const doc = JSON.parse(zlib.brotliDecompressSync(big.rawPayload).toString()) as {
      openapi: string;
    };
    expect(doc.openapi).toMatch(/^3\./);
    const small = await t.app.inject({ url: '/healthz', headers: { 'accept-encoding': 'br' } });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('keeps API answers out of every cache, compressed or not', async () => {
    const res = await t.app.inject({
      url: '/api/v1/unknown',
      headers: { 'accept-encoding': 'br' },
    });
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
