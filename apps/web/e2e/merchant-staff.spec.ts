// A merchant admin manages its staff (DESIGN 2, issue 14 item 5): the demo's shop.admin opens User
// Management from its sidebar, sees only its merchant's supervisors and staff, and creates,
// resets and deactivates a staff member through the screen, in English at 1280 wide and in
// Chinese at 390 wide, with axe clean and no console error. The new accounts then sign in.
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { VALIDATION_MESSAGES } from '@app/contract';
import { expectPath, openSession, type Session, signIn, sessionPerTest } from './browser';
import { readTable, seriousViolations, waitForScreen } from './pages';
import { texts } from './texts';

const PASSWORD = 'Staff@2026';
const NEW_PASSWORD = 'Reset@2026';
/** Usernames unique to this run, so the journey also works against a long-lived server. */
const suffix = Date.now().toString(36).slice(-6);

let browser: Browser;
let session: Session;
let page: Page;

sessionPerTest((opened) => ({ browser, session, page } = opened));

/** Signs `username` in on a fresh profile: the proof that an account works. */
async function canSignIn(username: string, password: string): Promise<number> {
  const other = await openSession(browser);
  try {
    await other.page.goto('/login');
    return await other.page.evaluate(
      async (body) => {
        const response = await fetch('/api/v1/iam/login', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
        return response.status;
      },
      { username, password },
    );
  } finally {
    await other.context.close();
  }
}

async function expectAxeClean(where: string) {
  expect(await seriousViolations(page), where).toEqual([]);
}

describe('a merchant admin manages its staff', () => {
  it('in English at 1280 wide: lists its staff, creates a staff member, resets its password', async () => {
    const t = texts('en');
    const username = `staff.${suffix}`;
    await signIn(page, 'shop.admin');
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link').allInnerTexts()).toContain(t('nav.users'));
    await nav.getByRole('link', { name: t('nav.users') }).click();
    await expectPath(page, '/user');
    await waitForScreen(page, t('nav.users'));
    await page.getByText(t('users.description_merchant')).waitFor();

    // Its merchant's supervisor and staff, and nobody else: no admin, no merchant admin.
    const table = page.getByRole('table', { name: t('users.table_label') });
    const listed = await readTable(table);
    const names = listed.map((row) => row[t('users.username')]);
    expect(names).toEqual(expect.arrayContaining(['shop.sup', 'shop.staff']));
    expect(names).not.toContain('shop.admin');
    expect(names).not.toContain('admin');
    expect(Object.keys(listed[0]!)).not.toContain(t('users.merchant'));
    await expectAxeClean('users en desktop');

    await page.getByRole('button', { name: t('users.add') }).click();
    const form = page.getByRole('dialog');
    await form.getByLabel(t('users.username')).fill(username);
    await form.getByLabel(t('users.email')).fill(`${username}@example.com`);
    await form.getByRole('radio', { name: t('invitations.mode_password') }).check();
    await form.getByLabel(t('users.password'), { exact: true }).fill(PASSWORD);
    await form.getByLabel(t('users.confirm_password')).fill(PASSWORD);
    await form.getByRole('combobox', { name: t('users.type') }).click();
    const options = await page.getByRole('option').allInnerTexts();
    expect(options).toEqual([
      t('users.types.merchant_supervisor'),
      t('users.types.merchant_staff'),
    ]);
    await page.getByRole('option', { name: t('users.types.merchant_staff') }).click();
    expect(await form.getByRole('combobox', { name: t('users.merchant') }).count()).toBe(0);
    await expectAxeClean('users create dialog en desktop');
    await form.getByRole('button', { name: t('actions.create') }).click();
    await page.getByText(t('toasts.user_created', { name: username })).waitFor();
    await form.waitFor({ state: 'detached' });

    const row = page.getByRole('row', { name: new RegExp(username.replace('.', '\\.')) });
    await row.getByText(t('users.types.merchant_staff')).waitFor();
    expect(await canSignIn(username, PASSWORD)).toBe(200);

    // A password reset is the edit form with a new password.
    await page.getByRole('button', { name: t('table.row_actions', { name: username }) }).click();
    await page.getByRole('menuitem', { name: t('actions.edit') }).click();
    const edit = page.getByRole('dialog');
    await edit.getByLabel(t('users.password'), { exact: true }).fill(NEW_PASSWORD);
    await edit.getByLabel(t('users.confirm_password')).fill(NEW_PASSWORD);
    await edit.getByRole('button', { name: t('actions.save') }).click();
    await page.getByText(t('toasts.user_updated', { name: username })).waitFor();
    expect(await canSignIn(username, PASSWORD)).toBe(401);
    expect(await canSignIn(username, NEW_PASSWORD)).toBe(200);
  });

  it('in Chinese at 390 wide: creates a supervisor from the sidebar sheet, then deactivates it', async () => {
    const t = texts('zh');
    const username = `sup.${suffix}`;
    await signIn(page, 'shop.admin');
    await session.context.addCookies([{ name: 'lang', value: 'zh', url: session.baseURL }]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/dashboard');
    await waitForScreen(page, t('merchant_home.title'));

    await page
      .getByRole('button', { name: t('sidebar.toggle') })
      .first()
      .click();
    const sheet = page.getByRole('dialog', { name: t('sidebar.title') });
    await sheet.getByRole('link', { name: t('nav.users') }).click();
    await expectPath(page, '/user');
    await waitForScreen(page, t('nav.users'));
    await page.getByText(t('users.description_merchant')).waitFor();
    await expectAxeClean('users zh mobile');

    await page.getByRole('button', { name: t('users.add') }).click();
    const form = page.getByRole('dialog');
    await form.getByRole('button', { name: t('actions.create') }).click();
    await form.getByText(VALIDATION_MESSAGES['v.username_required'].zh).waitFor();
    await form.getByLabel(t('users.username')).fill(username);
    await form.getByLabel(t('users.email')).fill(`${username}@example.com`);
    await form.getByRole('radio', { name: t('invitations.mode_password') }).check();
    await form.getByLabel(t('users.password'), { exact: true }).fill(PASSWORD);
    await form.getByLabel(t('users.confirm_password')).fill(PASSWORD);
    await form.getByRole('combobox', { name: t('users.type') }).click();
    expect(await page.getByRole('option').allInnerTexts()).toEqual([
      t('users.types.merchant_supervisor'),
      t('users.types.merchant_staff'),
    ]);
    await page.getByRole('option', { name: t('users.types.merchant_supervisor') }).click();
    await expectAxeClean('users create dialog zh mobile');
    await form.getByRole('button', { name: t('actions.create') }).click();
    await page.getByText(t('toasts.user_created', { name: username })).waitFor();
    await form.waitFor({ state: 'detached' });
    expect(await canSignIn(username, PASSWORD)).toBe(200);

    await page.getByRole('button', { name: t('table.row_actions', { name: username }) }).click();
    await page.getByRole('menuitem', { name: t('actions.deactivate') }).click();
    const confirm = page.getByRole('alertdialog', { name: t('confirm.deactivate_title') });
    await confirm.getByText(t('confirm.deactivate_message', { name: username })).waitFor();
    await confirm.getByRole('button', { name: t('actions.deactivate') }).click();
    await page.getByText(t('toasts.deactivated')).waitFor();
    expect(await canSignIn(username, PASSWORD)).not.toBe(200);
  });
});
