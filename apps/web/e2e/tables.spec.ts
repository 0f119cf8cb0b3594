import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { expectPath, type Session, signIn, sessionPerTest } from './browser';
import { seriousViolations, waitForScreen } from './pages';
import { text, type Language } from './texts';

/**
 * Tables like Stripe's and one date system (issue 19 items 2 and 3), on the real server with the
 * demo programme, in English and Chinese, at 1280 and 390 px wide: a header sorts on the server
 * and the URL says so; a row opens its record's page; row actions are on screen at 1280 px; no
 * page scrolls sideways on a phone; the date fields write days as the text does; axe clean.
 */

const LANGUAGES = ['en', 'zh'] as const;

const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const WIDTHS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

let session: Session;
let page: Page;

sessionPerTest((opened) => ({ session, page } = opened));

async function open(lng: Language, url: string, heading: string | RegExp) {
  await session.context.addCookies([{ name: 'lang', value: lng, url: session.baseURL }]);
  await page.goto(url);
  await waitForScreen(page, heading);
}

/**
 * What makes the page wider than the window (it would scroll sideways): the outermost elements
 * reaching past its right edge, outside any box that scrolls on its own; empty when nothing does.
 */
const scrollsSideways = () =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    const inScroller = (element: Element) => {
      for (let node = element.parentElement; node; node = node.parentElement) {
        const overflow = getComputedStyle(node).overflowX;
        if (overflow === 'auto' || overflow === 'scroll' || overflow === 'hidden') return true;
      }
      return false;
    };
    return [...document.body.querySelectorAll('*')]
      .filter(
        (element) => element.getBoundingClientRect().right > width + 1 && !inScroller(element),
      )
      .slice(0, 5)
      .map(
        (element) => `${element.tagName.toLowerCase()}.${String(element.className).slice(0, 80)}`,
      );
  });

/** The text of one column of a table's body rows. */
const columnText = (page_: Page, tableName: string, index: number) =>
  page_
    .getByRole('table', { name: tableName })
    .locator(`tbody tr td:nth-child(${index})`)
    .allTextContents();

