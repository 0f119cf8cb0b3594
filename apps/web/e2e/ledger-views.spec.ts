import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiSession, expectStatus, terminalCall } from './api';
import { type Session, signIn, sessionPerTest } from './browser';
import { seriousViolations, waitForScreen } from './pages';
import { text, type Language } from './texts';

/**
 * Ledger views an auditor trusts (issue 19 item 1), on the real server with the demo programme:
 * as admin with All companies, Company Transaction has a Company column; an order with 23 of 70
 * tokens refunded reads "Partially refunded"; the dashboard set to a month with no movement says
 * so in words over the month it names. In English and Chinese, axe clean on each screen.
 */

const LANGUAGES = ['en', 'zh'] as const;

/** A month long before the demo programme: nothing moved in it. */
const EMPTY_MONTH = '2001-01';
const EMPTY_MONTH_WORDS: Record<Language, string> = { en: 'January 2001', zh: '2001年1月' };

let session: Session;
let page: Page;
let orderNo = '';

beforeAll(async () => {
  // An order of 70 tokens with 23 refunded: E0001 of ACME gets the tokens first.
  const acme = await apiSession('acme.admin');
  const employees = expectStatus(
    await acme<{ data: { id: number; employee_id: string }[] }>(
      'GET',
      '/employees?search=E0001&page_size=10',
    ),
    200,
  );
  const e0001 = employees.data.find((e) => e.employee_id === 'E0001')!;
  expectStatus(
    await acme('POST', '/tokens/topup-token/employees', {
      items: [{ employee_id: e0001.id, amount: 70 }],
    }),
    200,
  );
  const placed = expectStatus(
    await terminalCall<{ data: { id: number; order_no: string } }>('/orders', {
      company_code: 'ACME',
      employee_id: 'E0001',
      order_type: 'dine_in',
      items: [{ name: 'Set lunch', quantity: 1, unit_tokens: 70 }],
    }),
    201,
  ).data;
  orderNo = placed.order_no;
  expectStatus(
    await terminalCall(`/orders/${placed.id}/refund`, { reason: 'item_removed', amount: 23 }),
    200,
  );
});

sessionPerTest((opened) => ({ session, page } = opened));

beforeEach(async () => {
  await signIn(page, 'admin');
});

async function inLanguage(lng: Language, url: string, heading: string) {
  await session.context.addCookies([{ name: 'lang', value: lng, url: session.baseURL }]);
  await page.goto(url);
  await waitForScreen(page, heading);
}

describe.each(LANGUAGES)('ledger views in %s', (lng) => {
  const t = (key: string, values?: Record<string, string>) => text(lng, key, values);

  it('names the company of each row on Company Transaction with All companies', async () => {
    await inLanguage(lng, '/company-transaction', t('nav.company_transaction'));
    const table = page.getByRole('table', { name: t('transactions.table_label_company') });
    await expect(
      table.getByRole('columnheader', { name: t('transactions.company'), exact: true }).count(),
    ).resolves.toBe(1);
    // Every row names its company by name and code (other journeys may have added companies).
    const companies = await table
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((row) => row.querySelectorAll('td')[1]?.textContent ?? ''));
    expect(companies.length).toBeGreaterThan(0);
    for (const cell of companies) expect(cell).toMatch(/^\S.* \([A-Z0-9_-]+\)$/);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows a partly refunded order as Partially refunded, and opens it from its row', async () => {
    await inLanguage(lng, '/order-history?refund_state=partial', t('nav.order_history'));
    const row = page.getByRole('row').filter({ hasText: orderNo });
    await row.getByText(t('order_states.partial'), { exact: true }).waitFor();
    await expect(row.getByText(t('order_types.dine_in'), { exact: true }).count()).resolves.toBe(1);
    expect(await seriousViolations(page)).toEqual([]);

    await inLanguage(
      lng,
      '/employee-transaction?event=order_purchased',
      t('nav.employee_transaction'),
    );
    const purchase = page.getByRole('button', {
      name: t('ledger.describe.order_purchased', { order: orderNo, merchant: 'SHOP' }),
    });
    await purchase.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.getByText(t('order_states.partial'), { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('says an empty month has no token movement, over the month it names', async () => {
    await inLanguage(lng, `/dashboard?month=${EMPTY_MONTH}`, t('nav.dashboard'));
    const empty = page.getByTestId('dashboard-empty');
    await expect(empty.textContent()).resolves.toBe(
      t('dashboard.empty_month', { month: EMPTY_MONTH_WORDS[lng] }),
    );
    const window = await page.getByTestId('dashboard-window').textContent();
    expect(window).toContain(EMPTY_MONTH_WORDS[lng]);
    // From the first day counted, ACME's (it resets on the 1st), to the last (decision 0088).
    expect(window).toContain(lng === 'en' ? '1 January 2001 – ' : '2001年1月1日 至 ');
    expect(await page.getByRole('list', { name: t('dashboard.totals') }).count()).toBe(0);
    // The summary below counts the month chosen.
    await expect(page.getByTestId('summary-caption').textContent()).resolves.toBe(
      t('dashboard.summary_caption', { month: EMPTY_MONTH_WORDS[lng] }),
    );
    expect(await seriousViolations(page)).toEqual([]);
  });
});
