// The Holidays screen (issue 42, DESIGN 7): the admin, in English at 1280 wide, reads a CSV file
// for a year, sees its days and its refused lines with their reasons, adds the days to the list
// and saves them; in Chinese at 390 wide the saved year reads back. Axe clean, no console error.
// With SCREENSHOTS=1 the steps are shot into test-results/screenshots/holidays/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiSession } from './api';
import { expectPath, signIn, sessionPerTest, stopAfterFirstFailure, type Session } from './browser';
import { readTable, seriousViolations, waitForScreen } from './pages';
import { texts } from './texts';

const SHOTS_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../test-results/screenshots/holidays',
);
const shoot = async (page: Page, name: string) => {
  if (process.env.SCREENSHOTS !== '1') return;
  mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`), fullPage: true });
};

// A year of its own, far enough ahead that no other journey writes it.
const YEAR = 2031;
const CSV = [
  'date,name',
  `${YEAR}-05-01,Labour Day`,
  `${YEAR}-10-01,"National Day, first"`,
  `${YEAR}-10-01,National Day again`,
  `${YEAR + 1}-01-01,New Year`,
  `${YEAR}-02-30,No such day`,
  `${YEAR}-06-01,${'x'.repeat(101)}`,
].join('\n');

let session: Session;
let page: Page;

sessionPerTest((opened) => ({ session, page } = opened));
stopAfterFirstFailure(() => page);

describe('the holiday calendar', () => {
  it('the admin, in English at 1280 wide, imports a CSV file and saves the year', async () => {
    const t = texts('en');
    const call = await apiSession('admin');
    // The year starts empty, whatever an earlier run left.
    expect((await call('PUT', '/sys/holidays', { year: YEAR, days: [] })).status).toBe(200);

    await signIn(page, 'admin');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: t('nav.holidays') })
      .click();
    await expectPath(page, '/holidays');
    await page.goto(`/holidays?year=${YEAR}`);
    await waitForScreen(page, t('holidays.title'));
    await page.getByText(t('holidays.empty', { year: String(YEAR) })).waitFor();
    expect(await seriousViolations(page), 'holidays en desktop, empty').toEqual([]);

    await page.getByLabel(t('holidays.csv.file')).setInputFiles({
      name: 'holidays.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(CSV),
    });
    await page.getByRole('button', { name: t('holidays.csv.read') }).click();
    await page.getByText(t('holidays.csv.summary', { days: '2', refused: '4' })).waitFor();
    const preview = page.getByRole('table', { name: t('holidays.csv.preview_caption') });
    const rows = await readTable(preview);
    const refused = rows.filter((row) =>
      row[t('holidays.csv.result')]!.includes(t('holidays.csv.refused')),
    );
    expect(refused.map((row) => row[t('holidays.csv.line')])).toEqual(['4', '5', '6', '7']);
    const reasons = refused.map((row) => row[t('holidays.csv.result')]).join('\n');
    expect(reasons).toContain('Remove this date: it is listed twice');
    expect(reasons).toContain(t('holidays.csv.other_year', { year: String(YEAR) }));
    expect(reasons).toContain('Enter a valid date (YYYY-MM-DD)');
    expect(reasons).toContain('Name must be at most 100 characters');
    expect(await seriousViolations(page), 'holidays en desktop, the file read').toEqual([]);
    await shoot(page, 'import.en.desktop');

    await page.getByRole('button', { name: t('holidays.csv.add') }).click();
    await page.getByText(t('holidays.unsaved')).waitFor();
    await page.getByRole('button', { name: t('actions.save'), exact: true }).click();
    await page.getByText(`Holidays of ${YEAR} saved: 2 days.`).waitFor();

    const saved = await call<{ data: { days: { date: string; name: string }[] } }>(
      'GET',
      `/sys/holidays?year=${YEAR}`,
    );
    expect(saved.body.data.days).toEqual([
      { date: `${YEAR}-05-01`, name: 'Labour Day' },
      { date: `${YEAR}-10-01`, name: 'National Day, first' },
    ]);
    await shoot(page, 'saved.en.desktop');
  });

  it('reads back in Chinese at 390 wide, without scrolling sideways', async () => {
    const t = texts('zh');
    await signIn(page, 'admin');
    await session.context.addCookies([{ name: 'lang', value: 'zh', url: session.baseURL }]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/holidays?year=${YEAR}`);
    await waitForScreen(page, t('holidays.title'));
    const table = page.getByRole('table', {
      name: t('holidays.days_title', { year: String(YEAR) }),
    });
    const rows = await readTable(table);
    expect(rows.map((row) => row[t('holidays.name')])).toEqual([
      'Labour Day',
      'National Day, first',
    ]);
    expect(rows[0]?.[t('holidays.date')]).toBe(`${YEAR}年5月1日星期四`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    expect(await seriousViolations(page), 'holidays zh mobile').toEqual([]);
    await shoot(page, 'saved.zh.mobile');

    await page.getByLabel(t('holidays.csv.file')).setInputFiles({
      name: 'holidays.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(CSV),
    });
    await page.getByRole('button', { name: t('holidays.csv.read') }).click();
    await page.getByText(t('holidays.csv.summary', { days: '2', refused: '4' })).waitFor();
    expect(await seriousViolations(page), 'holidays zh mobile, the file read').toEqual([]);
    await shoot(page, 'import.zh.mobile');
  });
});
