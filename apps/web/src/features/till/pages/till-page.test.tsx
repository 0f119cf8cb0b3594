import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { PAY_CODE_LENGTH, type TillTerminal } from '@app/contract';
import { answer, signedIn, type Recorded } from '@/test/api';
import { renderApp } from '@/test/render';
import type { PlacedOrder, TillOrder } from '../api/till';
import { TILL_CODE_LENGTH } from '../lib/code-length';

const CODE = '412345678901081804';

const terminals: TillTerminal[] = [
  { id: 3, code: 'T1', name: 'Front counter', merchant_id: 1, merchant_name: 'Campus Shop' },
  { id: 4, code: 'T2', name: 'Back counter', merchant_id: 1, merchant_name: 'Campus Shop' },
];

const placed = (overrides: Partial<PlacedOrder> = {}): PlacedOrder => ({
  id: 90,
  order_no: 'ORD0000000090',
  status: 'ordered',
  subtotal: 80,
  refunded_amount: 0,
  paid_tokens: 80,
  to_pay_otherwise: 0,
  company_id: 1,
  company_code: 'ACME',
  employee_id: 'E0001',
  merchant_id: 1,
  terminal_id: 3,
  order_type: 'dine_in',
  items: [{ name: 'Sale', quantity: 1, unit_tokens: 80 }],
  ordered_at: '2026-01-20T12:00:00.000Z',
  available_tokens: 1170,
  ...overrides,
});

const orderRow = (overrides: Partial<TillOrder> = {}): TillOrder => {
  const { available_tokens: _, ...row } = placed();
  return { ...row, ...overrides };
};

function openTill(role: 'merchant_staff' | 'merchant_supervisor' = 'merchant_staff') {
  const user = signedIn(role, { merchant_id: 1 });
  answer('get', '/api/v1/till/terminals', { data: terminals });
  const orders = answer('get', '/api/v1/till/orders', { data: [] });
  renderApp('/till', { user });
  return { orders };
}

async function keyIn(code: string, amount: string) {
  await userEvent.type(await screen.findByLabelText('Pay code'), code);
  for (const digit of amount) {
    await userEvent.click(
      within(screen.getByRole('group', { name: 'Amount keypad' })).getByRole('button', {
        name: digit,
      }),
    );
  }
}

const keyOf = (call: Recorded | undefined) => call?.headers.get('idempotency-key');

