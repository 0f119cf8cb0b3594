import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { CompanyTotals, EmployeeReportRow, Role } from '@app/contract';
import { browser } from '@/lib/browser';
import { answer, signedIn } from '@/test/api';
import { buildCompany } from '@/test/fixtures';
import { locationOf, renderApp } from '@/test/render';

function buildTotals(overrides: Partial<CompanyTotals> = {}): CompanyTotals {
  return {
    company_id: 1,
    company_code: 'ACME',
    company_name: 'Acme',
    company_status: 'active',
    token_month: '2026-01',
    counted_month: '2026-01',
    counted_from: '2026-01-01',
    counted_to: '2026-01-31',
    tokens_from_admin: 20000,
    distributed_to_employees: 15000,
    consumed_by_employees: 4500,
    company_unused: 5000,
    employee_unused: 10500,
    purchased: 5000,
    refunded: 500,
    ...overrides,
  };
}

const acme = buildTotals();
const globex = buildTotals({
  company_id: 2,
  company_code: 'GLOBEX',
  company_name: 'Globex',
  tokens_from_admin: 1000000,
  distributed_to_employees: 0,
  consumed_by_employees: 0,
  company_unused: 1000000,
  employee_unused: 0,
});
const grand = {
  tokens_from_admin: 1020000,
  distributed_to_employees: 15000,
  consumed_by_employees: 4500,
  company_unused: 1005000,
  employee_unused: 10500,
  purchased: 5000,
  refunded: 500,
};

async function openSummary(role: Role, path = '/summary-report') {
  const user = signedIn(role);
  const requests = answer('get', '/api/v1/reports/summary', (call) => ({
    data: [acme, globex],
    total: 2,
    month: typeof call.query.month === 'string' ? call.query.month : '2026-01',
    grand_total: grand,
  }));
  const view = renderApp(path, { user });
  await screen.findByRole('heading', { level: 1, name: 'Summary Report' });
  return { ...view, requests };
}

describe('Summary Report', () => {
  it('lists each company with the grand total row', async () => {
    await openSummary('admin');
    const table = await screen.findByRole('table', { name: 'Summary report' });
    const globexRow = (await within(table).findByText('GLOBEX')).closest('tr')!;
    expect(within(globexRow).getAllByText('1,000,000')).toHaveLength(2);
    const total = within(table).getByText('Grand total').closest('tr')!;
    expect(total.closest('tfoot')).not.toBeNull();
    const cells = within(total)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells).toEqual(['Grand total', '1,020,000', '15,000', '4,500', '1,005,000', '10,500']);
    expect(screen.getByRole('button', { name: 'Month: January 2026' })).toBeInTheDocument();
  });

  it('links each company to its report for admin and Group HR', async () => {
    for (const role of ['admin', 'super_hr'] as const) {
      const { unmount } = await openSummary(role, '/summary-report?month=2026-02');
      const link = await screen.findByRole('link', { name: 'Open the report of Acme' });
      expect(link).toHaveAttribute('href', '/summary-report/1?month=2026-02');
      unmount();
    }
  });

  it('gives a company admin no link to the company report', async () => {
    await openSummary('company_admin');
    const table = await screen.findByRole('table', { name: 'Summary report' });
    await within(table).findByText('Acme');
    expect(within(table).queryByRole('link')).not.toBeInTheDocument();
  });

  it('refetches when the month changes, and keeps it in the URL', async () => {
    const { requests, router } = await openSummary('admin');
    await screen.findByText('GLOBEX');
    expect(requests[0]?.query).toEqual({ page: '1', page_size: '10' });
    await userEvent.click(screen.getByRole('button', { name: 'Month: January 2026' }));
    // The month picker's popover is fetched on its first opening (decision 0037).
    await userEvent.click(await screen.findByRole('button', { name: 'Previous year' }));
    await userEvent.click(screen.getByRole('button', { name: 'December 2025' }));
    await waitFor(() =>
      expect(requests.at(-1)?.query).toEqual({ page: '1', page_size: '10', month: '2025-12' }),
    );
    expect(locationOf(router)).toBe('/summary-report?month=2025-12');
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Month: December 2025' })).toBeInTheDocument(),
    );
  });

  it('exports the filtered report as CSV', async () => {
    const saveFile = vi.spyOn(browser, 'saveFile').mockImplementation(() => {});
    await openSummary('admin', '/summary-report?month=2026-01&page=2');
    const exports = answer(
      'get',
      '/api/v1/exports/summary',
      () => new HttpResponse('code\nACME\n', { headers: { 'Content-Type': 'text/csv' } }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saveFile).toHaveBeenCalledTimes(1));
    expect(exports[0]?.query).toEqual({ month: '2026-01' });
  });
});

describe('A company summary report', () => {
  const row: EmployeeReportRow = {
    id: 7,
    employee_id: 'E0007',
    name: 'Ava Chen',
    email: 'ava@example.com',
    status: 'active',
    token_month: '2026-01',
    received: 1300,
    purchased: 1500,
    refunded: 200,
    consumed: 1300,
    expired: 0,
    unused: 0,
    available_tokens: 12345,
  };

  it('shows the company name, the employees and sends the month', async () => {
    const user = signedIn('super_hr');
    answer('get', '/api/v1/companies/1', { data: buildCompany({ id: 1, name: 'Acme' }) });
    const requests = answer('get', '/api/v1/reports/summary/1', {
      data: [row],
      total: 1,
      month: '2026-01',
      company: acme,
    });
    renderApp('/summary-report/1?month=2026-01', { user });
    await screen.findByRole('heading', { level: 1, name: 'Summary Report: Acme' });
    const table = await screen.findByRole('table', { name: "Employees' report" });
    const employee = (await within(table).findByText('E0007')).closest('tr')!;
    expect(within(employee).getByText('12,345')).toBeInTheDocument();
    expect(within(employee).getByText('Active')).toBeInTheDocument();
    expect(requests[0]?.query).toEqual({ page: '1', page_size: '10', month: '2026-01' });
  });
});
