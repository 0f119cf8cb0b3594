// The till and rotating pay codes (issue 43, DESIGN 8, decision 0078): an employee registers its
// phone and its wallet draws a code; a merchant's staff, on a second page, opens /till, types that
// code, charges, and sees the approval; the wallet then shows the new balance. Then the network is
// cut right after a charge leaves and restored (on a phone): the till ends on "approved" with one
// order. In English and in Chinese.
// Then the till as installed: it opens offline after a first visit (its service worker keeps its
// shell, never an API answer), a refund cut mid-way and the page reloaded offline resumes with its
// key once the network is back, refunded once; its receipt is all that prints. (Scanning with the
// camera: till-camera.spec.ts.)
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSession, expectStatus, terminalCall } from './api';
import { launchBrowser, openSession, signIn, type Session } from './browser';
import { seriousViolations, waitForScreen } from './pages';
import { texts, type Language } from './texts';

const PASSWORD = 'Wallet@2026';
/** Unique to this run, so the journey also works against a long-lived server. */
const suffix = Date.now().toString(36).slice(-6);
/** Where the screenshots go when asked for (`TILL_SCREENSHOTS=dir`). */
const SHOTS = process.env.TILL_SCREENSHOTS;

let browser: Browser;
const sessions: Session[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const session of sessions) await session.context.close().catch(() => undefined);
  await browser?.close();
});

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** The code the phone draws `ahead` ms from now, from the secret it keeps. */
async function codeAhead(phone: Page, ahead: number): Promise<string> {
  const stored = await phone.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.startsWith('pay-device:'))!;
    return JSON.parse(localStorage.getItem(key)!) as { device_id: string; secret: string };
  });
  const totp = new TOTP({
    secret: Secret.fromBase32(stored.secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
  });
  return stored.device_id + totp.generate({ timestamp: Date.now() + ahead });
}

async function charge(till: Page, code: string, amount: string, lng: Language = 'en') {
  const t = texts(lng);
  await till.getByLabel(t('till.pay_code'), { exact: true }).fill(code);
  await till.getByLabel(t('till.amount')).fill(amount);
  await till.getByRole('button', { name: t('till.charge_amount', { amount }) }).click();
}

