import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Holiday, Role } from '@app/contract';
import { i18n } from '@/locales/i18n';
import { answer, signedIn } from '@/test/api';
import { locationOf, renderApp } from '@/test/render';
import { server } from '@/test/server';

const DAYS: Holiday[] = [
  { date: '2026-01-01', name: 'New Year' },
  { date: '2026-05-01', name: 'Labour Day' },
];

/** Answers GET /sys/holidays with the days of each year asked (none unless given). */
function serveHolidays(byYear: Record<number, Holiday[]>) {
  return answer('get', '/api/v1/sys/holidays', ({ url }) => {
    const year = Number(url.searchParams.get('year'));
    return { data: { year, days: byYear[year] ?? [] } };
  });
}

/** Answers PUT /sys/holidays with what it was sent. */
const servePut = () =>
  answer('put', '/api/v1/sys/holidays', ({ body }) => ({ data: body as object }));

async function openHolidays(
  path = '/holidays?year=2026',
  byYear: Record<number, Holiday[]> = { 2026: DAYS },
  role: Role = 'admin',
) {
  const user = signedIn(role);
  const requests = serveHolidays(byYear);
  const view = renderApp(path, { user });
  await screen.findByRole('heading', { level: 1, name: 'Holidays' });
  return { ...view, requests };
}

const daysTable = () => screen.findByRole('table', { name: 'Holidays of 2026' });
const rowNames = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[1]!.textContent);

function csvFile(text: string) {
  return new File([text], 'holidays.csv', { type: 'text/csv' });
}

