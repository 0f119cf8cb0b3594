import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { answer, errorBody, listOf, signedIn } from '@/test/api';
import { renderApp } from '@/test/render';
import { formatDayLong } from '@/lib/format';

const tomorrow = dayjs().add(1, 'day').format('YYYY-MM-DD');
const nextMonth = dayjs().add(1, 'month').format('YYYY-MM-DD');
const today = dayjs().format('YYYY-MM-DD');

function serveSystem(resetDate = nextMonth) {
  answer('get', '/api/v1/sys/current-period', {
    data: {
      period: '2026-01',
      starts_at: '2026-01-01T00:00:00.000Z',
      ends_at: '2026-02-01T00:00:00.000Z',
      next_reset_date: '2026-02-01',
    },
  });
  answer('get', '/api/v1/sys/reset-date', {
    data: { reset_date: resetDate, updated_at: null, updated_by: null },
  });
  return answer(
    'get',
    '/api/v1/sys/system-periods',
    listOf([
      {
        period: '2026-01',
        starts_at: '2026-01-01T00:00:00.000Z',
        ends_at: '2026-02-01T00:00:00.000Z',
        is_current: true,
      },
      {
        period: '2025-12',
        starts_at: '2025-12-01T00:00:00.000Z',
        ends_at: '2026-01-01T00:00:00.000Z',
        is_current: false,
      },
    ]),
  );
}

async function openPage() {
  const user = signedIn('admin');
  const periods = serveSystem();
  renderApp('/reset-period-date', { user });
  await screen.findByRole('heading', { level: 1, name: 'Reset Period Date' });
  return periods;
}

describe('Reset Period Date', () => {
  it('shows the current period, the next reset date and the system periods', async () => {
    const periods = await openPage();
    expect(
      await screen.findByText('2026-02-01'.split('-').reverse().join('/')),
    ).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'System periods' });
    const current = within(table).getByText('2026-01').closest('tr')!;
    expect(within(current).getByText('Current')).toBeInTheDocument();
    expect(within(table).getByText('2025-12')).toBeInTheDocument();
    // The field writes the day as the text does (DD/MM/YYYY), and the text says it in words.
    expect(await screen.findByLabelText('Next reset date')).toHaveValue(
      nextMonth.split('-').reverse().join('/'),
    );
    expect(screen.getByTestId('reset-date-scheduled')).toHaveTextContent(
      `Now scheduled for ${formatDayLong(nextMonth, 'en')}.`,
    );
    expect(periods[0]?.query).toEqual({ page: '1', page_size: '10' });
  });

  it.each([
    ['', 'Enter a date'],
    [today, 'Reset date must be after today'],
  ])('refuses the date %j with "%s"', async (value, message) => {
    await openPage();
    const puts = answer('put', '/api/v1/sys/reset-date', {});
    const input = await screen.findByLabelText('Next reset date');
    await userEvent.clear(input);
    if (value) await userEvent.type(input, value);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(puts).toHaveLength(0);
  });

  it('saves a future date and says so', async () => {
    await openPage();
    const puts = answer('put', '/api/v1/sys/reset-date', {
      data: { reset_date: tomorrow, updated_at: '2026-01-10T10:00:00.000Z', updated_by: 1 },
    });
    const input = await screen.findByLabelText('Next reset date');
    await userEvent.clear(input);
    await userEvent.type(input, tomorrow);
    await userEvent.tab();
    // Before saving, the chosen day in words, with its weekday.
    expect(screen.getByTestId('reset-date-chosen')).toHaveTextContent(
      `On saving, the next period will start on ${formatDayLong(tomorrow, 'en')}.`,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText(`Next reset date saved: ${formatDayLong(tomorrow, 'en')}.`),
    ).toBeInTheDocument();
    expect(puts[0]?.body).toEqual({ reset_date: tomorrow });
  });

  it('shows the server refusing a date on the field', async () => {
    await openPage();
    answer('put', '/api/v1/sys/reset-date', () =>
      errorBody(400, 'BODY_INVALID', {
        metadata: { reset_date: 'v.reset_date_future' },
      }),
    );
    const input = await screen.findByLabelText('Next reset date');
    await userEvent.clear(input);
    await userEvent.type(input, tomorrow);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(input).toHaveAccessibleDescription(
        expect.stringContaining('Reset date must be after today'),
      ),
    );
    expect(
      await screen.findByText('reset_date: Reset date must be after today'),
    ).toBeInTheDocument();
  });
});
