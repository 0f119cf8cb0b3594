import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Dashboard, DashboardTotals, Role } from '@app/contract';
import { i18n } from '@/locales/i18n';
import { answer, errorBody, listOf, signedIn } from '@/test/api';
import {
  buildCompany,
  buildDashboard as dashboardOf,
  buildDashboardSummary,
  DASHBOARD_TOTALS as totals,
} from '@/test/fixtures';
import { locationOf, renderApp } from '@/test/render';

const acme = buildCompany({ id: 7, code: 'ACME', name: 'Acme' });

const summary = buildDashboardSummary();

async function openDashboard(role: Role, dashboard: Dashboard, path = '/dashboard') {
  const user = signedIn(role);
  const requests = answer('get', '/api/v1/dashboard', { data: dashboard });
  const summaries = answer('get', '/api/v1/dashboard/summary', { data: summary });
  const companies = answer('get', '/api/v1/companies', listOf([acme]));
  const view = renderApp(path, { user });
  await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
  return { ...view, requests, summaries, companies };
}

const cardTitles = () =>
  within(screen.getByRole('list', { name: 'Totals' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

describe('Dashboard', () => {
  it('shows the five totals of a company with thousands separators and no summary', async () => {
    const { summaries, companies } = await openDashboard('company_admin', dashboardOf());
    await screen.findByRole('list', { name: 'Totals' });
    expect(cardTitles()).toEqual([
      'Total tokens from admin1,234,567',
      'Total distributed to employees45,000',
      'Total consumed by employees12,345',
      'Company unused tokens2,000',
      'Employee unused tokens3,500',
    ]);
    expect(screen.queryByLabelText('Company')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Tokens by day' })).toBeInTheDocument();
    // The chart's figures are readable as a table.
    const day = (await screen.findByRole('rowheader', { name: '01/01/2026' })).closest('tr')!;
    expect(within(day).getByText('4,000')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Summary across companies' })).toBeNull();
    expect(summaries).toHaveLength(0);
    expect(companies).toHaveLength(0);
  });

  // An employee lands on its wallet instead (decision 0033, wallet-home-page.test.tsx), a
  // merchant role on its takings by terminal (issue 43, merchant-home-page.test.tsx).

  it('keeps the month and the company in the URL and sends them', async () => {
    const { requests, router } = await openDashboard('admin', dashboardOf({ view: 'all' }));
    await screen.findByRole('list', { name: 'Totals' });
    expect(requests[0]?.query).toEqual({});

    // The month picker: back a year from January 2026, then December.
    await userEvent.click(screen.getByRole('button', { name: 'Month: January 2026' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Previous year' }));
    await userEvent.click(screen.getByRole('button', { name: 'December 2025' }));
    await waitFor(() => expect(locationOf(router)).toBe('/dashboard?month=2025-12'));
    await waitFor(() => expect(requests.at(-1)?.query).toEqual({ month: '2025-12' }));
    // The route's loader asks as the navigation starts; the page follows once it has rendered.
    await screen.findByRole('button', { name: 'Month: December 2025' });

    const company = screen.getByLabelText('Company');
    await screen.findByRole('option', { name: 'Acme (ACME)' });
    await userEvent.selectOptions(company, 'Acme (ACME)');
    await waitFor(() => expect(locationOf(router)).toBe('/dashboard?month=2025-12&company_id=7'));
    await waitFor(() =>
      expect(requests.at(-1)?.query).toEqual({ month: '2025-12', company_id: '7' }),
    );
    await waitFor(() =>
      expect(screen.queryByRole('heading', { name: 'Summary across companies' })).toBeNull(),
    );
  });

  it('reads the filters from a link and ignores invalid ones', async () => {
    const { requests } = await openDashboard(
      'admin',
      dashboardOf(),
      '/dashboard?month=2026-13&company_id=7',
    );
    await screen.findByRole('list', { name: 'Totals' });
    expect(requests[0]?.query).toEqual({ company_id: '7' });
    expect(screen.getByLabelText('Company')).toHaveValue('7');
  });

  it('shows the summary across companies to an admin with no company chosen', async () => {
    const { summaries } = await openDashboard(
      'admin',
      dashboardOf({ view: 'all' }),
      '/dashboard?month=2026-01',
    );
    await screen.findByRole('heading', { name: 'Summary across companies' });
    const row = (await screen.findByRole('cell', { name: 'Acme (ACME)' })).closest('tr')!;
    expect(within(row).getByText('1,234,567')).toBeInTheDocument();
    expect(within(row).getByText('Active')).toBeInTheDocument();
    expect(screen.getByRole('rowheader', { name: 'Total' })).toBeInTheDocument();
    expect(summaries[0]?.query).toEqual({ month: '2026-01' });
    // The table says which month it counts, and each row the days it counts (decision 0088).
    expect(screen.getByTestId('summary-caption')).toHaveTextContent('Token month January 2026');
    expect(screen.getByRole('columnheader', { name: 'Days counted' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '1 Jan – 31 Jan 2026' })).toBeInTheDocument();
  });

  it('shows a failure by the display rule and retries', async () => {
    signedIn('company_admin');
    let calls = 0;
    answer('get', '/api/v1/dashboard', () => {
      calls += 1;
      return calls === 1
        ? errorBody(404, 'RECORD_NOT_FOUND', { message: 'record not found' })
        : { data: dashboardOf() };
    });
    renderApp('/dashboard', { user: signedIn('company_admin') });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The dashboard could not be loaded.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('list', { name: 'Totals' })).toBeInTheDocument();
  });

  it('says so in the chart when the month moved no token but holds some', async () => {
    await openDashboard('company_admin', dashboardOf({ daily: [] }));
    expect(await screen.findByTestId('chart-empty')).toHaveTextContent(
      'No token movements in January 2026',
    );
    expect(screen.getByRole('list', { name: 'Totals' })).toBeInTheDocument();
  });

  it('shows an empty month in words instead of five zeros and a blank chart', async () => {
    const zero = Object.fromEntries(Object.keys(totals).map((key) => [key, 0])) as DashboardTotals;
    await openDashboard(
      'admin',
      dashboardOf({
        month: '2025-01',
        view: 'all',
        company_id: null,
        totals: zero,
        window_start: '2025-01-01',
        window_end: '2025-01-31',
        daily: Array.from({ length: 31 }, (_, i) => ({
          date: `2025-01-${String(i + 1).padStart(2, '0')}`,
          tokens_from_admin: 0,
          distributed_to_employees: 0,
          consumed_by_employees: 0,
          purchased: 0,
          refunded: 0,
        })),
      }),
      '/dashboard?month=2025-01',
    );
    expect(await screen.findByTestId('dashboard-empty')).toHaveTextContent(
      'No token movements in January 2025',
    );
    expect(screen.queryByRole('list', { name: 'Totals' })).toBeNull();
    expect(screen.getByTestId('dashboard-window')).toHaveTextContent(
      '1 January 2025 – 31 January 2025: each company’s token month counted for January 2025, from its own reset day.',
    );
  });

  it('states the window in words, labels the axes and shows a day on hover and by keyboard', async () => {
    await openDashboard('company_admin', dashboardOf());
    expect(await screen.findByTestId('dashboard-window')).toHaveTextContent(
      '1 January 2026 – 31 January 2026: the token month counted for January 2026, from the reset day.',
    );
    expect(await screen.findByTestId('axis-tokens')).toHaveTextContent('Tokens');
    expect(screen.getByTestId('axis-days')).toHaveTextContent('Day of January 2026');
    expect(screen.queryByTestId('chart-tooltip')).toBeNull();
    const region = screen.getByRole('region', { name: 'Tokens by day' });
    fireEvent.mouseEnter(screen.getAllByTestId('chart-day')[0]!);
    expect(screen.getByTestId('chart-tooltip')).toHaveTextContent(
      '1 January 2026Total distributed to employees: 4,000Total consumed by employees: 1,200',
    );
    fireEvent.blur(region);
    expect(screen.queryByTestId('chart-tooltip')).toBeNull();
    region.focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByTestId('chart-tooltip')).toHaveTextContent('1 January 2026');
  });

  it('speaks Chinese', async () => {
    await i18n.changeLanguage('zh');
    signedIn('company_admin');
    answer('get', '/api/v1/dashboard', { data: dashboardOf() });
    renderApp('/dashboard', { user: signedIn('company_admin') });
    expect(await screen.findByRole('heading', { level: 1, name: '仪表盘' })).toBeInTheDocument();
    const cards = await screen.findByRole('list', { name: '合计' });
    expect(cards).toHaveTextContent('来自管理员的代币总数1,234,567');
    expect(screen.getByRole('button', { name: '月份: 2026年1月' })).toBeInTheDocument();
  });
});
