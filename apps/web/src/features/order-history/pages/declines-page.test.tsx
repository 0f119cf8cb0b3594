import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { OrderDecline, Role } from '@app/contract';
import { i18n } from '@/locales/i18n';
import { answer, listOf, signedIn } from '@/test/api';
import { buildCompany, buildMerchant } from '@/test/fixtures';
import { locationOf, renderApp } from '@/test/render';

const buildDecline = (overrides: Partial<OrderDecline> = {}): OrderDecline => ({
  id: 1,
  declined_at: '2026-03-02T04:30:00.000Z',
  company_id: 1,
  employee_id: 7,
  merchant_id: 2,
  terminal_id: 3,
  subtotal: 1500,
  code: 'DAILY_LIMIT_EXCEEDED',
  details: { daily_limit: 2500, spent_today: 2200, remaining_today: 300 },
  company_name: 'Acme',
  employee_name: 'Ava Chen',
  staff_number: 'E0007',
  merchant_name: 'Cafe',
  ...overrides,
});

const limit = buildDecline();
const closed = buildDecline({
  id: 2,
  code: 'NOT_ALLOWED_TODAY',
  subtotal: 40,
  details: { reason: 'holiday', next_allowed_at: '2026-03-03T00:00:00.000Z' },
  merchant_name: 'Bakery',
});

function serveOptions() {
  answer('get', '/api/v1/companies', listOf([buildCompany({ id: 1, code: 'ACME', name: 'Acme' })]));
  answer(
    'get',
    '/api/v1/merchants',
    listOf([buildMerchant({ id: 2, code: 'CAFE', name: 'Cafe' })]),
  );
}

async function openDeclines(
  declines: OrderDecline[],
  path = '/order-history?view=declined',
  role: Role = 'admin',
) {
  const user = signedIn(role);
  serveOptions();
  const requests = answer('get', '/api/v1/orders/declines', listOf(declines));
  const view = renderApp(path, { user });
  await screen.findByRole('heading', { level: 1, name: 'Order History' });
  return { ...view, requests };
}

