// Declined orders (issue 42, DESIGN 7): an order the balance does not cover is refused at the till
// and kept; the admin finds it on Order History's Declined view with its reason in words (English
// at 1280 wide, Chinese at 390 wide), and the company admin under the employee's ledger on
// Employee Transaction. Axe clean, no console error. With SCREENSHOTS=1 the views are shot into
// test-results/screenshots/declines/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiSession, expectStatus, terminalCall } from './api';
import { expectPath, signIn, sessionPerTest, type Session } from './browser';
import { readTable, seriousViolations, waitForScreen } from './pages';
import { texts } from './texts';

const SHOTS_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../test-results/screenshots/declines',
);
const shoot = async (page: Page, name: string) => {
  if (process.env.SCREENSHOTS !== '1') return;
  mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`), fullPage: true });
};

// More than any demo wallet holds: refused for the balance, whatever the rules.
const AMOUNT = 987_654;
let employeeId = 0;

beforeAll(async () => {
  const acme = await apiSession('acme.admin');
  const employees = expectStatus(
    await acme<{ data: { id: number; employee_id: string }[] }>(
      'GET',
      '/employees?search=E0002&page_size=10',
    ),
    200,
  );
  employeeId = employees.data.find((e) => e.employee_id === 'E0002')!.id;
  const refused = await terminalCall<{ code: string }>('/orders', {
    company_code: 'ACME',
    employee_id: 'E0002',
    order_type: 'dine_in',
    items: [{ name: 'Banquet', quantity: 1, unit_tokens: AMOUNT }],
  });
  expect(refused.status).toBe(409);
  expect(refused.body.code).toBe('INSUFFICIENT_TOKENS');
});

let session: Session;
let page: Page;

sessionPerTest((opened) => ({ session, page } = opened));

describe('declined orders', () => {
  it("the admin, in English at 1280 wide, reads them on Order History's Declined view", async () => {
    const t = texts('en');
    await signIn(page, 'admin');
    await page.goto('/order-history');
    await waitForScreen(page, t('nav.order_history'));
    await page
      .getByRole('navigation', { name: t('declines.tabs_label') })
      .getByRole('link', { name: t('declines.tab_declined') })
      .click();
    await expectPath(page, '/order-history?view=declined');
    await waitForScreen(page, t('nav.order_history'));
    const table = page.getByRole('table', { name: t('declines.table_label') });
    await table.getByText('987,654').first().waitFor();
    const row = (await readTable(table)).find((r) => r[t('declines.amount')] === '987,654')!;
    expect(row).toMatchObject({
      [t('declines.company')]: 'Acme Corporation',
      [t('declines.reason')]: 'The balance does not cover this amount.',
    });
    expect(row[t('declines.employee')]).toMatch(/^E0002 · /);
    expect(await seriousViolations(page), 'declines en desktop').toEqual([]);
    await shoot(page, 'order-history.en.desktop');

    await page
      .locator('main')
      .getByRole('button', { name: t('declines.reason') })
      .and(page.locator('[aria-haspopup="menu"]'))
      .click();
    await page
      .getByRole('menuitemradio', { name: t('declines.codes.INSUFFICIENT_TOKENS') })
      .click();
    await expectPath(page, '/order-history?view=declined&code=INSUFFICIENT_TOKENS');
    await waitForScreen(page, t('nav.order_history'));
    const reasons = (await readTable(table)).map((r) => r[t('declines.reason')]);
    expect(new Set(reasons)).toEqual(new Set(['The balance does not cover this amount.']));
  });

  it('reads in Chinese at 390 wide, on cards', async () => {
    const t = texts('zh');
    await signIn(page, 'admin');
    await session.context.addCookies([{ name: 'lang', value: 'zh', url: session.baseURL }]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/order-history?view=declined');
    await waitForScreen(page, t('nav.order_history'));
    const cards = page.getByRole('list', { name: t('declines.table_label') });
    await cards.getByText('余额不足以支付该金额。').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    expect(await seriousViolations(page), 'declines zh mobile').toEqual([]);
    await shoot(page, 'order-history.zh.mobile');
  });

  it("the company admin finds them under the employee's ledger", async () => {
    const t = texts('en');
    await signIn(page, 'acme.admin');
    await page.goto(`/employee-transaction?employee_id=${employeeId}`);
    await waitForScreen(page, t('nav.employee_transaction'));
    const section = page.getByRole('region', { name: t('declines.employee_title') });
    const table = section.getByRole('table', { name: t('declines.employee_title') });
    await table.getByText('987,654').first().waitFor();
    const row = (await readTable(table)).find((r) => r[t('declines.amount')] === '987,654')!;
    expect(row[t('declines.reason')]).toBe('The balance does not cover this amount.');
    expect(await seriousViolations(page), 'employee declines en desktop').toEqual([]);
    await shoot(page, 'employee-transaction.en.desktop');
  });
});
