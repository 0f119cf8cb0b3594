// Spending rules (issue 42, DESIGN 7): a company admin writes a rule set for tomorrow on the
// Spending rules screen, reads its impact on the last 30 days, saves it and sees it scheduled;
// then, with a rule in force today (set through the API), an order over its limit is declined at
// the till and the employee reads it, with its reason, in its wallet on a phone. In English and in
// Chinese, at 1280 and 390 pixels, axe clean, no console error. Its own company, so that no other
// journey on the shared server meets its rules.
import { mkdirSync } from 'node:fs';
import { ERROR_CATALOGUE } from '@app/contract';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiSession, expectStatus, terminalCall, type ApiCall } from './api';
import { sessionPerTest, signIn } from './browser';
import { seriousViolations, waitForScreen } from './pages';
import { texts, type Language } from './texts';

const suffix = Date.now().toString(36).toUpperCase().slice(-6);
const companyCode = `SR${suffix}`;
const adminUsername = `sr.${suffix.toLowerCase()}`;
const employeeUsername = `sr.e.${suffix.toLowerCase()}`;
const PASSWORD = 'Rules@2026';
const STAFF = 'E01';
const SHOTS = '/tmp/spending-rules-shots';

const isoDay = (date: Date) => date.toISOString().slice(0, 10);
// The programme's time zone on the journeys' server is UTC (APP_TIMEZONE's default), as is the
// browser's here.
const today = isoDay(new Date());
const tomorrow = isoDay(new Date(Date.now() + 86_400_000));

let page: Page;
let companyAdmin: ApiCall;
let companyId = 0;
let employeeId = 0;

const order = (tokens: number) =>
  terminalCall<{ data: { id: number } }>('/orders', {
    company_code: companyCode,
    employee_id: STAFF,
    order_type: 'dine_in',
    items: [{ name: 'Lunch', quantity: 1, unit_tokens: tokens }],
  });

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const admin = await apiSession('admin');
  companyId = expectStatus(
    await admin<{ data: { id: number } }>('POST', '/companies', {
      code: companyCode,
      name: `Rules Foods ${suffix}`,
      monthly_reset_day: 1,
      init_token: 1000,
    }),
    201,
  ).data.id;
  expectStatus(
    await admin('POST', '/companies/admin', {
      company_id: companyId,
      username: adminUsername,
      email: `${adminUsername}@e2e.test`,
      password: PASSWORD,
      confirm_password: PASSWORD,
      status: 'active',
    }),
    201,
  );
  companyAdmin = await apiSession(adminUsername, PASSWORD);
  const employee = expectStatus(
    await companyAdmin<{ data: { id: number } }>('POST', '/employees', {
      employee_id: STAFF,
      name: 'Rita Rules',
      status: 'active',
    }),
    201,
  ).data;
  employeeId = employee.id;
  expectStatus(
    await companyAdmin('POST', '/tokens/topup-token/employees', {
      items: [{ employee_id: employee.id, amount: 300 }],
    }),
    200,
  );
  expectStatus(
    await companyAdmin('POST', `/employees/${employee.id}/account`, {
      username: employeeUsername,
      password: PASSWORD,
    }),
    201,
  );
  // An order of 30 before any rule: the preview of a 25-a-day limit must count it.
  expectStatus(await order(30), 201);
});

sessionPerTest((opened) => ({ page } = opened));

