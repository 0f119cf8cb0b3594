import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { TillTakings } from '@app/contract';
import { i18n } from '@/locales/i18n';
import { answer, errorBody, signedIn } from '@/test/api';
import { renderApp } from '@/test/render';

const figures = (orders: number, tokens: number, refunded: number) => ({
  orders,
  tokens,
  refunded,
  net: tokens - refunded,
});

function takingsOf(date: string): TillTakings {
  return date === '2026-12-03'
    ? {
        date,
        terminals: [
          { terminal_id: 1, code: 'T1', name: 'Front counter', ...figures(12, 1_420, 30) },
          { terminal_id: 2, code: 'T2', name: 'Kiosk', ...figures(0, 0, 0) },
        ],
        totals: figures(12, 1_420, 30),
      }
    : {
        date,
        terminals: [
          { terminal_id: 1, code: 'T1', name: 'Front counter', ...figures(0, 0, 0) },
          { terminal_id: 2, code: 'T2', name: 'Kiosk', ...figures(0, 0, 0) },
        ],
        totals: figures(0, 0, 0),
      };
}

function openHome(role: 'merchant_staff' | 'merchant_admin' = 'merchant_staff') {
  const user = signedIn(role, { merchant_id: 1 });
  const calls = answer('get', '/api/v1/till/takings', ({ url }) => ({
    data: takingsOf(url.searchParams.get('date') ?? '2026-12-03'),
  }));
  renderApp('/dashboard', { user });
  return calls;
}

const cellsOf = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent);

describe('the merchant’s home', () => {
  afterEach(() => i18n.changeLanguage('en'));

  it('shows today’s takings terminal by terminal, idle ones too, and their sum', async () => {
    const calls = openHome();
    expect(await screen.findByRole('heading', { level: 1, name: 'Takings' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Takings by terminal' });
    const [front, kiosk] = within(table).getAllByRole('row').slice(1);
    // The first cell carries, for a phone, the orders and refunds under the terminal's name.
    expect(cellsOf(front!)).toEqual([
      'Front counter (T1)12 orders · 30 refunded since',
      '12',
      '1,420',
      '30',
      '1,390',
    ]);
    expect(cellsOf(kiosk!)).toEqual(['Kiosk (T2)0 orders · 0 refunded since', '0', '0', '0', '0']);
    const total = table.querySelector('[data-terminal="total"]') as HTMLElement;
    expect(cellsOf(total)).toEqual([
      'All terminals12 orders · 30 refunded since',
      '12',
      '1,420',
      '30',
      '1,390',
    ]);
    expect(screen.getByTestId('takings-day')).toHaveTextContent('Today, Thursday 3 December 2026');
    // A cashier gets the till, not the statements; nothing speaks of employees.
    const main = screen.getByRole('main');
    expect(within(main).getByRole('link', { name: 'Open the till' })).toHaveAttribute(
      'href',
      '/till',
    );
    expect(screen.queryByRole('link', { name: 'Settlement statements' })).not.toBeInTheDocument();
    expect(main).not.toHaveTextContent(/employee/i);
    expect(calls[0]?.query).toEqual({});
  });

  it('goes back a day and returns to today, and says when a day took nothing', async () => {
    const user = userEvent.setup();
    const calls = openHome('merchant_admin');
    await screen.findByRole('table', { name: 'Takings by terminal' });
    expect(screen.getByRole('button', { name: 'Next day' })).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Settlements' })).toHaveAttribute(
      'href',
      '/settlements',
    );
    await user.click(screen.getByRole('button', { name: 'Previous day' }));
    expect(await screen.findByText('No orders on this day.')).toBeInTheDocument();
    expect(screen.getByTestId('takings-day')).toHaveTextContent('Wednesday 2 December 2026');
    expect(calls.at(-1)?.query).toEqual({ date: '2026-12-02' });
    await user.click(screen.getByRole('button', { name: 'Next day' }));
    expect(await screen.findByTestId('takings-day')).toHaveTextContent(
      'Today, Thursday 3 December 2026',
    );
    expect(screen.getByRole('button', { name: 'Next day' })).toBeDisabled();
  });

  it('speaks Chinese', async () => {
    await i18n.changeLanguage('zh');
    openHome();
    expect(await screen.findByRole('heading', { level: 1, name: '营业额' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: '各终端营业额' });
    expect(within(table).getByText('全部终端')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '打开收银台' })).toBeInTheDocument();
  });

  it('says when the takings cannot be loaded, with a retry', async () => {
    const user = signedIn('merchant_staff', { merchant_id: 1 });
    answer('get', '/api/v1/till/takings', () => errorBody(500, 'INTERNAL_ERROR'));
    renderApp('/dashboard', { user });
    expect(await screen.findByRole('alert')).toHaveTextContent('The takings could not be loaded.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