describe.each(LANGUAGES)('tables in %s at 1280 px', (lng) => {
  const t = (key: string, values?: Record<string, string>) => text(lng, key, values);

  beforeEach(async () => {
    await page.setViewportSize(WIDTHS.desktop);
  });

  it('sorts companies by name on the server, in the URL, with aria-sort, and opens a company', async () => {
    await signIn(page, 'admin');
    await open(lng, '/companies', t('nav.companies'));
    const label = t('companies.table_label');
    const header = page.getByRole('columnheader', {
      name: new RegExp(`^${escape(t('companies.name'))}`),
    });
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('none');

    await header.getByRole('button').click();
    await expectPath(page, '/companies?sort=name&order=asc');
    await waitForScreen(page);
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('ascending');
    // The rows follow once the server answers (the previous page stays on screen meanwhile).
    const isAscending = (names: string[]) =>
      names.every((name, i) => i === 0 || names[i - 1]!.toLowerCase() <= name.toLowerCase());
    await expect.poll(async () => isAscending(await columnText(page, label, 2))).toBe(true);
    const ascending = await columnText(page, label, 2);

    await header.getByRole('button').click();
    await expectPath(page, '/companies?sort=name&order=desc');
    await waitForScreen(page);
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('descending');
    expect(ascending.length).toBeGreaterThan(2);
    await expect.poll(() => columnText(page, label, 2)).toEqual([...ascending].reverse());
    expect(await seriousViolations(page)).toEqual([]);

    // A click on the row (not on its menu) opens the company's page: wallet, ledger, actions.
    const acme = page.getByRole('row').filter({ hasText: 'Acme Corporation' });
    await acme.locator('td').first().click();
    await page.waitForURL(/\/companies\/\d+$/);
    await waitForScreen(page, 'Acme Corporation');
    await page.getByTestId('next-reset-words').waitFor();
    const words = await page.getByTestId('next-reset-words').textContent();
    // "Tuesday 1 December 2026" / "2026年12月1日星期二": the weekday, in words.
    expect(words).toMatch(
      lng === 'en'
        ? /^[A-Z][a-z]+day \d{1,2} [A-Z][a-z]+ \d{4}$/
        : /^\d{4}年\d{1,2}月\d{1,2}日星期./,
    );
    await page.getByRole('table', { name: t('detail.ledger') }).waitFor();
    await page.getByRole('button', { name: t('companies.issue') }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('keeps row actions on screen and opens an employee and a merchant from their rows', async () => {
    await signIn(page, 'acme.admin');
    await open(lng, '/employees', t('nav.employees'));
    // The Email header is a column's name, not the form's "(optional)" label.
    await page
      .getByRole('columnheader', { name: new RegExp(`^${escape(t('employees.email_column'))}`) })
      .waitFor();
    expect(
      await page
        .getByRole('columnheader', { name: new RegExp(escape(t('employees.email'))) })
        .count(),
    ).toBe(0);
    const firstRow = page
      .getByRole('table', { name: t('employees.table_label') })
      .locator('tbody tr')
      .first();
    const actions = firstRow.getByRole('button', {
      name: new RegExp(escape(t('table.row_actions', { name: '' }))),
    });
    const box = (await actions.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(WIDTHS.desktop.width);
    expect(await seriousViolations(page)).toEqual([]);

    // Sorting by balance puts the URL and the rows in that order. The previous page stays on
    // screen until the server answers, so the row is read only once the sorted answer is in.
    const sorted = page.waitForResponse(
      (response) =>
        response.request().resourceType() === 'fetch' &&
        response.url().includes('sort=available_tokens'),
    );
    await page
      .getByRole('columnheader', {
        name: new RegExp(`^${escape(t('employees.available_tokens'))}`),
      })
      .getByRole('button')
      .click();
    await expectPath(page, '/employees?sort=available_tokens&order=asc');
    await sorted;
    await waitForScreen(page);

    const staffNumber = (await firstRow.locator('td').nth(1).textContent())!.trim();
    // The row is found again by its staff number, so the click opens the employee just read.
    await page
      .getByRole('table', { name: t('employees.table_label') })
      .locator('tbody tr')
      .filter({ has: page.getByRole('cell', { name: staffNumber, exact: true }) })
      .locator('td')
      .nth(4)
      .click();
    await page.waitForURL(/\/employees\/\d+$/);
    await waitForScreen(page);
    await page.getByText(staffNumber, { exact: true }).first().waitFor();
    await page.getByRole('table', { name: t('detail.ledger') }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('opens a merchant with its orders, and writes the reset date as the text does', async () => {
    await signIn(page, 'admin');
    await open(lng, '/merchants', t('nav.merchants'));
    const row = page
      .getByRole('table', { name: t('merchants.table_label') })
      .locator('tbody tr')
      .first();
    await row.locator('td').nth(2).click();
    await page.waitForURL(/\/merchants\/\d+$/);
    await waitForScreen(page);
    await page.getByRole('table', { name: t('detail.orders') }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await open(lng, '/reset-period-date', t('nav.reset_period_date'));
    const field = page.getByLabel(t('reset_period.next_reset_date'), { exact: true });
    const shown = await field.inputValue();
    expect(shown).toMatch(lng === 'en' ? /^\d{2}\/\d{2}\/\d{4}$/ : /^\d{4}-\d{2}-\d{2}$/);
    const scheduled = await page.getByTestId('reset-date-scheduled').textContent();
    expect(scheduled).toMatch(
      lng === 'en' ? /day \d{1,2} [A-Z][a-z]+ \d{4}/ : /\d{4}年\d{1,2}月\d{1,2}日星期/,
    );
    await page.getByRole('button', { name: t('date_picker.open_calendar') }).click();
    await page.getByRole('grid').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });
});

describe.each(LANGUAGES)('tables in %s at 390 px', (lng) => {
  const t = (key: string, values?: Record<string, string>) => text(lng, key, values);

  /** Signs in at the desktop width (the sign-in helper waits for the sidebar), then narrows. */
  const signInOnPhone = async (username: string) => {
    await signIn(page, username);
    await page.setViewportSize(WIDTHS.phone);
  };

  it('shows lists as cards, opens a company from its card, and no screen scrolls sideways', async () => {
    await signInOnPhone('admin');
    const screens: [string, string][] = [
      ['/dashboard', t('nav.dashboard')],
      ['/companies?sort=name&order=desc', t('nav.companies')],
      ['/merchants', t('nav.merchants')],
      ['/order-history', t('nav.order_history')],
      ['/company-transaction', t('nav.company_transaction')],
      ['/employee-transaction', t('nav.employee_transaction')],
      ['/summary-report', t('nav.summary_report')],
      ['/reset-period-date', t('nav.reset_period_date')],
      ['/user', t('nav.users')],
    ];
    // Each of these screens is scanned by axe at 390 px in screens.spec.ts; here, the width only.
    for (const [url, heading] of screens) {
      await open(lng, url, heading);
      expect(await scrollsSideways(), url).toEqual([]);
    }

    // The KPI cards sit two to a row.
    await open(lng, '/dashboard', t('nav.dashboard'));
    const cards = page.getByRole('list', { name: t('dashboard.totals') }).locator('li');
    if ((await cards.count()) >= 2) {
      const [first, second] = [
        (await cards.nth(0).boundingBox())!,
        (await cards.nth(1).boundingBox())!,
      ];
      expect(Math.abs(first.y - second.y)).toBeLessThan(1);
    }

    // The ledger's cards say the signed amount first.
    await open(lng, '/company-transaction', t('nav.company_transaction'));
    const amount = page.getByTestId('card-amount').first();
    await expect(amount.textContent()).resolves.toMatch(/^[+\u2212][\d,]+$/);

    await open(lng, '/companies?sort=name&order=desc', t('nav.companies'));
    const list = page.getByTestId('table-cards');
    await list.waitFor();
    await list.locator('li').filter({ hasText: 'Acme Corporation' }).locator('dl').click();
    await page.waitForURL(/\/companies\/\d+$/);
    await waitForScreen(page, 'Acme Corporation');
    expect(await scrollsSideways()).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  }, 120_000); // nine screens

  it('sorts the cards with the control above them (no headers on a phone): cards and URL follow', async () => {
    await signInOnPhone('admin');
    await open(lng, '/companies', t('nav.companies'));
    /** The companies' names, card by card (each card's title is its company's link). */
    const cardNames = () =>
      page
        .getByTestId('table-cards')
        .evaluate((list) =>
          [...list.children].map((card) => card.querySelector('a')?.textContent ?? ''),
        );
    const inOrder = (names: string[], direction: 1 | -1) =>
      names.every(
        (name, i) =>
          i === 0 || direction * names[i - 1]!.toLowerCase().localeCompare(name.toLowerCase()) <= 0,
      );
    const control = page.getByRole('group', { name: t('table.sort_by') });
    await control.getByRole('combobox', { name: t('table.sort_column') }).click();
    await page.getByRole('option', { name: t('companies.name'), exact: true }).click();
    await expectPath(page, '/companies?sort=name&order=asc');
    await waitForScreen(page);
    await expect.poll(async () => inOrder(await cardNames(), 1)).toBe(true);
    const ascending = await cardNames();
    expect(ascending.length).toBeGreaterThan(2);

    await control.getByRole('combobox', { name: t('table.sort_order') }).click();
    await page.getByRole('option', { name: t('table.descending'), exact: true }).click();
    await expectPath(page, '/companies?sort=name&order=desc');
    await waitForScreen(page);
    await expect.poll(async () => inOrder(await cardNames(), -1)).toBe(true);
    expect(await cardNames()).not.toEqual(ascending);
    expect(await scrollsSideways()).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('gives a company admin its employees as cards, and an employee’s page, without sideways scroll', async () => {
    await signInOnPhone('acme.admin');
    await open(lng, '/employees', t('nav.employees'));
    expect(await scrollsSideways()).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    const card = page.getByTestId('table-cards').locator('li').first();
    await card.locator('dl').click();
    await page.waitForURL(/\/employees\/\d+$/);
    await waitForScreen(page);
    expect(await scrollsSideways()).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