async function shoot(name: string, lng: Language) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.screenshot({ path: `${SHOTS}/${name}.${lng}.${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe('spending rules', () => {
  it.each(['en', 'zh'] as const)(
    'a company admin schedules a rule set for tomorrow after its preview (%s)',
    async (lng) => {
      const t = texts(lng);
      await signIn(page, adminUsername, PASSWORD);
      await page.context().addCookies([{ name: 'lang', value: lng, url: origin() }]);
      await page.goto('/dashboard');
      await page
        .getByRole('navigation', { name: t('nav.label') })
        .getByRole('link', { name: t('spending_rules.nav') })
        .click();
      await waitForScreen(page, t('spending_rules.nav'));

      await page.getByRole('button', { name: t('spending_rules.section.new_version') }).click();
      const dialog = page.getByRole('dialog', { name: t('spending_rules.editor.title') });
      await expect
        .poll(() => dialog.getByLabel(t('spending_rules.editor.effective_from')).inputValue())
        .toBe(lng === 'en' ? tomorrow.split('-').reverse().join('/') : tomorrow);
      // A wrong limit is refused with the contract's message before anything is sent.
      await dialog.getByLabel(t('spending_rules.editor.daily_limit')).fill('0');
      await dialog.getByRole('button', { name: t('actions.save') }).click();
      await dialog.getByRole('alert').first().waitFor();
      await dialog.getByLabel(t('spending_rules.editor.daily_limit')).fill('25');
      const grocery = dialog.getByRole('checkbox', {
        name: t('spending_rules.categories.grocery'),
        exact: true,
      });
      const partial = dialog.getByRole('checkbox', {
        name: t('spending_rules.editor.partial_payment'),
      });
      if (lng === 'en') {
        await grocery.click();
        // Keyboard: the partial payment box is reached and ticked with the space bar.
        await partial.focus();
        await page.keyboard.press('Space');
      }
      // The Chinese run starts from the English run's version, the latest one.
      expect(await grocery.getAttribute('aria-checked')).toBe('false');
      expect(await partial.getAttribute('aria-checked')).toBe('true');
      expect(await seriousViolations(page), `editor ${lng}`).toEqual([]);
      await shoot('editor', lng);
      await dialog.getByRole('button', { name: t('actions.save') }).click();

      // The order of 30 of today would have been declined by the daily limit.
      const impact = dialog.getByTestId('preview-impact');
      await impact.waitFor();
      expect(await impact.textContent()).toBe(
        t('spending_rules.editor.impact', {
          declined: '1',
          orders: '1',
          reasons: t('spending_rules.editor.reason_count', {
            reason: t('spending_rules.editor.reasons.DAILY_LIMIT_EXCEEDED'),
            count: '1',
          }),
        }),
      );
      expect(await dialog.getByTestId('preview-employees').textContent()).toBe(
        t('spending_rules.editor.employees_affected_one', { count: '1' }),
      );
      expect(await seriousViolations(page), `preview ${lng}`).toEqual([]);
      await shoot('preview', lng);
      await dialog.getByRole('button', { name: t('spending_rules.editor.confirm') }).click();
      await dialog.waitFor({ state: 'hidden' });

      const scheduled = page.getByTestId('rules-scheduled');
      await scheduled.locator(`time[datetime="${tomorrow}"]`).waitFor();
      const sep = t('spending_rules.words.separator');
      const categories = ['restaurant', 'canteen', 'cafe', 'bakery', 'other'].map((c) =>
        t(`spending_rules.category_words.${c}`),
      );
      const listed = t('spending_rules.words.list_and', {
        rest: categories.slice(0, -1).join(t('spending_rules.words.list_separator')),
        last: categories.at(-1)!,
      });
      expect(await scheduled.textContent()).toContain(
        [
          t('spending_rules.words.every_day'),
          t('spending_rules.words.any_time'),
          t('spending_rules.words.daily_limit_other', { amount: '25' }),
          listed,
          t('spending_rules.words.partial_payment'),
        ].join(sep),
      );
      // Nothing is in force today yet.
      expect(await page.getByTestId('rules-current').textContent()).toContain(
        t('spending_rules.section.empty'),
      );
      expect(await seriousViolations(page), `scheduled ${lng}`).toEqual([]);
      await shoot('scheduled', lng);
    },
  );

  it.each(['en', 'zh'] as const)(
    'an order over today’s limit is declined and the employee reads why in its wallet (%s)',
    async (lng) => {
      const t = texts(lng);
      // In force today: at most 40 an order, 100 a day (30 spent already).
      expectStatus(
        await companyAdmin('PUT', `/companies/${companyId}/spending-rules`, {
          effective_from: today,
          order_limit: 40,
          daily_limit: 100,
        }),
        200,
      );
      const declined = await order(55);
      expect(declined.status).toBe(409);
      expect(declined.body).toMatchObject({
        code: 'ORDER_LIMIT_EXCEEDED',
        details: { order_limit: 40 },
      });

      await signIn(page, employeeUsername, PASSWORD);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.context().addCookies([{ name: 'lang', value: lng, url: origin() }]);
      await page.goto('/');
      await waitForScreen(page, t('self_service.title'));
      expect(await page.getByTestId('remaining-today').textContent()).toBe(
        t('spending_rules.wallet.remaining_today_other', { amount: '70' }),
      );
      expect(await page.getByTestId('wallet-rules').textContent()).toContain(
        t('spending_rules.words.order_limit_other', { amount: '40' }),
      );
      const declines = page.getByTestId('wallet-declines');
      const reason = ERROR_CATALOGUE.ORDER_LIMIT_EXCEEDED[lng].replace('{{order_limit}}', '40');
      await declines.getByText(reason).first().waitFor();
      expect(await declines.getByRole('listitem').count()).toBeGreaterThanOrEqual(1);
      expect(await seriousViolations(page), `wallet ${lng}`).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/wallet.${lng}.390.png`, fullPage: true });
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.screenshot({ path: `${SHOTS}/wallet.${lng}.1280.png`, fullPage: true });
    },
  );

  it.each(['en', 'zh'] as const)(
    'a company admin sets an employee’s exception, then removes it after confirming (%s)',
    async (lng) => {
      const t = texts(lng);
      await signIn(page, adminUsername, PASSWORD);
      await page.context().addCookies([{ name: 'lang', value: lng, url: origin() }]);
      await page.goto(`/employees/${employeeId}`);
      await waitForScreen(page, 'Rita Rules');
      const card = page.getByRole('region', { name: t('spending_rules.exception.title') });
      await card.getByText(t('spending_rules.exception.none')).waitFor();
      await card.getByRole('button', { name: t('spending_rules.exception.set') }).click();
      const dialog = page.getByRole('dialog', {
        name: t('spending_rules.exception.dialog_title', { name: 'Rita Rules' }),
      });
      await dialog.getByLabel(t('spending_rules.exception.daily_limit')).fill('50');
      expect(await seriousViolations(page), `exception dialog ${lng}`).toEqual([]);
      await dialog.getByRole('button', { name: t('actions.save') }).click();
      await dialog.waitFor({ state: 'hidden' });
      const described = card.getByTestId('spending-exception');
      await described.waitFor();
      expect(await described.textContent()).toContain(
        t('spending_rules.words.daily_limit_other', { amount: '50' }),
      );
      expect(await seriousViolations(page), `exception ${lng}`).toEqual([]);
      await shoot('exception', lng);

      await card.getByRole('button', { name: t('spending_rules.exception.remove') }).click();
      const confirm = page.getByRole('alertdialog', {
        name: t('spending_rules.exception.remove_title'),
      });
      await confirm.getByRole('button', { name: t('spending_rules.exception.remove') }).click();
      await card.getByText(t('spending_rules.exception.none')).waitFor();
    },
  );
});

function origin(): string {
  return new URL(page.url()).origin;
}
