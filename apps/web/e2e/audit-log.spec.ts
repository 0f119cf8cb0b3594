// The Audit Log screen (issue 17 item 4, decision 0036): the admin filters by action and opens a
// change as before and after, in English at 1280 wide; ACME's company admin, in Chinese at 390
// wide, sees its own company's rows and no other company's. Axe clean, no console error.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiSession } from './api';
import { expectPath, type Session, signIn, sessionPerTest } from './browser';
import { readTable, seriousViolations, waitForScreen } from './pages';
import { texts } from './texts';

interface Named {
  id: number;
  code: string;
  name: string;
  status: 'active' | 'inactive';
}

let session: Session;
let page: Page;

sessionPerTest((opened) => ({ session, page } = opened));

describe('the audit log', () => {
  it('the admin, in English at 1280 wide, filters by action and opens a change', async () => {
    const t = texts('en');
    // A change to look at: a merchant renamed, then named back (two updates, both names in each).
    const call = await apiSession('admin');
    const merchants = await call<{ data: Named[] }>('GET', '/merchants?page_size=50');
    const cafe = merchants.body.data.find((m) => m.code === 'CAFE')!;
    const renamed = `${cafe.name} ${Date.now().toString(36).slice(-5)}`;
    const put = (name: string) =>
      call('PUT', `/merchants/${cafe.id}`, { name, status: cafe.status });
    expect((await put(renamed)).status).toBe(200);
    expect((await put(cafe.name)).status).toBe(200);

    await signIn(page, 'admin');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: t('nav.audit_log') })
      .click();
    await expectPath(page, '/audit-log');
    await waitForScreen(page, t('nav.audit_log'));
    expect(await seriousViolations(page), 'audit log en desktop').toEqual([]);

    // The toolbar's Action filter (the table's Action header is a sort button of the same name).
    await page
      .locator('main')
      .getByRole('button', { name: t('audit_log.action') })
      .and(page.locator('[aria-haspopup="menu"]'))
      .click();
    await page.getByRole('menuitemradio', { name: t('audit_log.actions.update') }).click();
    await expectPath(page, '/audit-log?action=update');
    await waitForScreen(page, t('nav.audit_log'));
    const table = page.getByRole('table', { name: t('audit_log.table_label') });
    // Polled: the unfiltered list stays on screen until the filtered one has arrived (a sign-in
    // row read where an update was expected, in a run at 19:33 on 2026-11-26).
    const actions = async () => (await readTable(table)).map((row) => row[t('audit_log.action')]);
    await expect
      .poll(async () => new Set(await actions()), { timeout: 15_000 })
      .toEqual(new Set([t('audit_log.actions.update')]));
    const rows = await readTable(table);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const row of rows) expect(row[t('audit_log.action')]).toBe(t('audit_log.actions.update'));
    const record = `${t('audit_log.entities.merchant')} #${cafe.id}`;
    // The newest: the name given back (the record's name after the change, and its id).
    expect(rows[0]).toMatchObject({
      [t('audit_log.actor')]: 'admin',
      [t('audit_log.record_type')]: t('audit_log.entities.merchant'),
      [t('audit_log.record')]: `${cafe.name} (#${cafe.id})`,
    });

    const action = t('audit_log.actions.update');
    await page
      .getByRole('button', { name: t('audit_log.view', { action, record }) })
      .first()
      .click();
    const dialog = page.getByRole('dialog', {
      name: t('audit_log.detail_title', { action, record }),
    });
    const changes = dialog.getByRole('table', { name: t('audit_log.changes_label') });
    const nameRow = changes
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: 'name' }) });
    expect(await nameRow.getByRole('cell').allInnerTexts()).toEqual([renamed, cafe.name]);
    expect(await seriousViolations(page), 'audit log change dialog en desktop').toEqual([]);
  });

  it('a company admin, in Chinese at 390 wide, sees its own company and no other', async () => {
    const t = texts('zh');
    const call = await apiSession('admin');
    const companies = (await call<{ data: Named[] }>('GET', '/companies?page_size=50')).body.data;
    const acme = companies.find((c) => c.code === 'ACME')!;
    expect(companies.length).toBeGreaterThan(1);

    await signIn(page, 'acme.admin');
    await session.context.addCookies([{ name: 'lang', value: 'zh', url: session.baseURL }]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/dashboard');
    await waitForScreen(page, t('nav.dashboard'));
    await page
      .getByRole('button', { name: t('sidebar.toggle') })
      .first()
      .click();
    const sheet = page.getByRole('dialog', { name: t('sidebar.title') });
    await sheet.getByRole('link', { name: t('nav.audit_log') }).click();
    await expectPath(page, '/audit-log');
    await waitForScreen(page, t('nav.audit_log'));
    expect(await seriousViolations(page), 'audit log zh mobile').toEqual([]);

    // Its company's own rows (its creation in the demo), on cards, and no other company's.
    await page.goto('/audit-log?entity_type=company&page_size=50');
    await waitForScreen(page, t('nav.audit_log'));
    const cards = page
      .getByRole('list', { name: t('audit_log.table_label') })
      .getByRole('listitem');
    const shown = await cards.allInnerTexts();
    expect(shown.length).toBeGreaterThan(0);
    // A record is "Acme Corporation (#1)", or "#1" where the row names no label (a distribution
    // decided on the Approvals screen, when a journey before this one ran).
    const records = shown.map((card) => /#(\d+)/.exec(card)?.[1]);
    expect(new Set(records)).toEqual(new Set([String(acme.id)]));
    expect(await seriousViolations(page), 'audit log cards zh mobile').toEqual([]);
  });
});
