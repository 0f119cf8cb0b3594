// The Provisioning screen (issue 45 item 2, DESIGN 9, decision 0087) against the real API: ACME's
// company admin, in English, opens it from the menu, makes a SCIM token (shown once), and a SCIM
// client with that token creates an employee and deactivates it as Entra sends it ("Replace",
// "False"); the Employees screen shows it inactive, the request log shows both requests; the
// token revoked after a confirmation is refused (401). Then the screen in Chinese. Axe clean, no
// console error. On a server of its own, so the employee it adds is in no other journey's ACME.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../../api/test/server-process';
import { expectPath, sessionPerTest, signIn, type Session } from './browser';
import { DIST_DIR } from './build';
import { seriousViolations, waitForScreen } from './pages';
import { texts } from './texts';

let server: ServerProcess;
let dataDir = '';
let session: Session;
let page: Page;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'web-e2e-provisioning-'));
  // As e2e/global-setup.ts starts the shared one (global-setup has built the web app and the
  // API's bundle).
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
}, 240_000);

afterAll(async () => {
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

sessionPerTest((opened) => ({ session, page } = opened), { baseURL: () => server.baseURL });

const SCIM_JSON = 'application/scim+json';

/** A SCIM client's request, from outside the browser, with the token as its bearer. */
async function scim(token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${session.baseURL}/scim/v2${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'content-type': SCIM_JSON } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('provisioning', () => {
  it('ACME’s company admin makes a token a SCIM client provisions with, sees its requests, and revokes it', async () => {
    const t = texts('en');
    await signIn(page, 'acme.admin');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: t('nav.provisioning') })
      .click();
    await expectPath(page, '/provisioning');
    await waitForScreen(page, t('nav.provisioning'));
    await expect(page.getByLabel(t('provisioning.base_url')).inputValue()).resolves.toBe(
      `${session.baseURL}/scim/v2`,
    );
    expect(await seriousViolations(page), 'provisioning en').toEqual([]);

    const description = `Entra ${Date.now().toString(36)}`;
    await page.getByRole('button', { name: t('provisioning.add') }).click();
    const form = page.getByRole('dialog', { name: t('provisioning.create_title') });
    await form.getByLabel(t('provisioning.token_description')).fill(description);
    await form.getByRole('button', { name: t('actions.create') }).click();
    const shown = page.getByRole('dialog', { name: t('provisioning.token_created_title') });
    const token = await shown.getByLabel(t('provisioning.token')).inputValue();
    expect(token).toMatch(/^scim_/);
    expect(await seriousViolations(page), 'token shown en').toEqual([]);
    await shown.getByRole('button', { name: t('provisioning.token_saved') }).click();
    await page.getByRole('cell', { name: description, exact: true }).waitFor();

    // The SCIM client: a new user, then Entra's deactivation.
    const staff = `SCIM${Date.now().toString(36).toUpperCase()}`;
    const created = await scim(token, 'POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: staff,
      displayName: 'Scim Person',
      emails: [{ value: `${staff.toLowerCase()}@acme.example`, primary: true, type: 'work' }],
      active: true,
    });
    expect(created.status).toBe(201);
    const patched = await scim(token, 'PATCH', `/Users/${String(created.body.id)}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(patched.status).toBe(200);
    expect(patched.body.active).toBe(false);

    // The log shows both, newest first.
    await page.reload();
    await waitForScreen(page, t('nav.provisioning'));
    const log = page.getByRole('table', { name: t('provisioning.requests') });
    await log
      .getByRole('cell', { name: `/scim/v2/Users/${String(created.body.id)}`, exact: true })
      .waitFor();
    const rows = log.getByRole('row');
    await expect(rows.nth(1).innerText()).resolves.toMatch(/PATCH[\s\S]*200/);
    await expect(rows.nth(2).innerText()).resolves.toMatch(
      /POST[\s\S]*\/scim\/v2\/Users[\s\S]*201/,
    );

    // The Employees screen shows the employee, inactive.
    await page.goto(`/employees?search=${staff}`);
    await waitForScreen(page, t('nav.employees'));
    await page.getByRole('cell', { name: staff, exact: true }).waitFor();
    await expect(page.getByRole('row').filter({ hasText: staff }).innerText()).resolves.toContain(
      t('statuses.inactive'),
    );

    // Revoked after a confirmation, the token is refused.
    await page.goto('/provisioning');
    await waitForScreen(page, t('nav.provisioning'));
    await page
      .getByRole('button', { name: t('provisioning.revoke_label', { description }) })
      .click();
    const confirm = page.getByRole('alertdialog', { name: t('provisioning.revoke_title') });
    await confirm.getByRole('button', { name: t('provisioning.revoke') }).click();
    await page.getByText(t('provisioning.revoked_toast')).waitFor();
    const refused = await scim(token, 'GET', '/Users?count=1');
    expect(refused.status).toBe(401);
    expect(refused.body.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
  });

  it('the screen in Chinese', async () => {
    const t = texts('zh');
    await signIn(page, 'acme.admin');
    await session.context.addCookies([{ name: 'lang', value: 'zh', url: session.baseURL }]);
    await page.goto('/provisioning');
    await waitForScreen(page, t('nav.provisioning'));
    await page.getByText(t('provisioning.base_url'), { exact: true }).first().waitFor();
    expect(await seriousViolations(page), 'provisioning zh').toEqual([]);
  });
});
