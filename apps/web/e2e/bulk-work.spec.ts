import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { httpAs, signInOverHttp } from '../../api/test/http-session';
import { apiSession, expectStatus, type ApiCall } from './api';
import { type Session, signIn, sessionPerTest } from './browser';
import { seriousViolations, waitForScreen } from './pages';

// Issue 19 item 4: a reward to 200 employees with one amount, and rewards from a CSV, in both
// languages at 1280 and 390 px wide, axe clean at every step.

const WEB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
type Language = 'en' | 'zh';
type Catalogue = { [key: string]: string | Catalogue };
const CATALOGUES = Object.fromEntries(
  (['en', 'zh'] as const).map((lng) => [
    lng,
    JSON.parse(readFileSync(path.join(WEB_DIR, 'public/locales', lng, 'common.json'), 'utf8')),
  ]),
) as Record<Language, Catalogue>;

/** The app's text for `key` in `lng`, with i18next's `_one`/`_other` when `count` is given. */
function text(lng: Language, key: string, values: Record<string, string | number> = {}): string {
  const lookup = (full: string) =>
    full
      .split('.')
      .reduce<string | Catalogue | undefined>(
        (node, part) => (typeof node === 'object' ? node[part] : undefined),
        CATALOGUES[lng],
      );
  const count = values.count;
  const found =
    typeof count === 'number'
      ? (lookup(`${key}_${count === 1 ? 'one' : 'other'}`) ?? lookup(key))
      : lookup(key);
  if (typeof found !== 'string') throw new Error(`no ${lng} text for ${key}`);
  return found.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));
}

const VIEWPORTS = { 1280: { width: 1280, height: 800 }, 390: { width: 390, height: 844 } };
const PEOPLE = 200;
const AMOUNT = 10;
// Each language and each width once: the same journey in the two other pairings found nothing
// these two do not, and cost a minute of CI (four axe scans of a 200-row dialog each).
const ROUNDS: [Language, 1280 | 390][] = [
  ['en', 1280],
  ['zh', 390],
];
const n = (value: number) => value.toLocaleString('en-US');

const suffix = Date.now().toString(36).toUpperCase().slice(-6);
const adminUsername = `bw.${suffix.toLowerCase()}`;
const adminPassword = 'Bulk@2026';
const staffNumber = (i: number) => `B${String(i).padStart(4, '0')}`;

let session: Session;
let page: Page;
let companyAdmin: ApiCall;
let companyId = 0;

/** Every employee's available tokens, by staff number, read through the API. */
async function balances(): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (let pageNo = 1; ; pageNo += 1) {
    const body = expectStatus(
      await companyAdmin<{ data: { employee_id: string; available_tokens: number }[] }>(
        'GET',
        `/employees?page=${pageNo}&page_size=50`,
      ),
      200,
    );
    for (const row of body.data) out.set(row.employee_id, row.available_tokens);
    if (body.data.length < 50) return out;
  }
}

beforeAll(async () => {
  const admin = await apiSession('admin');
  companyId = expectStatus(
    await admin<{ data: { id: number } }>('POST', '/companies', {
      code: `BW${suffix}`,
      name: `Bulk Works ${suffix}`,
      monthly_reset_day: 1,
      init_token: 10_000,
    }),
    201,
  ).data.id;
  expectStatus(
    await admin('POST', '/companies/admin', {
      company_id: companyId,
      username: adminUsername,
      email: `${adminUsername}@e2e.test`,
      password: adminPassword,
      confirm_password: adminPassword,
      status: 'active',
    }),
    201,
  );
  companyAdmin = await apiSession(adminUsername, adminPassword);
  // The 200 employees arrive as HR would bring them: one CSV import.
  const rows = Array.from({ length: PEOPLE }, (_, i) => `${staffNumber(i + 1)},Person ${i + 1}`);
  const form = new FormData();
  form.append('deactivate_missing', 'false');
  form.append(
    'file',
    new Blob([`employee_id,name\n${rows.join('\n')}\n`], { type: 'text/csv' }),
    'staff.csv',
  );
  const baseURL = inject('baseURL');
  const http = await signInOverHttp(baseURL, adminUsername, adminPassword);
  const imported = await httpAs(baseURL, http, 'POST', '/api/v1/employees/import', form);
  expect(JSON.parse(imported.text).data.created).toBe(PEOPLE);
});

sessionPerTest((opened) => ({ session, page } = opened));

async function openEmployees(lng: Language, width: 1280 | 390) {
  await signIn(page, adminUsername, adminPassword);
  await session.context.addCookies([{ name: 'lang', value: lng, url: session.baseURL }]);
  await page.setViewportSize(VIEWPORTS[width]);
  await page.goto('/employees?status=active');
  await waitForScreen(page, text(lng, 'nav.employees'));
}

