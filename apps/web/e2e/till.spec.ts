// The till and rotating pay codes (issue 43, DESIGN 8, decision 0078): an employee registers its
// phone and its wallet draws a code; a merchant's staff, on a second page, opens /till, types that
// code, charges, and sees the approval; the wallet then shows the new balance. Then the network is
// cut right after a charge leaves and restored: the till ends on "approved" with one order.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSession, expectStatus } from './api';
import { launchBrowser, openSession, signIn, type Session } from './browser';
import { seriousViolations, waitForScreen } from './pages';
import { texts } from './texts';

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

async function charge(till: Page, code: string, amount: string) {
  const t = texts('en');
  await till.getByLabel(t('till.pay_code'), { exact: true }).fill(code);
  await till.getByLabel(t('till.amount')).fill(amount);
  await till.getByRole('button', { name: t('till.charge_amount', { amount }) }).click();
}

describe('the till', () => {
  it('charges the code a phone draws, once, also with the network cut mid-charge', async () => {
    const t = texts('en');
    const staff = `T${suffix}`;
    const username = `till.${suffix}`;
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
    await shot(phone.page, 'wallet-390');

    // The merchant's staff, at the till on a second page, desktop wide.
    const counter = await openSession(browser);
    sessions.push(counter);
    const till = counter.page;
    await signIn(till, 'shop.staff');
    await till
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: t('nav.till') })
      .click();
    await waitForScreen(till, t('till.title'));
    expect(await seriousViolations(till), 'till').toEqual([]);
    // The code on the phone's screen now (a step later if it changed meanwhile: one step is good).
    const code = (await qr.getAttribute('data-code'))!;
    await charge(till, code, '30');
    const outcome = till.getByTestId('charge-outcome');
    await outcome.waitFor();
    expect(await outcome.textContent()).toBe(t('till.approved'));
    expect(await till.getByTestId('charge-paid').textContent()).toBe('30');
    expect(await till.getByTestId('charge-balance').textContent()).toBe('170');
    await till.getByTestId('till-order').first().waitFor();
    await shot(till, 'till-1280');

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
    await charge(till, next, '20');
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
    await shot(till, 'till-390');

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
  });
});
