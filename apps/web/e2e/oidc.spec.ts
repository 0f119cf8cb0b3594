// OIDC sign-in in the browser (issue 45 item 1, DESIGN 9, decision 0086): on a server of its own,
// with a real OpenID provider on loopback (`oidc-provider`, apps/api/test/oidc-provider.ts) that
// the Super Admin connected for the domain oidc.test. Typing an email at that domain on the
// sign-in page offers "Sign in with Test IdP"; pressing it goes through the provider and back,
// signed in as an account made just in time (Group HR), on the page the sign-in was asked from.
// Then the Super Admin's Identity Providers screen shows the provider with its secret as "set".
// In English and Chinese; axe clean, no console error.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../../api/test/server-process';
import { startTestOidcProvider, type TestOidcProvider } from '../../api/test/oidc-provider';
import { apiSession, expectStatus } from './api';
import { DEMO_PASSWORD, sessionPerTest, signIn } from './browser';
import { DIST_DIR } from './build';
import { seriousViolations, waitForScreen } from './pages';
import { texts } from './texts';

const SHOTS = '/tmp/oidc-shots';

let server: ServerProcess;
let idp: TestOidcProvider;
let dataDir = '';
let page: Page;

const api = (username: string) => apiSession(username, DEMO_PASSWORD, server.baseURL);

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  dataDir = mkdtempSync(path.join(tmpdir(), 'web-e2e-oidc-'));
  server = await startServer(
    {
      DATA_DIR: dataDir,
      SERVE_WEB: 'true',
      WEB_DIST_DIR: DIST_DIR,
      DEMO_DATA: 'true',
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
    },
    { from: 'bundle' },
  );
  idp = await startTestOidcProvider([`${server.baseURL}/api/v1/iam/oidc/callback`]);
  for (const [sub, email] of [
    ['olga', 'olga@oidc.test'],
    ['wei', 'wei@oidc.test'],
  ]) {
    idp.accounts.set(sub!, { sub: sub!, email, email_verified: true, name: sub });
  }
  const admin = await api('admin');
  expectStatus(
    await admin('PUT', '/sys/identity-providers', {
      providers: [
        {
          name: 'Test IdP',
          issuer: idp.issuer,
          client_id: idp.clientId,
          client_secret: idp.clientSecret,
          email_domains: ['oidc.test'],
          company_id: null,
          default_type: 'super_hr',
        },
      ],
    }),
    200,
  );
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await idp?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

sessionPerTest((opened) => ({ page } = opened), { baseURL: () => server.baseURL });

describe('OIDC sign-in', () => {
  it.each([
    ['en', 'olga'],
    ['zh', 'wei'],
  ] as const)(
    'offers the provider for its domain and signs in through it (%s)',
    async (lng, sub) => {
      const t = texts(lng);
      await page.context().addCookies([{ name: 'lang', value: lng, url: server.baseURL }]);
      idp.next = { sub };
      await page.goto('/login?from=%2Fsummary-report');
      const box = page.getByLabel(t('login.username'));
      await box.fill('someone@example.com');
      await box.fill(`${sub}@oidc.test`);
      const button = page.getByRole('link', { name: t('login.sso_button', { name: 'Test IdP' }) });
      await button.waitFor();
      expect(await seriousViolations(page), `sign-in page with the SSO button ${lng}`).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/login.${lng}.png` });
      await button.click();
      await page.waitForURL((url) => url.pathname === '/summary-report');
      await waitForScreen(page);
      const self = await page.evaluate(async () => {
        const answer = await fetch('/api/v1/iam/self-info');
        return (await answer.json()) as { data: { type: string; email: string } };
      });
      expect(self.data).toMatchObject({ type: 'super_hr', email: `${sub}@oidc.test` });
    },
  );

  it('shows the Super Admin the provider, its secret only as set', async () => {
    const t = texts('en');
    await signIn(page, 'admin');
    await page.goto('/identity-providers');
    await waitForScreen(page, t('nav.identity_providers'));
    const row = page.getByRole('row', { name: /Test IdP/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('oidc.test');
    expect(await row.textContent()).toContain(t('identity_providers.secret_set'));
    expect(await page.content()).not.toContain(idp.clientSecret);
    expect(await seriousViolations(page), 'identity providers').toEqual([]);
  });
});
