import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { testDatabaseKinds } from '../test/databases';
import { newTerminal } from '../test/ledger';
import { newCompany, signedIn } from '../test/management';
import { isPhoneRequest } from './web-render';

/** dist/dashboard.html as the web build writes it: index.html with the route's chunks preloaded. */
const DASHBOARD =
  '<!doctype html><html lang="en"><head><title>App</title>' +
  '<link rel="modulepreload" crossorigin href="/assets/x.js"></head>' +
  '<body><div id="root"></div></body></html>';

/**
 * A stand-in for the web build's server entry (apps/web/src/prerender.tsx), whose own rendering
 * the web app's tests cover: it writes down what the API gave it, so that this file can check it.
 */
const RENDER_MODULE = `
export async function renderDashboard(input) {
  if (input.url.includes('boom')) throw new Error('the page failed to render');
  return {
    html: '<main data-input="' + encodeURIComponent(JSON.stringify(input)) + '">' + input.lng + '</main>',
    title: input.lng === 'zh' ? '代币<后台>' : 'Token Back Office',
    state: JSON.stringify({ user_id: input.user.user_id, note: '</script><!--' }),
  };
}
`;

/** What the stand-in was given, read back from the page. */
function inputOf(page: string) {
  const encoded = /data-input="([^"]+)"/.exec(page)?.[1];
  if (!encoded) throw new Error(`No rendered dashboard in ${page.slice(0, 200)}`);
  return JSON.parse(decodeURIComponent(encoded)) as {
    lng: string;
    url: string;
    cookie: string;
    common: Record<string, unknown>;
    user: { user_id: number; type: string };
    dashboard: unknown;
    summary?: unknown;
    mobile?: boolean;
  };
}

describe('a request from a phone (decision 0051)', () => {
  const PIXEL =
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/136.0 Mobile Safari/537.36';
  const IPHONE =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Mobile/15E148 Safari/604.1';
  const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/136.0 Safari/537.36';
  const IPAD =
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/18.0 Safari/605.1.15';

  it.each([
    ['Chromium saying so', { 'sec-ch-ua-mobile': '?1', 'user-agent': PIXEL }, true],
    ['Chromium saying so, whatever its user agent', { 'sec-ch-ua-mobile': '?1' }, true],
    ['a phone without the hint (Safari, Firefox)', { 'user-agent': IPHONE }, true],
    ['a desktop Chromium', { 'sec-ch-ua-mobile': '?0', 'user-agent': DESKTOP }, false],
    ['a tablet that presents itself as a desktop', { 'user-agent': IPAD }, false],
    ['no headers at all', {}, false],
  ])('%s', (_, headers, phone) => {
    expect(isPhoneRequest(headers)).toBe(phone);
  });
});

