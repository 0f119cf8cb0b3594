import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { OrderHistoryItem, Role } from '@app/contract';
import { browser } from '@/lib/browser';
import { answer, listOf, signedIn } from '@/test/api';
import { buildCompany, buildMerchant, buildOrder } from '@/test/fixtures';
import { locationOf, renderApp } from '@/test/render';

const order = buildOrder({ id: 40, order_no: 'ORD0000000040', subtotal: 1500 });

async function openOrders(
  orders: OrderHistoryItem[],
  path = '/order-history',
  role: Role = 'admin',
) {
  const user = signedIn(role);
  answer('get', '/api/v1/companies', listOf([buildCompany({ id: 1, code: 'ACME', name: 'Acme' })]));
  const merchants = answer(
    'get',
    '/api/v1/merchants',
    listOf([buildMerchant({ id: 2, code: 'CAFE', name: 'Cafe' })]),
  );
  const requests = answer('get', '/api/v1/orders/admin', {
    ...listOf(orders),
    total_is_exact: true,
    next_cursor: null,
  });
  const view = renderApp(path, { user });
  await screen.findByRole('heading', { level: 1, name: 'Order History' });
  return { ...view, requests, merchants };
}

describe('Order History', () => {
  it('lists orders with amounts in thousands and the status', async () => {
    await openOrders([
      order,
      buildOrder({
        order_no: 'ORD0000000041',
        status: 'refunded',
        refunded_amount: 2000,
        subtotal: 2000,
      }),
    ]);
    const row = (await screen.findByRole('cell', { name: 'ORD0000000040' })).closest('tr')!;
    expect(within(row).getByText('1,500')).toBeInTheDocument();
    expect(within(row).getByText('E0001 · Ava Chen')).toBeInTheDocument();
    expect(within(row).getByText('Ordered')).toBeInTheDocument();
    const refunded = screen.getByRole('cell', { name: 'ORD0000000041' }).closest('tr')!;
    expect(within(refunded).getByText('Refunded')).toBeInTheDocument();
    expect(within(row).getByText('Dine in')).toBeInTheDocument();
  });

  it('shows a partly refunded order as Partially refunded and filters by it', async () => {
    const { requests } = await openOrders(
      [buildOrder({ order_no: 'ORD0000000070', subtotal: 70, refunded_amount: 23 })],
      '/order-history?refund_state=partial',
    );
    const row = (await screen.findByRole('cell', { name: 'ORD0000000070' })).closest('tr')!;
    expect(within(row).getByText('Partially refunded')).toBeInTheDocument();
    expect(requests[0]?.query).toMatchObject({ refund_state: 'partial' });
    expect(screen.getByRole('button', { name: /Refund state/ })).toBeInTheDocument();
  });

  it('sends every filter of a shared link: status, company, merchant and the date range', async () => {
    const { requests } = await openOrders(
      [],
      '/order-history?status=refunded&company_id=1&merchant_id=2&date_from=2026-01-01&date_to=2026-01-31&order_no=ORD9',
    );
    await screen.findByText('No results.');
    expect(requests[0]?.query).toEqual({
      page: '1',
      page_size: '10',
      status: 'refunded',
      company_id: '1',
      merchant_id: '2',
      date_from: '2026-01-01',
      date_to: '2026-01-31',
      order_no: 'ORD9',
    });
    expect(screen.getByTestId('date-range-trigger')).toHaveTextContent('01/01/2026 – 31/01/2026');
    expect(screen.getByRole('button', { name: /^Company/ })).toHaveTextContent('Acme (ACME)');
  });

  it('filters by status and by a day range through the URL', async () => {
    const { requests, router } = await openOrders([order]);
    await screen.findByRole('cell', { name: 'ORD0000000040' });
    await userEvent.click(screen.getByRole('button', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('menuitemradio', { name: 'Refunded' }));
    await waitFor(() => expect(locationOf(router)).toBe('/order-history?status=refunded'));
    // The range picker reads a typed day as the text writes it (DD/MM/YYYY).
    await userEvent.click(screen.getByTestId('date-range-trigger'));
    await userEvent.type(screen.getByRole('textbox', { name: 'From' }), '05/01/2026{Enter}');
    await waitFor(() =>
      expect(requests.at(-1)?.query).toEqual({
        page: '1',
        page_size: '10',
        status: 'refunded',
        date_from: '2026-01-05',
      }),
    );
  });

  it('shows an order with its items and refunds', async () => {
    await openOrders([order]);
    answer('get', '/api/v1/orders/admin/40', {
      data: {
        ...order,
        status: 'ordered',
        refunded_amount: 600,
        purchase_transaction_id: 100,
        refunds: [
          {
            transaction_id: 101,
            occurred_at: '2026-01-31T15:00:00.000Z',
            amount: 600,
            reason: 'item_removed',
            terminal_id: 1,
            actor_user_id: null,
          },
        ],
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'View order ORD0000000040' }));
    const detail = await screen.findByRole('dialog', { name: 'Order ORD0000000040' });
    const items = within(detail).getByRole('table', { name: 'Items' });
    expect(within(items).getByText('Noodle soup')).toBeInTheDocument();
    expect(within(items).getByText('1,200')).toBeInTheDocument();
    const refunds = within(detail).getByRole('table', { name: 'Refunds' });
    expect(within(refunds).getByText('Item removed')).toBeInTheDocument();
    expect(within(refunds).getByText('600')).toBeInTheDocument();
  });

  it('exports the filtered orders as CSV, without paging', async () => {
    const saveFile = vi.spyOn(browser, 'saveFile').mockImplementation(() => {});
    await openOrders([order], '/order-history?status=ordered&page=2');
    const exports = answer(
      'get',
      '/api/v1/exports/orders',
      () =>
        new HttpResponse('order_no\nORD0000000040\n', {
          headers: {
            'Content-Type': 'text/csv; charset=utf-8',
            'Content-Disposition': 'attachment; filename="orders.csv"',
          },
        }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saveFile).toHaveBeenCalledTimes(1));
    expect(exports[0]?.query).toEqual({ status: 'ordered' });
    expect(saveFile.mock.calls[0]?.[1]).toBe('orders.csv');
  });

  it('shows an export refused by the server by the display rule', async () => {
    const saveFile = vi.spyOn(browser, 'saveFile').mockImplementation(() => {});
    await openOrders([order]);
    answer('get', '/api/v1/exports/orders', () =>
      HttpResponse.json(
        {
          statusCode: 422,
          error: 'Unprocessable Entity',
          message: 'too big',
          code: 'EXPORT_TOO_LARGE',
        },
        { status: 422 },
      ),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(
      await screen.findByText('This export has too many rows. Narrow the filters and try again.'),
    ).toBeInTheDocument();
    expect(saveFile).not.toHaveBeenCalled();
  });

  it('gives Group HR no merchant filter, since it may not list merchants', async () => {
    const { merchants } = await openOrders([order], '/order-history', 'super_hr');
    await screen.findByRole('cell', { name: 'ORD0000000040' });
    expect(screen.getByRole('button', { name: /^Company/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Merchant/ })).not.toBeInTheDocument();
    expect(merchants).toHaveLength(0);
  });
});
