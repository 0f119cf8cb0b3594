// Employee self-service (issue 17 item 3, decision 0033): the demo company admin gives a new
// employee a sign-in from the Employees screen; the employee signs in on a phone (390×844) and
// sees its balance and its (rotating) pay code. In English and in Chinese, axe clean, no console error.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSession, expectStatus } from './api';
import { launchBrowser, openSession, signIn, type Session } from './browser';
import { seriousViolations, waitForScreen } from './pages';
import { texts } from './texts';

const PASSWORD = 'Wallet@2026';
/** Unique to this run, so the journey also works against a long-lived server. */
const suffix = Date.now().toString(36).slice(-6);

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function closeClean(session: Session) {
  await session.context.close();
  expect(session.problems).toEqual([]);
}

describe('employee self-service', () => {
  it.each(['en', 'zh'] as const)(
    'a company admin gives a sign-in; the employee pays (%s)',
    async (lng) => {
      const t = texts(lng);
      const staff = `W${lng.toUpperCase()}${suffix}`;
      const username = `wallet.${lng}.${suffix}`;
      // Setup through the API (other journeys drive these screens): an employee with 120 tokens.
      const acme = await apiSession('acme.admin');
      const employee = expectStatus(
        await acme<{ data: { id: number } }>('POST', '/employees', {
          employee_id: staff,
          name: `Wallet ${lng}`,
          status: 'active',
        }),
        201,
      ).data;
      expectStatus(
        await acme('POST', '/tokens/topup-token/employees', {
          items: [{ employee_id: employee.id, amount: 120 }],
        }),
        200,
      );

      // The company admin, on the Employees screen.
      const admin = await openSession(browser);
      try {
        const { page } = admin;
        await signIn(page, 'acme.admin');
        await admin.context.addCookies([{ name: 'lang', value: lng, url: admin.baseURL }]);
        await page.goto(`/employees?search=${staff}`);
        await waitForScreen(page);
        await page
          .getByRole('button', { name: new RegExp(`Wallet ${lng}`) })
          .first()
          .click();
        await page.getByRole('menuitem', { name: t('self_service.give') }).click();
        const dialog = page.getByRole('dialog', { name: t('self_service.give_title') });
        await dialog.getByLabel(t('users.username')).fill(username);
        await dialog.getByLabel(t('users.password'), { exact: true }).fill(PASSWORD);
        await dialog.getByLabel(t('users.confirm_password')).fill(PASSWORD);
        expect(await seriousViolations(page), `give dialog ${lng}`).toEqual([]);
        await dialog.getByRole('button', { name: t('self_service.give') }).click();
        await page
          .getByText(t('self_service.given', { name: `Wallet ${lng}`, username }))
          .waitFor();
      } finally {
        await closeClean(admin);
      }

      // The employee, on a phone.
      const phone = await openSession(browser);
      try {
        const { page } = phone;
        // Signed in at the default width (the sign-in helper waits for the sidebar), then a phone.
        await signIn(page, username, PASSWORD);
        await page.setViewportSize({ width: 390, height: 844 });
        await phone.context.addCookies([{ name: 'lang', value: lng, url: phone.baseURL }]);
        await page.goto('/');
        await waitForScreen(page, t('self_service.title'));
        const balance = page.getByTestId('wallet-balance');
        await expect.poll(() => balance.textContent()).toContain('120');
        // The rotating pay code (issue 43), once this phone is set up to pay; no fixed code of
        // company and staff number any more.
        expect(await page.getByText(`ACME · ${staff}`).count()).toBe(0);
        await page.getByRole('button', { name: t('payCode.setup') }).click();
        const code = page.getByRole('img', { name: t('payCode.qr_label') });
        await code.waitFor();
        const box = await code.boundingBox();
        // Large enough for a till's scanner: at least 200 CSS pixels square, and all of it on screen.
        expect(box!.width).toBeGreaterThanOrEqual(200);
        expect(box!.x + box!.width).toBeLessThanOrEqual(390);
        expect(await seriousViolations(page), `wallet home ${lng}`).toEqual([]);
        // Installable: the page names a web app manifest the server answers as one.
        const href = await page.locator('link[rel="manifest"]').getAttribute('href');
        const manifest = await page.request.get(href!);
        expect(manifest.headers()['content-type']).toContain('application/manifest+json');
        expect(await manifest.json()).toMatchObject({ start_url: '/', display: 'standalone' });
      } finally {
        await closeClean(phone);
      }
    },
  );
});