describe.each(await testDatabaseKinds())('the dashboard rendered by the API on %s', (kind) => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'web-render-'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(dist, 'dashboard.html'), DASHBOARD);
    for (const lng of ['en', 'zh']) {
      fs.mkdirSync(path.join(dist, 'locales', lng), { recursive: true });
      fs.writeFileSync(path.join(dist, 'locales', lng, 'common.json'), `{"lng":"${lng}"}`);
    }
    // Where the web build puts it (vite.config.ts `serverRender`).
    fs.mkdirSync(path.join(dist, '.server'));
    fs.writeFileSync(path.join(dist, '.server', 'prerender.mjs'), RENDER_MODULE);
    t = await createTestApp(kind, { SERVE_WEB: 'true', WEB_DIST_DIR: dist });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it("draws an admin's /dashboard from the answers the admin's own requests get", async () => {
    const admin = await signedIn(t, 'admin');
    const headers = { cookie: `${admin.session.cookie}; lang=zh; sidebar_state=false` };
    const page = await t.app.inject({ url: '/dashboard?month=2026-10', headers });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    // This user's figures: kept by no cache, and no preload (the page carries them).
    expect(page.headers['cache-control']).toBe('private, no-store');
    expect(page.headers['vary']).toMatch(/cookie/i);
    // Drawn for a phone or a wide screen, as the request's headers tell (decision 0051).
    expect(page.headers['vary']).toMatch(/sec-ch-ua-mobile/i);
    expect(page.headers['vary']).toMatch(/user-agent/i);
    expect(page.headers['link']).toBeUndefined();

    const input = inputOf(page.body);
    const own = async (url: string) =>
      (await t.app.inject({ url, headers: { cookie: admin.session.cookie } })).json().data;
    expect(input).toEqual({
      lng: 'zh',
      common: { lng: 'zh' },
      url: '/dashboard?month=2026-10',
      cookie: headers.cookie,
      user: await own('/api/v1/iam/self-info'),
      dashboard: await own('/api/v1/dashboard?month=2026-10'),
      summary: await own('/api/v1/dashboard/summary?month=2026-10'),
      mobile: false,
    });
    // A phone's request: drawn for a phone.
    const fromPhone = await t.app.inject({
      url: '/dashboard?month=2026-10',
      headers: { ...headers, 'sec-ch-ua-mobile': '?1' },
    });
    expect(inputOf(fromPhone.body).mobile).toBe(true);
    // In the template: the language, the title escaped, the markup in #root, the answers beside
    // it where no `<` can end their script, the route's chunks still preloaded.
    expect(page.body).toContain('<html lang="zh">');
    expect(page.body).toContain('<title>代币&lt;后台&gt;</title>');
    expect(page.body).toContain('<div id="root"><main data-input=');
    expect(page.body).toContain(
      '<script type="application/json" id="server-queries">' +
        '{"user_id":' +
        input.user.user_id +
        ',"note":"\\u003c/script>\\u003c!--"}</script>',
    );
    expect(page.body).toContain('<link rel="modulepreload" crossorigin href="/assets/x.js">');
  });

  it('asks for the summary only where the page shows it, and in the scope of the user', async () => {
    const admin = await signedIn(t, 'admin');
    const company = await newCompany(t);
    const oneCompany = await t.app.inject({
      url: `/dashboard?company_id=${company.id}`,
      headers: { cookie: admin.session.cookie },
    });
    const input = inputOf(oneCompany.body);
    expect(input.lng).toBe('en');
    expect(input.summary).toBeUndefined();
    // A company that is not there: its request fails, and the page is drawn by the browser.
    const missing = await t.app.inject({
      url: '/dashboard?company_id=999999',
      headers: { cookie: admin.session.cookie },
    });
    expect(missing.body).toBe(DASHBOARD);

    const companyAdmin = await signedIn(t, 'company_admin', { companyId: company.id });
    const theirs = await t.app.inject({
      url: '/dashboard',
      headers: { cookie: companyAdmin.session.cookie },
    });
    const drawn = inputOf(theirs.body);
    expect(drawn.user).toMatchObject({ type: 'company_admin', company_id: company.id });
    expect(drawn.summary).toBeUndefined();
    const own = await t.app.inject({
      url: '/api/v1/dashboard',
      headers: { cookie: companyAdmin.session.cookie },
    });
    expect(drawn.dashboard).toEqual(own.json().data);
    expect(drawn.dashboard).toMatchObject({ view: 'company', company_id: company.id });
  });

  it('never serves the server entry itself', async () => {
    const entry = await t.app.inject({ url: '/.server/prerender.mjs' });
    expect(entry.body).not.toContain('renderDashboard');
  });

  it('sends the rendered page compressed to a browser that accepts it', async () => {
    const admin = await signedIn(t, 'admin');
    const page = await t.app.inject({
      url: '/dashboard',
      headers: { cookie: admin.session.cookie, 'accept-encoding': 'br' },
    });
    expect(page.headers['content-encoding']).toBe('br');
    expect(inputOf(zlib.brotliDecompressSync(page.rawPayload).toString()).url).toBe('/dashboard');
  });

  it('serves the page the browser draws alone when rendering fails, or to anyone else', async () => {
    const admin = await signedIn(t, 'admin');
    const failed = await t.app.inject({
      url: '/dashboard?boom=1',
      headers: { cookie: admin.session.cookie },
    });
    expect(failed.statusCode).toBe(200);
    expect(failed.body).toBe(DASHBOARD);
    expect(failed.headers['link']).toBe('</api/v1/dashboard>; rel=preload; as=fetch; crossorigin');

    const anonymous = await t.app.inject({ url: '/dashboard' });
    expect(anonymous.body).toBe('<!doctype html><div id="root"></div>');
    const company = await newCompany(t);
    const employee = await signedIn(t, 'company_employee', { companyId: company.id });
    const wallet = await t.app.inject({
      url: '/dashboard',
      headers: { cookie: employee.session.cookie },
    });
    expect(wallet.body).toBe('<!doctype html><div id="root"></div>');
    // A merchant role lands on its takings by terminal (issue 43), which the browser draws.
    const cashier = await signedIn(t, 'merchant_staff', {
      merchantId: (await newTerminal(t.app.deps)).merchantId,
    });
    const takings = await t.app.inject({
      url: '/dashboard',
      headers: { cookie: cashier.session.cookie },
    });
    expect(takings.body).toBe('<!doctype html><div id="root"></div>');
  });
});