describe('Holidays', () => {
  it("lists the year's days with their weekday, and opens the sidebar entry", async () => {
    const { requests } = await openHolidays();
    const table = await daysTable();
    expect(within(table).getByText('Thursday 1 January 2026')).toBeInTheDocument();
    expect(rowNames(table)).toEqual(['New Year', 'Labour Day']);
    expect(requests[0]?.query).toEqual({ year: '2026' });
    expect(screen.getByRole('link', { name: 'Holidays' })).toHaveAttribute('href', '/holidays');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('shows its loading state, then the empty state of a year without days', async () => {
    const user = signedIn('admin');
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get('/api/v1/sys/holidays', async () => {
        await gate;
        return HttpResponse.json({ data: { year: 2030, days: [] } });
      }),
    );
    renderApp('/holidays?year=2030', { user });
    expect(await screen.findByTestId('holidays-loading')).toBeInTheDocument();
    release();
    expect(
      await screen.findByText('No holidays in 2030 yet. Add a day or import a CSV file.'),
    ).toBeInTheDocument();
  });

  it('changes the year through the URL', async () => {
    const { requests, router } = await openHolidays('/holidays?year=2026', {
      2026: DAYS,
      2027: [{ date: '2027-02-06', name: 'Spring Festival' }],
    });
    await daysTable();
    await userEvent.click(screen.getByRole('combobox', { name: 'Year' }));
    await userEvent.click(await screen.findByRole('option', { name: '2027' }));
    await waitFor(() => expect(locationOf(router)).toBe('/holidays?year=2027'));
    const table = await screen.findByRole('table', { name: 'Holidays of 2027' });
    expect(rowNames(table)).toEqual(['Spring Festival']);
    expect(requests.at(-1)?.query).toEqual({ year: '2027' });
  });

  it('adds and renames days, refusing a day of another year or one already listed, and saves the year', async () => {
    await openHolidays();
    const puts = servePut();
    await daysTable();

    await userEvent.click(screen.getByRole('button', { name: 'Add day' }));
    let dialog = within(await screen.findByRole('dialog', { name: 'Add a holiday' }));
    await userEvent.type(dialog.getByLabelText('Date'), '01/05/2026{Enter}');
    await userEvent.type(dialog.getByLabelText('Name'), 'Again');
    await userEvent.click(dialog.getByRole('button', { name: 'Add' }));
    expect(await dialog.findByText('Remove this date: it is listed twice')).toBeInTheDocument();

    await userEvent.clear(dialog.getByLabelText('Date'));
    await userEvent.type(dialog.getByLabelText('Date'), '01/10/2027{Enter}');
    await userEvent.click(dialog.getByRole('button', { name: 'Add' }));
    expect(await dialog.findByText('Enter a valid date (YYYY-MM-DD)')).toBeInTheDocument();

    await userEvent.clear(dialog.getByLabelText('Date'));
    await userEvent.type(dialog.getByLabelText('Date'), '01/10/2026{Enter}');
    await userEvent.clear(dialog.getByLabelText('Name'));
    await userEvent.type(dialog.getByLabelText('Name'), 'National Day');
    await userEvent.click(dialog.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await userEvent.click(screen.getByRole('button', { name: 'Edit Labour Day' }));
    dialog = within(await screen.findByRole('dialog', { name: 'Edit holiday' }));
    expect(dialog.getByLabelText('Name')).toHaveValue('Labour Day');
    await userEvent.clear(dialog.getByLabelText('Name'));
    await userEvent.type(dialog.getByLabelText('Name'), 'May Day');
    await userEvent.click(dialog.getByRole('button', { name: 'Keep' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    expect(rowNames(await daysTable())).toEqual(['New Year', 'May Day', 'National Day']);
    expect(
      screen.getByText('Unsaved changes: save to apply them, or undo them.'),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Holidays of 2026 saved: 3 days.')).toBeInTheDocument();
    // Nothing saved was removed: no question asked.
    expect(puts).toHaveLength(1);
    expect(puts[0]?.body).toEqual({
      year: 2026,
      days: [
        { date: '2026-01-01', name: 'New Year' },
        { date: '2026-05-01', name: 'May Day' },
        { date: '2026-10-01', name: 'National Day' },
      ],
    });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled());
  });

  it('asks before saving a year that removes saved days, and sends nothing on cancel', async () => {
    await openHolidays();
    const puts = servePut();
    await daysTable();
    await userEvent.click(screen.getByRole('button', { name: 'Remove New Year' }));
    expect(rowNames(await daysTable())).toEqual(['Labour Day']);

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    let confirm = await screen.findByRole('alertdialog', { name: 'Remove saved holidays?' });
    expect(confirm).toHaveTextContent(
      'Saving removes 1 day from 2026: Thursday 1 January 2026 (New Year).',
    );
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(puts).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    confirm = await screen.findByRole('alertdialog', { name: 'Remove saved holidays?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Save and remove' }));
    expect(await screen.findByText('Holidays of 2026 saved: 1 day.')).toBeInTheDocument();
    expect(puts[0]?.body).toEqual({
      year: 2026,
      days: [{ date: '2026-05-01', name: 'Labour Day' }],
    });
  });

  it('undoes the changes, and asks before leaving a year with changes', async () => {
    const { router } = await openHolidays();
    await daysTable();
    await userEvent.click(screen.getByRole('button', { name: 'Remove New Year' }));
    await userEvent.click(screen.getByRole('button', { name: 'Undo changes' }));
    expect(rowNames(await daysTable())).toEqual(['New Year', 'Labour Day']);

    await userEvent.click(screen.getByRole('button', { name: 'Remove New Year' }));
    await userEvent.click(screen.getByRole('combobox', { name: 'Year' }));
    await userEvent.click(await screen.findByRole('option', { name: '2027' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Discard your changes?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(locationOf(router)).toBe('/holidays?year=2026');
    expect(rowNames(await daysTable())).toEqual(['Labour Day']);
  });

  it('reads a CSV file, shows its days and its refused lines with the reason, then adds them', async () => {
    await openHolidays();
    const puts = servePut();
    await daysTable();
    await userEvent.upload(
      screen.getByLabelText('CSV file'),
      csvFile(
        [
          'date,name',
          '2026-05-01,Labour Day (file)',
          '2026-10-01,National Day',
          '2026-10-01,National Day again',
          '2027-01-01,New Year 2027',
          '2026-13-01,Bad month',
          `2026-06-01,${'x'.repeat(101)}`,
        ].join('\n'),
      ),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Check file' }));
    const preview = await screen.findByTestId('holidays-csv-preview');
    expect(preview).toHaveTextContent('Days read: 2. Lines refused: 4.');
    const table = within(preview).getByRole('table', { name: "The file's days and refused lines" });
    const reasonOf = (line: string) =>
      within(table).getByText(line, { selector: 'td' }).closest('tr')!.textContent;
    expect(reasonOf('2026-10-01,National Day again')).toContain(
      'Remove this date: it is listed twice',
    );
    expect(reasonOf('2027-01-01,New Year 2027')).toContain('The date is not in 2026');
    expect(reasonOf('2026-13-01,Bad month')).toContain('Enter a valid date (YYYY-MM-DD)');
    expect(reasonOf(`2026-06-01,${'x'.repeat(101)}`)).toContain(
      'Name must be at most 100 characters',
    );
    expect(puts).toHaveLength(0);

    await userEvent.click(within(preview).getByRole('button', { name: 'Add to the list' }));
    expect(screen.queryByTestId('holidays-csv-preview')).not.toBeInTheDocument();
    expect(rowNames(await daysTable())).toEqual(['New Year', 'Labour Day (file)', 'National Day']);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Holidays of 2026 saved: 3 days.');
    expect(puts[0]?.body).toEqual({
      year: 2026,
      days: [
        { date: '2026-01-01', name: 'New Year' },
        { date: '2026-05-01', name: 'Labour Day (file)' },
        { date: '2026-10-01', name: 'National Day' },
      ],
    });
  });

  it('replaces the list with the file, asking before the save removes a saved day', async () => {
    await openHolidays();
    const puts = servePut();
    await daysTable();
    await userEvent.upload(screen.getByLabelText('CSV file'), csvFile('2026-10-01,National Day'));
    await userEvent.click(screen.getByRole('button', { name: 'Check file' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Replace the list' }));
    expect(rowNames(await daysTable())).toEqual(['National Day']);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm).toHaveTextContent('Saving removes 2 days from 2026');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Save and remove' }));
    await screen.findByText('Holidays of 2026 saved: 1 day.');
    expect(puts[0]?.body).toEqual({
      year: 2026,
      days: [{ date: '2026-10-01', name: 'National Day' }],
    });
  });

  it('refuses an empty file before reading it', async () => {
    await openHolidays();
    await daysTable();
    await userEvent.upload(screen.getByLabelText('CSV file'), csvFile(''));
    await userEvent.click(screen.getByRole('button', { name: 'Check file' }));
    await waitFor(() =>
      expect(screen.getByLabelText('CSV file')).toHaveAccessibleDescription(
        expect.stringMatching(/empty/i),
      ),
    );
  });

  it('speaks Chinese', async () => {
    await i18n.changeLanguage('zh');
    const user = signedIn('admin');
    serveHolidays({ 2026: DAYS });
    renderApp('/holidays?year=2026', { user });
    await screen.findByRole('heading', { level: 1, name: '节假日' });
    const table = await screen.findByRole('table', { name: '2026 年节假日' });
    expect(within(table).getByText('2026年1月1日星期四')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '添加日期' })).toBeInTheDocument();
    expect(screen.getByText('从 CSV 文件导入')).toBeInTheDocument();
  });

  it("is the admin's alone", async () => {
    const user = signedIn('super_hr');
    const { router } = renderApp('/holidays', { user });
    await waitFor(() => expect(locationOf(router)).toBe('/error/403'));
  });
});