async function expectAxeClean(where: string) {
  expect(await seriousViolations(page), where).toEqual([]);
}

/** Nothing on the page scrolls sideways (issue 19: phones). */
async function expectNoSidewaysScroll(where: string) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, where).toBeLessThanOrEqual(0);
}

describe('bulk rewards at HR scale', () => {
  it.each(ROUNDS)(
    'rewards all 200 employees one amount, after a review (%s, %d px)',
    async (lng, width) => {
      const t = (key: string, values?: Record<string, string | number>) => text(lng, key, values);
      const before = await balances();
      await openEmployees(lng, width);

      await page.getByRole('checkbox', { name: t('employees.select_all') }).check();
      await page
        .getByRole('button', { name: t('rewards.select_all_matching', { count: PEOPLE }) })
        .click();
      await page.getByText(t('rewards.selected_count', { count: PEOPLE })).waitFor();
      await expectAxeClean(`employees with a selection, ${lng} ${width}`);
      await page
        .getByRole('button', { name: t('employees.reward_selected', { n: PEOPLE }) })
        .click();

      const dialog = page.getByRole('dialog', { name: t('rewards.title') });
      await dialog.getByTestId('reward-balance').locator('[data-slot="skeleton"]').waitFor({
        state: 'detached',
      });
      await dialog.getByLabel(t('rewards.common_amount')).fill(String(AMOUNT));
      await dialog
        .getByTestId('reward-total')
        .getByText(n(PEOPLE * AMOUNT))
        .waitFor();
      expect(await dialog.getByRole('row').count()).toBe(PEOPLE + 1);
      await expectAxeClean(`reward dialog, ${lng} ${width}`);
      await expectNoSidewaysScroll(`reward dialog, ${lng} ${width}`);
      await dialog.getByRole('button', { name: t('rewards.review'), exact: true }).click();

      const review = dialog.getByTestId('reward-review');
      await review.getByTestId('reward-people').getByText(n(PEOPLE)).waitFor();
      const balanceBefore = Number(
        (await review.getByTestId('reward-balance').innerText()).replace(/,/g, ''),
      );
      expect(
        Number((await review.getByTestId('reward-balance-after').innerText()).replace(/,/g, '')),
      ).toBe(balanceBefore - PEOPLE * AMOUNT);
      await expectAxeClean(`reward review, ${lng} ${width}`);
      await review
        .getByRole('button', {
          name: t('rewards.confirm', { total: n(PEOPLE * AMOUNT), count: PEOPLE }),
        })
        .click();
      await page
        .getByText(t('rewards.done_many', { total: n(PEOPLE * AMOUNT), count: PEOPLE }))
        .waitFor();
      await expectAxeClean(`reward done, ${lng} ${width}`);

      const after = await balances();
      expect(after.size).toBe(PEOPLE);
      for (const [id, tokens] of after) expect(tokens, id).toBe((before.get(id) ?? 0) + AMOUNT);
    },
  );

  it.each(ROUNDS)(
    'rewards the amounts of a CSV file, leaving its invalid rows out (%s, %d px)',
    async (lng, width) => {
      const t = (key: string, values?: Record<string, string | number>) => text(lng, key, values);
      const before = await balances();
      await openEmployees(lng, width);
      await page.getByRole('button', { name: t('employees.reward'), exact: true }).click();
      const dialog = page.getByRole('dialog', { name: t('rewards.title') });
      await dialog.getByRole('radio', { name: t('rewards.source_file') }).waitFor();
      await dialog.getByLabel(t('rewards.file'), { exact: true }).setInputFiles({
        name: 'rewards.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(
          `employee_id,amount\n${staffNumber(1)},120\n${staffNumber(2)},30\nNOPE1,5\n${staffNumber(3)},-4\n`,
        ),
      });
      await dialog.getByRole('button', { name: t('employees.import_preview') }).click();
      const invalid = dialog.locator('tr[data-line="4"]');
      await invalid.getByText(text(lng, 'rewards.actions.invalid')).waitFor();
      await dialog.getByTestId('reward-total').getByText('150').waitFor();
      await expectAxeClean(`reward file preview, ${lng} ${width}`);
      await expectNoSidewaysScroll(`reward file preview, ${lng} ${width}`);
      await dialog.getByRole('button', { name: t('rewards.review'), exact: true }).click();
      await dialog.getByTestId('reward-people').getByText('2').waitFor();
      await dialog
        .getByRole('button', { name: t('rewards.confirm', { total: '150', count: 2 }) })
        .click();
      await page.getByText(t('rewards.done_many', { total: '150', count: 2 })).waitFor();

      const after = await balances();
      for (const [id, tokens] of after) {
        const gained = id === staffNumber(1) ? 120 : id === staffNumber(2) ? 30 : 0;
        expect(tokens, id).toBe((before.get(id) ?? 0) + gained);
      }
    },
  );
});