describe('the till', () => {
  it('reads codes of the contract’s length', () => {
    expect(TILL_CODE_LENGTH).toBe(PAY_CODE_LENGTH);
  });

  it('charges a pay code through the chosen terminal and shows the approval', async () => {
    const { orders } = openTill();
    const charges = answer('post', '/api/v1/till/terminals/4/orders', () =>
      HttpResponse.json({ data: placed({ terminal_id: 4 }) }, { status: 201 }),
    );
    await userEvent.selectOptions(await screen.findByLabelText('Terminal'), '4');
    expect(localStorage.getItem('till-terminal')).toBe('4');
    await keyIn(`${CODE.slice(0, 6)} ${CODE.slice(6)}`, '80');
    await userEvent.click(screen.getByRole('button', { name: 'Charge 80' }));

    expect(await screen.findByTestId('charge-outcome')).toHaveTextContent('Approved');
    expect(screen.getByTestId('charge-order-no')).toHaveTextContent('ORD0000000090');
    expect(screen.getByTestId('charge-paid')).toHaveTextContent('80');
    expect(screen.getByTestId('charge-balance')).toHaveTextContent('1,170');
    expect(charges).toHaveLength(1);
    expect(charges[0]!.body).toEqual({
      pay_code: CODE,
      order_type: 'dine_in',
      items: [{ name: 'Sale', quantity: 1, unit_tokens: 80 }],
    });
    expect(keyOf(charges[0])).toMatch(/^[0-9a-f-]{36}$/);
    // Answered: nothing left pending on the device; staff lists its terminal's orders only.
    expect(localStorage.getItem('till-pending-charge')).toBeNull();
    expect(orders.map((call) => call.query)).toContainEqual({ terminal_id: '4' });
  });

  it('shows a declined charge with its reason, the figures put in', async () => {
    openTill();
    answer('post', '/api/v1/till/terminals/3/orders', () =>
      HttpResponse.json(
        {
          statusCode: 409,
          error: 'Conflict',
          message: 'daily limit',
          code: 'DAILY_LIMIT_EXCEEDED',
          details: { daily_limit: 25, spent_today: 20, remaining_today: 5 },
        },
        { status: 409 },
      ),
    );
    await keyIn(CODE, '8');
    await userEvent.click(screen.getByRole('button', { name: 'Charge 8' }));
    expect(await screen.findByTestId('charge-outcome')).toHaveTextContent('Declined');
    expect(screen.getByTestId('decline-reason')).toHaveTextContent(
      'The daily limit of 25 tokens is reached: 5 left today.',
    );
    expect(localStorage.getItem('till-pending-charge')).toBeNull();
  });

  it('shows a partial payment as what to collect otherwise', async () => {
    openTill();
    const charges = answer('post', '/api/v1/till/terminals/3/orders', () =>
      HttpResponse.json(
        { data: placed({ paid_tokens: 60, to_pay_otherwise: 20, available_tokens: 0 }) },
        { status: 201 },
      ),
    );
    await keyIn(CODE, '80');
    await userEvent.click(screen.getByLabelText(/Allow partial payment/));
    await userEvent.click(screen.getByRole('button', { name: 'Charge 80' }));
    expect(await screen.findByTestId('collect-otherwise')).toHaveTextContent(
      'Collect 20 otherwise',
    );
    expect(charges[0]!.body).toMatchObject({ partial: true });
  });

  it('without an answer, waits for the network and sends the same key again', async () => {
    openTill();
    let tries = 0;
    const charges = answer('post', '/api/v1/till/terminals/3/orders', () =>
      ++tries === 1 ? HttpResponse.error() : HttpResponse.json({ data: placed() }, { status: 201 }),
    );
    await keyIn(CODE, '80');
    await userEvent.click(screen.getByRole('button', { name: 'Charge 80' }));

    expect(await screen.findByText('Waiting for the network…')).toBeInTheDocument();
    const pending = JSON.parse(localStorage.getItem('till-pending-charge')!) as { key: string };
    expect(pending.key).toBe(keyOf(charges[0]));
    // Back online: the till tries again at once.
    window.dispatchEvent(new Event('online'));

    expect(await screen.findByTestId('charge-outcome')).toHaveTextContent('Approved');
    expect(charges).toHaveLength(2);
    expect(keyOf(charges[1])).toBe(keyOf(charges[0]));
    expect(charges[1]!.body).toEqual(charges[0]!.body);
    expect(localStorage.getItem('till-pending-charge')).toBeNull();
  });

  it('resumes a charge left pending by a reload, with its key', async () => {
    localStorage.setItem(
      'till-pending-charge',
      JSON.stringify({
        key: '11111111-2222-4333-8444-555555555555',
        terminal_id: 3,
        body: {
          pay_code: CODE,
          order_type: 'dine_in',
          items: [{ name: 'Sale', quantity: 1, unit_tokens: 80 }],
        },
        started_at: '2026-01-20T12:00:00.000Z',
      }),
    );
    const charges = answer('post', '/api/v1/till/terminals/3/orders', () =>
      HttpResponse.json({ data: placed() }, { status: 201 }),
    );
    openTill();
    expect(await screen.findByTestId('charge-outcome')).toHaveTextContent('Approved');
    expect(charges.map(keyOf)).toContain('11111111-2222-4333-8444-555555555555');
    expect(new Set(charges.map(keyOf)).size).toBe(1);
    expect(localStorage.getItem('till-pending-charge')).toBeNull();
  });

  it('lets a supervisor refund an order of any terminal after a confirmation; staff sees no refund', async () => {
    const user = signedIn('merchant_supervisor', { merchant_id: 1 });
    answer('get', '/api/v1/till/terminals', { data: terminals });
    const orders = answer('get', '/api/v1/till/orders', { data: [orderRow({ terminal_id: 4 })] });
    const refunds = answer('post', '/api/v1/till/orders/90/refund', () =>
      HttpResponse.json({ data: { order: orderRow({ refunded_amount: 30 }), refund: {} } }),
    );
    renderApp('/till', { user });
    const row = await screen.findByTestId('till-order');
    expect(row).toHaveTextContent('Back counter');
    expect(orders[0]!.query).toEqual({});
    await userEvent.click(within(row).getByRole('button', { name: 'Refund ORD0000000090' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.selectOptions(within(dialog).getByLabelText('Reason'), 'item_removed');
    const amount = within(dialog).getByLabelText('Amount to refund (tokens)');
    await userEvent.clear(amount);
    await userEvent.type(amount, '30');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Refund 30' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(refunds.map((call) => call.body)).toEqual([{ reason: 'item_removed', amount: 30 }]);
    expect(keyOf(refunds[0])).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('shows staff no refund button', async () => {
    const user = signedIn('merchant_staff', { merchant_id: 1 });
    answer('get', '/api/v1/till/terminals', { data: terminals });
    answer('get', '/api/v1/till/orders', { data: [orderRow()] });
    renderApp('/till', { user });
    const row = await screen.findByTestId('till-order');
    expect(
      within(row).getByRole('button', { name: 'Print the receipt of ORD0000000090' }),
    ).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: /Refund/ })).not.toBeInTheDocument();
  });
});
