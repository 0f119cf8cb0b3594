// Settlement statements (issue 17 item 2, decision 0040): the admin, in English at 1280 wide, opens
// a closed half-month of SHOP from the list, reads the same figures the API gives, and downloads the
// CSV and the PDF; SHOP's staff, in Chinese at 390 wide, sees its own merchant's statements only.
// Axe clean, no console error.
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { SettlementList, SettlementPeriod } from '@app/contract';
import { apiSession } from './api';
import { expectPath, sessionPerTest, signIn, type Session } from './browser';
import { readTable, seriousViolations, waitForScreen } from './pages';
import { texts } from './texts';

let session: Session;
let page: Page;

sessionPerTest((opened) => ({ session, page } = opened));

const dmy = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
const thousands = (n: number) => n.toLocaleString('en-US');

describe('settlement statements', () => {
  it('the admin, in English at 1280 wide, opens a closed half of SHOP and downloads it', async () => {
    const t = texts('en');
    const call = await apiSession('admin');
    const merchants = (
      await call<{ data: { id: number; code: string }[] }>('GET', '/settlements/merchants')
    ).body.data;
    const shop = merchants.find((m) => m.code === 'SHOP')!;
    const listed = (
      await call<SettlementList>('GET', `/settlements?merchant_id=${shop.id}&page_size=50`)
    ).body;
    // The demo's three months of orders: statements in more than one half-month.
    expect(new Set(listed.data.map((p) => p.period_start)).size).toBeGreaterThan(1);
    const closed: SettlementPeriod = listed.data.find((p) => p.status === 'closed')!;

    await signIn(page, 'admin');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: t('nav.settlements') })
      .click();
    await expectPath(page, '/settlements');
    await waitForScreen(page, t('nav.settlements'));
    expect(await seriousViolations(page), 'settlements en desktop').toEqual([]);

    // The merchant filter narrows the list to SHOP's statements, as the API lists them.
    await page
      .locator('main')
      .getByRole('button', { name: t('settlements.merchant') })
      .and(page.locator('[aria-haspopup="menu"]'))
      .click();
    await page.getByRole('menuitemradio', { name: /\(SHOP\)$/ }).click();
    await expectPath(page, `/settlements?merchant_id=${shop.id}`);
    await waitForScreen(page, t('nav.settlements'));
    // Polled: the unfiltered list stays on screen until the filtered one has arrived.
    const table = page.getByRole('table', { name: t('settlements.table_label') });
    await expect
      .poll(async () => (await readTable(table)).map((r) => r[t('settlements.period')]))
      .toEqual(
        listed.data.slice(0, 10).map((p) => `${dmy(p.period_start)} – ${dmy(p.period_end)}`),
      );

    const label = `${dmy(closed.period_start)} – ${dmy(closed.period_end)}`;
    await page.getByRole('link', { name: new RegExp(`^${label}`) }).click();
    await expectPath(page, `/settlements/${shop.id}/${closed.period_start}`);
    await waitForScreen(
      page,
      t('settlements.statement_title', { merchant: `${closed.merchant_name} (SHOP)` }),
    );
    const split = await readTable(page.getByRole('table', { name: t('settlements.by_company') }));
    expect(split.at(-1)).toMatchObject({
      [t('settlements.company')]: t('settlements.total'),
      [t('settlements.orders')]: String(closed.orders),
      [t('settlements.net')]: thousands(closed.net_tokens),
    });
    expect(split).toHaveLength(closed.companies.length + 1);
    expect(await seriousViolations(page), 'settlement statement en desktop').toEqual([]);

    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: t('table.export_csv') }).click(),
    ]);
    expect(csv.suggestedFilename()).toBe(`settlement-SHOP-${closed.period_start}.csv`);
    const lines = (await readFile((await csv.path())!, 'utf8')).trim().split('\r\n');
    const statement = (
      await call<{ total: number }>('GET', `/settlements/${shop.id}/${closed.period_start}`)
    ).body;
    expect(lines).toHaveLength(statement.total + 1);

    const [pdf] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: t('settlements.download_pdf') }).click(),
    ]);
    expect(pdf.suggestedFilename()).toBe(`settlement-SHOP-${closed.period_start}.pdf`);
    expect((await readFile((await pdf.path())!)).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('SHOP’s admin, in Chinese at 390 wide, sees its own merchant’s statements only', async () => {
    const t = texts('zh');
    // DESIGN 8: the statements are the merchant admin's; a cashier's role only charges.
    await signIn(page, 'shop.admin');
    await session.context.addCookies([{ name: 'lang', value: 'zh', url: session.baseURL }]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/dashboard');
    // A merchant's landing route is its takings by terminal (issue 43, decision 0079).
    await waitForScreen(page, t('merchant_home.title'));
    await page
      .getByRole('button', { name: t('sidebar.toggle') })
      .first()
      .click();
    await page
      .getByRole('dialog', { name: t('sidebar.title') })
      .getByRole('link', { name: t('nav.settlements') })
      .click();
    await expectPath(page, '/settlements');
    await waitForScreen(page, t('nav.settlements'));
    expect(await seriousViolations(page), 'settlements zh mobile').toEqual([]);

    const cards = page
      .getByRole('list', { name: t('settlements.table_label'), exact: true })
      .getByRole('listitem');
    const shown = await cards.allInnerTexts();
    expect(shown.length).toBeGreaterThan(1);
    for (const card of shown) {
      expect(card).toContain('(SHOP)');
      expect(card).not.toContain('(CAFE)');
    }
    // No merchant filter: it sees one merchant.
    expect(
      await page
        .locator('main')
        .getByRole('button', { name: t('settlements.merchant') })
        .count(),
    ).toBe(0);

    await cards.first().getByRole('link').first().click();
    await page.waitForURL(/\/settlements\/\d+\/\d{4}-\d{2}-(01|16)$/);
    await waitForScreen(page, /^结算单：/);
    await page.getByRole('table', { name: t('settlements.by_company') }).waitFor();
    expect(await seriousViolations(page), 'settlement statement zh mobile').toEqual([]);
  });
});