describe("Order History's Declined view", () => {
  it('opens from the Orders view and lists each decline with its reason in words', async () => {
    const user = signedIn('admin');
    serveOptions();
    answer('get', '/api/v1/orders/admin', {
      ...listOf([]),
      total_is_exact: true,
      next_cursor: null,
    });
    const requests = answer('get', '/api/v1/orders/declines', listOf([limit, closed]));
    const { router } = renderApp('/order-history', { user });
    const views = await screen.findByRole('navigation', { name: 'Order History views' });
    expect(within(views).getByRole('link', { name: 'Orders' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await userEvent.click(within(views).getByRole('link', { name: 'Declined' }));
    await waitFor(() => expect(locationOf(router)).toBe('/order-history?view=declined'));
    await waitFor(() =>
      expect(
        within(screen.getByRole('navigation', { name: 'Order History views' })).getByRole('link', {
          name: 'Declined',
        }),
      ).toHaveAttribute('aria-current', 'page'),
    );

    const table = await screen.findByRole('table', { name: 'Declined orders' });
    const row = (await within(table).findByText('Cafe')).closest('tr')!;
    expect(within(row).getByText('Acme')).toBeInTheDocument();
    expect(within(row).getByText('E0007 · Ava Chen')).toBeInTheDocument();
    expect(within(row).getByText('1,500')).toBeInTheDocument();
    expect(within(row).getByText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/)).toBeInTheDocument();
    // The code's message, its placeholders filled from the details.
    expect(row).toHaveTextContent('The daily limit of 2,500 tokens is reached: 300 left today.');
    const closedRow = within(table).getByText('Bakery').closest('tr')!;
    expect(closedRow).toHaveTextContent('Tokens cannot be spent today.');
    expect(requests[0]?.query).toEqual({ page: '1', page_size: '10' });
  });

  it('filters by reason through the URL, keeping the view', async () => {
    const { requests, router } = await openDeclines([limit]);
    await screen.findByRole('table', { name: 'Declined orders' });
    await userEvent.click(screen.getByRole('button', { name: 'Reason' }));
    await userEvent.click(
      await screen.findByRole('menuitemradio', { name: 'Daily limit reached' }),
    );
    await waitFor(() =>
      expect(locationOf(router)).toBe('/order-history?view=declined&code=DAILY_LIMIT_EXCEEDED'),
    );
    await waitFor(() =>
      expect(requests.at(-1)?.query).toEqual({
        page: '1',
        page_size: '10',
        code: 'DAILY_LIMIT_EXCEEDED',
      }),
    );
  });

  it('sends every filter of a shared link and says when nothing matches', async () => {
    const { requests } = await openDeclines(
      [],
      '/order-history?view=declined&code=MERCHANT_NOT_ALLOWED&company_id=1&merchant_id=2&date_from=2026-03-01&date_to=2026-03-31',
    );
    expect(await screen.findByText('No declined orders match these filters.')).toBeInTheDocument();
    expect(requests[0]?.query).toEqual({
      page: '1',
      page_size: '10',
      code: 'MERCHANT_NOT_ALLOWED',
      company_id: '1',
      merchant_id: '2',
      date_from: '2026-03-01',
      date_to: '2026-03-31',
    });
    expect(screen.getByRole('button', { name: /^Reason/ })).toHaveTextContent(
      'Merchant category not allowed',
    );
  });

  it('leaves out the merchant filter for Group HR, who may not list merchants', async () => {
    await openDeclines([limit], '/order-history?view=declined', 'super_hr');
    await screen.findByRole('table', { name: 'Declined orders' });
    expect(screen.getByRole('button', { name: 'Company' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Merchant' })).not.toBeInTheDocument();
  });

  it('speaks Chinese, the reasons too', async () => {
    await i18n.changeLanguage('zh');
    const user = signedIn('admin');
    serveOptions();
    answer('get', '/api/v1/orders/declines', listOf([limit]));
    renderApp('/order-history?view=declined', { user });
    const table = await screen.findByRole('table', { name: '被拒绝的订单' });
    expect((await within(table).findByText('E0007 · Ava Chen')).closest('tr')).toHaveTextContent(
      '已达每日限额 2,500 代币：今天还可用 300。',
    );
    expect(screen.getByRole('columnheader', { name: '原因' })).toBeInTheDocument();
  });
});

describe("An employee's declined orders", () => {
  it("follow the employee's ledger on Employee Transaction, without its company or name", async () => {
    const user = signedIn('company_admin');
    const ledger = answer('get', '/api/v1/tokens/transactions', { data: [], next_cursor: null });
    const requests = answer('get', '/api/v1/orders/declines', listOf([limit]));
    renderApp('/employee-transaction?employee_id=7', { user });
    const section = await screen.findByRole('region', { name: 'Declined orders' });
    const table = await within(section).findByRole('table', { name: 'Declined orders' });
    expect(table).toHaveTextContent('The daily limit of 2,500 tokens is reached: 300 left today.');
    expect(within(table).getByText('Cafe')).toBeInTheDocument();
    expect(within(table).queryByRole('columnheader', { name: 'Employee' })).not.toBeInTheDocument();
    expect(within(table).queryByRole('columnheader', { name: 'Company' })).not.toBeInTheDocument();
    expect(requests[0]?.query).toEqual({ employee_id: '7', page: '1', page_size: '10' });
    expect(ledger[0]?.query).toEqual({ scope: 'employee', employee_id: '7', limit: '20' });
  });

  it('say when there are none, and are not shown for all employees at once', async () => {
    const user = signedIn('company_admin');
    answer('get', '/api/v1/tokens/transactions', { data: [], next_cursor: null });
    const requests = answer('get', '/api/v1/orders/declines', listOf([]));
    const { router } = renderApp('/employee-transaction?employee_id=7', { user });
    expect(await screen.findByText('No order of this employee was declined.')).toBeInTheDocument();
    await router.navigate('/employee-transaction');
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Declined orders' })).not.toBeInTheDocument(),
    );
    expect(requests).toHaveLength(1);
  });
});