describe('the till', () => {
  it.each(['en', 'zh'] as const)(
    'charges the code a phone draws, once, also with the network cut mid-charge (%s)',
    async (lng) => {
      const t = texts(lng);
      const staff = `T${lng.toUpperCase()}${suffix}`;
      const username = `till.${lng}.${suffix}`;
      // Setup through the API (other journeys drive these screens): an employee with 200 tokens
      // and a sign-in.
      const acme = await apiSession('acme.admin');
      const employee = expectStatus(
        await acme<{ data: { id: number } }>('POST', '/employees', {
          employee_id: staff,
          name: `Till ${suffix}`,
          status: 'active',
        }),
        201,
      ).data;
      expectStatus(
        await acme('POST', '/tokens/topup-token/employees', {
          items: [{ employee_id: employee.id, amount: 200 }],
        }),
        200,
      );
      const account = await acme('POST', `/employees/${employee.id}/account`, {
        username,
        password: PASSWORD,
        confirm_password: PASSWORD,
      });
      expect([200, 201]).toContain(account.status);

      // The employee's phone registers itself and draws its code.
      const phone = await openSession(browser);
      sessions.push(phone);
      await signIn(phone.page, username, PASSWORD);
      await phone.context.addCookies([{ name: 'lang', value: lng, url: phone.baseURL }]);
      await phone.page.setViewportSize({ width: 390, height: 844 });
      await phone.page.goto('/');
      await waitForScreen(phone.page, t('self_service.title'));
      await phone.page.getByRole('button', { name: t('payCode.setup') }).click();
      const digits = phone.page.getByTestId('pay-code-digits');
      await digits.waitFor();
      const qr = phone.page.getByTestId('pay-code-qr');
      const drawn = (await qr.getAttribute('data-code'))!;
      expect(drawn).toMatch(/^\d{18}$/);
      expect((await digits.textContent())!.replace(/\s/g, '')).toBe(drawn);
      expect(await seriousViolations(phone.page), 'wallet with pay code').toEqual([]);
      await shot(phone.page, `wallet-${lng}-390`);

      // The merchant's staff, at the till on a second page, desktop wide.
      const counter = await openSession(browser);
      sessions.push(counter);
      const till = counter.page;
      await signIn(till, 'shop.staff');
      await counter.context.addCookies([{ name: 'lang', value: lng, url: counter.baseURL }]);
      await till.reload();
      await till
        .getByRole('navigation', { name: t('nav.label') })
        .getByRole('link', { name: t('nav.till') })
        .click();
      await waitForScreen(till, t('till.title'));
      expect(await seriousViolations(till), 'till').toEqual([]);
      // The code on the phone's screen now (a step later if it changed meanwhile: one step is good).
      const code = (await qr.getAttribute('data-code'))!;
      await charge(till, code, '30', lng);
      const outcome = till.getByTestId('charge-outcome');
      await outcome.waitFor();
      expect(await outcome.textContent()).toBe(t('till.approved'));
      expect(await till.getByTestId('charge-paid').textContent()).toBe('30');
      expect(await till.getByTestId('charge-balance').textContent()).toBe('170');
      await till.getByTestId('till-order').first().waitFor();
      await shot(till, `till-${lng}-1280`);

      // The wallet shows the new balance.
      await phone.page.reload();
      await waitForScreen(phone.page, t('self_service.title'));
      await expect
        .poll(() => phone.page.getByTestId('wallet-balance').textContent())
        .toContain('170');

      // The network cut right after the charge leaves, restored once the server has answered.
      await till.getByRole('button', { name: t('till.next_charge') }).click();
      await till.setViewportSize({ width: 390, height: 844 });
      // The next step's code: the one just spent is good no more.
      const next = await codeAhead(phone.page, 30_000);
      const keys: string[] = [];
      till.on('request', (request) => {
        if (request.method() === 'POST' && request.url().includes('/till/terminals/')) {
          keys.push(request.headers()['idempotency-key'] ?? '');
        }
      });
      // The first try reaches the server, which places the order; its answer is then lost as the
      // network drops (offline before it comes back). The till must wait, then retry the same key.
      let served = false;
      await till.route(
        '**/api/v1/till/terminals/*/orders',
        async (route) => {
          const response = await route.fetch();
          served = response.status() === 201;
          await counter.context.setOffline(true);
          await route.abort('internetdisconnected');
        },
        { times: 1 },
      );
      await charge(till, next, '20', lng);
      await till.getByText(t('till.waiting')).first().waitFor();
      expect(served).toBe(true);
      expect(await till.evaluate(() => localStorage.getItem('till-pending-charge'))).not.toBeNull();
      await counter.context.setOffline(false);
      await outcome.waitFor({ timeout: 30_000 });
      expect(await outcome.textContent()).toBe(t('till.approved'));
      expect(await till.getByTestId('charge-balance').textContent()).toBe('150');
      expect(await till.evaluate(() => localStorage.getItem('till-pending-charge'))).toBeNull();
      // However many tries it took, each carried the charge's one key.
      expect(keys.length).toBeGreaterThanOrEqual(2);
      expect(new Set(keys).size).toBe(1);
      if (process.env.TILL_DEBUG) console.log(`charge tries: ${keys.length}`);
      await shot(till, `till-${lng}-390`);

      // The ledger holds one order of 20 for the employee, and the wallet 150 tokens.
      const shop = await apiSession('shop.staff');
      const terminals = expectStatus(
        await shop<{ data: { id: number }[] }>('GET', '/till/terminals'),
        200,
      ).data;
      const orders: { employee_id: string; subtotal: number }[] = [];
      for (const terminal of terminals) {
        orders.push(
          ...expectStatus(
            await shop<{ data: { employee_id: string; subtotal: number }[] }>(
              'GET',
              `/till/orders?terminal_id=${terminal.id}`,
            ),
            200,
          ).data,
        );
      }
      const mine = orders.filter((order) => order.employee_id === staff);
      expect(mine.map((order) => order.subtotal).sort((a, b) => a - b)).toEqual([20, 30]);
      await phone.page.reload();
      await waitForScreen(phone.page, t('self_service.title'));
      await expect
        .poll(() => phone.page.getByTestId('wallet-balance').textContent())
        .toContain('150');

      for (const session of [phone, counter]) {
        expect(session.problems).toEqual([]);
      }
    },
  );

  it('opens offline after a first visit, and resumes a refund cut mid-way after a reload, once', async () => {
    const t = texts('en');
    const zh = texts('zh');
    // An order of 40 tokens at the demo terminal SHOP/T1, by staff number.
    const staff = `R${suffix}`;
    const acme = await apiSession('acme.admin');
    const employee = expectStatus(
      await acme<{ data: { id: number } }>('POST', '/employees', {
        employee_id: staff,
        name: `Refund ${suffix}`,
        status: 'active',
      }),
      201,
    ).data;
    expectStatus(
      await acme('POST', '/tokens/topup-token/employees', {
        items: [{ employee_id: employee.id, amount: 100 }],
      }),
      200,
    );
    const order = expectStatus(
      await terminalCall<{ data: { id: number; order_no: string } }>('/orders', {
        company_code: 'ACME',
        employee_id: staff,
        order_type: 'dine_in',
        items: [{ name: 'Noodles', quantity: 1, unit_tokens: 40 }],
      }),
      201,
    ).data;

    // The supervisor's tablet opens the till once, online: its service worker keeps the shell.
    const tablet = await openSession(browser);
    sessions.push(tablet);
    const till = tablet.page;
    await signIn(till, 'shop.sup');
    await till.setViewportSize({ width: 820, height: 1180 });
    await till.goto('/till');
    await waitForScreen(till, t('till.title'));
    expect(
      await till.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL),
    ).toMatch(/\/till-sw\.js$/);
    const manifestHref = await till.locator('link[rel="manifest"]').getAttribute('href');
    const manifest = await till.request.get(manifestHref!);
    expect(manifest.headers()['content-type']).toContain('application/manifest+json');
    expect(await manifest.json()).toMatchObject({
      start_url: '/till',
      scope: '/till',
      display: 'standalone',
      icons: expect.arrayContaining([expect.objectContaining({ sizes: '512x512' })]),
    });
    const row = till.getByTestId('till-order').filter({ hasText: order.order_no });
    await row.waitFor();
    expect(await seriousViolations(till), 'till, supervisor, tablet').toEqual([]);
    await shot(till, 'till-supervisor-820');

    // Offline from the start: the till's page still opens, in Chinese too, and says so.
    await tablet.context.addCookies([{ name: 'lang', value: 'zh', url: tablet.baseURL }]);
    await tablet.context.setOffline(true);
    await till.reload();
    await waitForScreen(till, zh('till.title'));
    await till.getByTestId('till-offline').waitFor();
    expect(await till.getByTestId('till-offline').textContent()).toBe(zh('till.offline'));
    // It asks the API and gets no answer from anywhere: no answer of the API was kept.
    await till.getByText(zh('till.terminals_failed')).waitFor();
    expect(
      await till.evaluate(async () => {
        const urls: string[] = [];
        for (const name of await caches.keys()) {
          for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
        }
        return urls;
      }),
    ).not.toContainEqual(expect.stringContaining('/api/'));
    expect(await seriousViolations(till), 'till offline, zh').toEqual([]);
    await shot(till, 'till-offline-zh-820');
    // Back online, the till asks again by itself.
    await tablet.context.setOffline(false);
    await row.waitFor();
    await tablet.context.addCookies([{ name: 'lang', value: 'en', url: tablet.baseURL }]);
    await till.reload();
    await waitForScreen(till, t('till.title'));

    // A refund of 15 whose answer is lost: the server refunds, the network drops as it answers.
    const keys: string[] = [];
    till.on('request', (request) => {
      if (
        request.method() === 'POST' &&
        request.url().endsWith(`/till/orders/${order.id}/refund`)
      ) {
        keys.push(request.headers()['idempotency-key'] ?? '');
      }
    });
    let served = false;
    await till.route(
      `**/api/v1/till/orders/${order.id}/refund`,
      async (route) => {
        const response = await route.fetch();
        served = response.status() === 200;
        await tablet.context.setOffline(true);
        await route.abort('internetdisconnected');
      },
      { times: 1 },
    );
    await row
      .getByRole('button', { name: t('till.refund_named', { order: order.order_no }) })
      .click();
    const dialog = till.getByRole('dialog');
    // A removed item: the one reason that names an amount.
    await dialog.getByLabel(t('till.refund_reason')).selectOption('item_removed');
    await dialog.getByLabel(t('till.refund_amount')).fill('15');
    await dialog.getByRole('button', { name: t('till.refund_confirm', { amount: '15' }) }).click();
    await dialog.getByText(t('till.waiting')).waitFor();
    expect(served).toBe(true);
    const kept = await till.evaluate(() => localStorage.getItem('till-pending-refund'));
    expect(JSON.parse(kept!)).toMatchObject({ order_id: order.id, body: { amount: 15 } });

    // Reloaded while still offline: the page comes from the service worker, the refund waits.
    await till.reload();
    await waitForScreen(till, t('till.title'));
    const status = till.getByTestId('refund-status');
    await status.waitFor();
    expect(await status.textContent()).toContain(
      t('till.refund_waiting', { order: order.order_no }),
    );
    await shot(till, 'till-refund-waiting-820');
    // The network is back: the same key again, and the server's first answer.
    await tablet.context.setOffline(false);
    await till
      .getByText(t('till.refund_done', { order: order.order_no, amount: '15' }))
      .waitFor({ timeout: 30_000 });
    expect(await till.evaluate(() => localStorage.getItem('till-pending-refund'))).toBeNull();
    expect(keys.length).toBeGreaterThanOrEqual(2);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toBe((JSON.parse(kept!) as { key: string }).key);
    await row.getByText(t('till.refunded_amount', { amount: '15' })).waitFor();

    // Refunded once: 15 of the order, the employee's wallet 60 + 15.
    const shop = await apiSession('shop.sup');
    const today = expectStatus(
      await shop<{ data: { id: number; refunded_amount: number }[] }>('GET', '/till/orders'),
      200,
    ).data;
    expect(today.find((o) => o.id === order.id)?.refunded_amount).toBe(15);

    // The receipt prints alone.
    await till.evaluate(() => {
      window.print = () => document.body.setAttribute('data-printed', 'yes');
    });
    await row
      .getByRole('button', { name: t('till.print_named', { order: order.order_no }) })
      .click();
    await till.locator('body[data-printed="yes"]').waitFor({ state: 'attached' });
    await till.emulateMedia({ media: 'print' });
    const receipt = till.getByTestId('receipt');
    expect(await receipt.isVisible()).toBe(true);
    expect(await receipt.textContent()).toContain(order.order_no);
    expect(await till.locator('#root').isVisible()).toBe(false);
    await shot(till, 'till-receipt-print');
    await till.emulateMedia({ media: 'screen' });
    expect(await receipt.isVisible()).toBe(false);

    expect(
      tablet.problems.filter((p) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch/.test(p)),
    ).toEqual([]);
  });
});
