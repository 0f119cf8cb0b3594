import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { act } from 'react';
import { HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { browser } from '@/lib/browser';
import type { Role, TokenTransaction } from '@app/contract';
import { answer, errorBody, listOf, signedIn, type Recorded } from '@/test/api';
import { buildCompany, buildOrder } from '@/test/fixtures';
import { locationOf, renderApp } from '@/test/render';

let nextId = 1000;

function buildTransaction(overrides: Partial<TokenTransaction> = {}): TokenTransaction {
  const id = nextId++;
  return {
    id,
    seq: id,
    occurred_at: '2026-01-31T14:05:00.000Z',
    event: 'order_purchased',
    company_id: 1,
    company_code: 'ACME',
    company_name: 'Acme',
    employee_id: null,
    employee_number: null,
    employee_name: null,
    direction: 'sent',
    amount: 1500,
    balance_before: 1234567,
    balance_after: 1233067,
    period: '2026-01',
    order_id: 40,
    order_no: `ORD${String(id).padStart(10, '0')}`,
    order_type: 'dine_in',
    order_status: 'ordered',
    order_subtotal: 1500,
    order_refunded_amount: 0,
    order_refund_state: 'none',
    ordered_at: '2026-01-31T14:00:00.000Z',
    refund_reason: null,
    transfer_id: null,
    actor_user_id: null,
    terminal_id: 1,
    merchant_id: 1,
    merchant_code: 'SHOP',
    merchant_name: 'Campus Shop',
    counterparty_transaction_id: null,
    counterparty_employee_id: null,
    counterparty_employee_number: null,
    counterparty_employee_name: null,
    note: null,
    ...overrides,
  };
}

const pageOf = (count: number) => Array.from({ length: count }, () => buildTransaction());

type Page = { data: TokenTransaction[]; next_cursor: string | null };

async function openTransactions(
  respond: Page | ((call: Recorded) => Page),
  path = '/company-transaction',
  role: Role = 'admin',
) {
  const user = signedIn(role);
  answer('get', '/api/v1/companies', listOf([buildCompany({ id: 1, code: 'ACME', name: 'Acme' })]));
  const requests = answer('get', '/api/v1/tokens/transactions', respond);
  const view = renderApp(path, { user });
  return { ...view, requests };
}

describe('Token Transaction', () => {
  it('sends the filters of a shared link, repeated event keys included', async () => {
    const { requests } = await openTransactions(
      { data: [], next_cursor: null },
      '/company-transaction?event=order_purchased&event=order_refunded&type=sent&date_from=2026-01-01&date_to=2026-01-31&company_id=1',
    );
    await screen.findByRole('heading', { level: 1, name: 'Company Transaction' });
    await screen.findByText('No transactions found.');
    expect(requests[0]?.query).toEqual({
      scope: 'company',
      event: ['order_purchased', 'order_refunded'],
      type: 'sent',
      date_from: '2026-01-01',
      date_to: '2026-01-31',
      company_id: '1',
      limit: '20',
    });
    expect(requests[0]?.url.search).toContain('event=order_purchased&event=order_refunded');
    expect(screen.getByTestId('date-range-trigger')).toHaveTextContent('01/01/2026 – 31/01/2026');
    expect(screen.getByRole('button', { name: /^Transaction type/ })).toHaveTextContent('Sent');
  });

  it('puts chosen events and the type into the URL and the request', async () => {
    const { requests, router } = await openTransactions({ data: [], next_cursor: null });
    await screen.findByText('No transactions found.');
    await userEvent.click(screen.getByRole('button', { name: 'Event' }));
    await userEvent.click(await screen.findByRole('menuitemcheckbox', { name: 'Order refunded' }));
    await userEvent.click(await screen.findByRole('menuitemcheckbox', { name: 'Company issued' }));
    await waitFor(() =>
      expect(locationOf(router)).toBe(
        '/company-transaction?event=order_refunded&event=company_issued',
      ),
    );
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByRole('button', { name: 'Transaction type' }));
    await userEvent.click(await screen.findByRole('menuitemradio', { name: 'Received' }));
    await waitFor(() =>
      expect(requests.at(-1)?.query).toEqual({
        scope: 'company',
        event: ['order_refunded', 'company_issued'],
        type: 'received',
        limit: '20',
      }),
    );
  });

  it('loads the next cursor on demand and stops when next_cursor is null', async () => {
    const first = pageOf(20);
    const second = pageOf(20);
    const { requests } = await openTransactions((call) =>
      call.query.cursor === 'c1'
        ? { data: second, next_cursor: null }
        : { data: first, next_cursor: 'c1' },
    );
    const table = await screen.findByRole('table', { name: 'Company transactions' });
    await within(table).findByText(first[0]!.order_no!);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.query.cursor).toBeUndefined();

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await within(table).findByText(second[19]!.order_no!);
    expect(requests).toHaveLength(2);
    expect(requests[1]?.query).toMatchObject({ scope: 'company', cursor: 'c1', limit: '20' });
    // 40 rows, header aside; a full page with a null cursor ends the list.
    expect(within(table).getAllByRole('row')).toHaveLength(41);
    expect(await screen.findByText('No more transactions.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(requests).toHaveLength(2);
  });

  it('loads the next page when the sentinel below the list scrolls into view', async () => {
    const observers: { callback: IntersectionObserverCallback; observed: Element[] }[] = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        observed: Element[] = [];
        constructor(callback: IntersectionObserverCallback) {
          observers.push({ callback, observed: this.observed });
        }
        observe(element: Element) {
          this.observed.push(element);
        }
        disconnect() {}
        unobserve() {}
      },
    );
    try {
      const { requests } = await openTransactions((call) =>
        call.query.cursor === 'c1'
          ? { data: pageOf(2), next_cursor: null }
          : { data: pageOf(20), next_cursor: 'c1' },
      );
      await screen.findByRole('button', { name: 'Load more' });
      const watching = observers.filter((observer) => observer.observed.length > 0).at(-1)!;
      act(() =>
        watching.callback(
          [{ isIntersecting: true, target: watching.observed[0]! } as IntersectionObserverEntry],
          {} as IntersectionObserver,
        ),
      );
      expect(await screen.findByText('No more transactions.')).toBeInTheDocument();
      expect(requests.map((call) => call.query.cursor)).toEqual([undefined, 'c1']);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('ends the list on a page shorter than the page size, whatever the cursor says', async () => {
    await openTransactions({ data: pageOf(3), next_cursor: 'c1' });
    expect(await screen.findByText('No more transactions.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('shows the token change with its sign and thousands separators', async () => {
    const sent = buildTransaction({ direction: 'sent', amount: 1500, order_no: 'ORD1' });
    const received = buildTransaction({
      event: 'company_issued',
      direction: 'received',
      amount: 12345,
      balance_before: 1000,
      balance_after: 13345,
      order_id: null,
      order_no: null,
      order_type: null,
      order_status: null,
      order_subtotal: null,
      ordered_at: null,
    });
    await openTransactions({ data: [sent, received], next_cursor: null });
    const sentRow = (await screen.findByRole('cell', { name: 'ORD1' })).closest('tr')!;
    expect(within(sentRow).getByText('\u22121,500')).toBeInTheDocument();
    expect(within(sentRow).getByText('1,234,567')).toBeInTheDocument();
    expect(within(sentRow).getByText('1,233,067')).toBeInTheDocument();
    expect(within(sentRow).getByRole('button', { name: 'Order ORD1 at SHOP' })).toBeInTheDocument();
    expect(within(sentRow).getByText('Dine in')).toBeInTheDocument();
    expect(within(sentRow).getByText('Sent')).toBeInTheDocument();
    expect(within(sentRow).getByText('Ordered')).toBeInTheDocument();
    // The date and the order time, DD/MM/YYYY HH:mm.
    expect(within(sentRow).getAllByText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/)).toHaveLength(2);
    const receivedRow = screen.getByText('Received from the platform').closest('tr')!;
    expect(within(receivedRow).getByText('+12,345')).toBeInTheDocument();
    expect(within(receivedRow).getByText('13,345')).toBeInTheDocument();
    expect(within(receivedRow).getByText('Received')).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Staff number' })).not.toBeInTheDocument();
  });

  it('shows the staff number and name on the employee scope, without a company filter for a company admin', async () => {
    const { requests } = await openTransactions(
      {
        data: [
          buildTransaction({
            employee_id: 7,
            employee_number: 'E0007',
            employee_name: 'Ava Chen',
            order_no: 'ORD7',
          }),
        ],
        next_cursor: null,
      },
      '/employee-transaction',
      'company_admin',
    );
    await screen.findByRole('heading', { level: 1, name: 'Employee Transaction' });
    const row = (await screen.findByRole('cell', { name: 'ORD7' })).closest('tr')!;
    expect(within(row).getByText('E0007')).toBeInTheDocument();
    expect(within(row).getByText('Ava Chen')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Staff number' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Company' })).not.toBeInTheDocument();
    expect(requests[0]?.query).toEqual({ scope: 'employee', limit: '20' });
  });

  it('exports what the filters show as CSV, without the cursor', async () => {
    const saveFile = vi.spyOn(browser, 'saveFile').mockImplementation(() => {});
    await openTransactions(
      { data: pageOf(1), next_cursor: null },
      '/employee-transaction?event=order_purchased&event=order_refunded&type=sent',
      'company_admin',
    );
    const exports = answer(
      'get',
      '/api/v1/exports/transactions',
      () => new HttpResponse('id\n1\n', { headers: { 'Content-Type': 'text/csv' } }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saveFile).toHaveBeenCalledTimes(1));
    expect(exports[0]?.query).toEqual({
      scope: 'employee',
      event: ['order_purchased', 'order_refunded'],
      type: 'sent',
    });
    expect(saveFile.mock.calls[0]?.[1]).toBe('transactions.csv');
  });

  it('shows a failed load with a retry', async () => {
    let fail = true;
    await openTransactions(() =>
      fail
        ? (errorBody(400, 'SOMETHING', { message: 'bad cursor' }) as never)
        : { data: [buildTransaction({ order_no: 'ORD9' })], next_cursor: null },
    );
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Bad cursor')).toBeInTheDocument();
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('cell', { name: 'ORD9' })).toBeInTheDocument();
  });

  it('shows the empty state', async () => {
    await openTransactions({ data: [], next_cursor: null });
    expect(await screen.findByText('No transactions found.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it("names each row's company when the list spans companies, and not once a company is chosen", async () => {
    await openTransactions({
      data: [buildTransaction({ event: 'company_expired', order_id: null, order_no: null })],
      next_cursor: null,
    });
    expect(await screen.findByRole('columnheader', { name: 'Company' })).toBeInTheDocument();
    const row = (await screen.findByText('Unused company tokens expired')).closest('tr')!;
    expect(within(row).getByText('Acme')).toBeInTheDocument();
    expect(within(row).getByText('(ACME)')).toBeInTheDocument();
  });

  it('shows no Company column for one company, nor to a company admin', async () => {
    await openTransactions(
      { data: pageOf(1), next_cursor: null },
      '/company-transaction?company_id=1',
    );
    await screen.findByRole('button', { name: /^Order ORD/ });
    expect(screen.queryByRole('columnheader', { name: 'Company' })).toBeNull();
  });

  it('reads each event with its counterparty and shows a partial refund as such', async () => {
    await openTransactions(
      {
        data: [
          buildTransaction({
            event: 'employee_issued',
            direction: 'received',
            employee_id: 7,
            employee_number: 'E0001',
            employee_name: 'Ava Chen',
            order_id: null,
            order_no: null,
            order_type: null,
            order_status: null,
            order_refund_state: null,
            merchant_code: null,
            transfer_id: 'f0e1',
            counterparty_transaction_id: 90,
          }),
          buildTransaction({
            employee_id: 7,
            employee_number: 'E0001',
            employee_name: 'Ava Chen',
            order_no: 'ORD23',
            order_subtotal: 70,
            order_refunded_amount: 23,
            order_refund_state: 'partial',
          }),
        ],
        next_cursor: null,
      },
      '/employee-transaction',
      'company_admin',
    );
    expect(
      await screen.findByRole('button', { name: 'Received from Acme (ACME)' }),
    ).toBeInTheDocument();
    const order = screen.getByRole('button', { name: 'Order ORD23 at SHOP' }).closest('tr')!;
    expect(within(order).getByText('Partially refunded')).toBeInTheDocument();
    expect(within(order).getByText('Campus Shop')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Merchant' })).toBeInTheDocument();
  });

  it('opens a transfer from its row by click and by keyboard, with the other side named', async () => {
    const companySide = buildTransaction({
      event: 'employee_issued',
      order_id: null,
      order_no: null,
      order_type: null,
      order_status: null,
      order_refund_state: null,
      merchant_code: null,
      transfer_id: 'f0e1',
      counterparty_transaction_id: 91,
      counterparty_employee_id: 7,
      counterparty_employee_number: 'E0001',
      counterparty_employee_name: 'Ava Chen',
    });
    await openTransactions(
      { data: [companySide], next_cursor: null },
      '/company-transaction',
      'company_admin',
    );
    const button = await screen.findByRole('button', { name: 'Issued to E0001 Ava Chen' });
    await userEvent.click(button.closest('tr')!.querySelector('td')!);
    let dialog = await screen.findByRole('dialog', { name: 'Issued to E0001 Ava Chen' });
    expect(within(dialog).getByText('E0001 Ava Chen (row 91)')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    button.focus();
    await userEvent.keyboard('{Enter}');
    dialog = await screen.findByRole('dialog', { name: 'Issued to E0001 Ava Chen' });
    expect(within(dialog).getByRole('heading', { name: 'Transfer' })).toBeInTheDocument();
  });

  it("opens a row's order in full for admin", async () => {
    await openTransactions({
      data: [buildTransaction({ order_id: 40, order_no: 'ORD40' })],
      next_cursor: null,
    });
    answer('get', '/api/v1/orders/admin/40', {
      data: {
        ...buildOrder({ id: 40, order_no: 'ORD40' }),
        purchase_transaction_id: 1,
        refunds: [],
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Order ORD40 at SHOP' }));
    const dialog = await screen.findByRole('dialog', { name: 'Order ORD40 at SHOP' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Open order ORD40' }));
    expect(await screen.findByRole('dialog', { name: 'Order ORD40' })).toBeInTheDocument();
  });
});
