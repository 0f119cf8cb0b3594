import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { twMerge } from 'tailwind-merge';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PAY_CODE_LENGTH, type Role, type TillTerminal } from '@app/contract';
import { installClassMerge } from '@/lib/class-merge';
import { setClassMerge } from '@/lib/cn';
import { useAuthStore } from '@/lib/auth-store';
import { i18n } from '@/locales/i18n';
import { answer, signedIn, type Recorded } from '@/test/api';
import { server } from '@/test/server';
import type { PlacedOrder, TillOrder } from '../api/till';
import { TILL_CODE_LENGTH } from '../lib/code-length';
import { tillWindow } from '../lib/till-session';
import { TillApp } from './till-app';

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

/** The till's page as its entry draws it, for `role` of the merchant. */
function openTill(
  role: Extract<Role, `merchant_${string}`> = 'merchant_staff',
  rows: TillOrder[] = [],
) {
  const user = signedIn(role, { merchant_id: 1 });
  useAuthStore.setState({ user, isAuthenticated: true });
  answer('get', '/api/v1/till/terminals', { data: terminals });
  const orders = answer('get', '/api/v1/till/orders', { data: rows });
  const view = render(<TillApp />);
  return { orders, view };
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

afterEach(() => {
  installClassMerge();
});

describe('the till', () => {
  it('reads codes of the contract’s length', () => {
    expect(TILL_CODE_LENGTH).toBe(PAY_CODE_LENGTH);
  });

  it('charges a pay code through the chosen terminal and draws the answer as it arrives', async () => {
    const { orders } = openTill();
    const charges = answer('post', '/api/v1/till/terminals/4/orders', () =>
      HttpResponse.json({ data: placed({ terminal_id: 4 }) }, { status: 201 }),
    );
    await userEvent.selectOptions(await screen.findByLabelText('Terminal'), '4');
    expect(localStorage.getItem('till-terminal')).toBe('4');
    expect(await screen.findByText('No orders yet today.')).toBeInTheDocument();
    // From now on the orders' list never answers: the charge's answer is drawn all the same, and
    // the order it placed is in the list at once.
    let refreshes = 0;
    server.use(
      http.get('/api/v1/till/orders', async () => {
        refreshes += 1;
        await delay('infinite');
        return HttpResponse.json({ data: [] });
      }),
    );
    await keyIn(`${CODE.slice(0, 6)} ${CODE.slice(6)}`, '80');
    await userEvent.click(screen.getByRole('button', { name: 'Charge 80' }));

    expect(await screen.findByTestId('charge-outcome')).toHaveTextContent('Approved');
    expect(screen.getByTestId('charge-order-no')).toHaveTextContent('ORD0000000090');
    expect(screen.getByTestId('charge-paid')).toHaveTextContent('80');
    expect(screen.getByTestId('charge-balance')).toHaveTextContent('1,170');
    expect(within(screen.getByTestId('till-orders')).getByText('ORD0000000090')).toBeVisible();
    await waitFor(() => expect(refreshes).toBe(1));
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

  it('lets a supervisor refund an order of any terminal after a confirmation', async () => {
    const { orders } = openTill('merchant_supervisor', [orderRow({ terminal_id: 4 })]);
    const refunds = answer('post', '/api/v1/till/orders/90/refund', () =>
      HttpResponse.json({
        data: {
          order: orderRow({ terminal_id: 4, refunded_amount: 30 }),
          refund: { amount: 30, reason: 'item_removed', transaction_id: 7, available_tokens: 30 },
        },
      }),
    );
    const row = await screen.findByTestId('till-order');
    expect(row).toHaveTextContent('Back counter');
    expect(orders[0]!.query).toEqual({});
    await userEvent.click(within(row).getByRole('button', { name: 'Refund ORD0000000090' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.selectOptions(within(dialog).getByLabelText('Reason'), 'item_removed');
    const amount = within(dialog).getByLabelText('Amount to refund (tokens)');
    await userEvent.clear(amount);
    await userEvent.type(amount, '30');
    // From now on the orders' list never answers: the refund's answer is drawn all the same.
    server.use(http.get('/api/v1/till/orders', () => delay('infinite')));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Refund 30' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(refunds.map((call) => call.body)).toEqual([{ reason: 'item_removed', amount: 30 }]);
    expect(keyOf(refunds[0])).toMatch(/^[0-9a-f-]{36}$/);
    expect(await screen.findByText('30 refunded on ORD0000000090')).toBeVisible();
    expect(within(screen.getByTestId('till-order')).getByText('30 refunded')).toBeVisible();
    expect(localStorage.getItem('till-pending-refund')).toBeNull();
  });

  it('keeps a refund without an answer on the device and, after a reload, sends its key again', async () => {
    const { view } = openTill('merchant_supervisor', [orderRow()]);
    const refunds = answer('post', '/api/v1/till/orders/90/refund', () => HttpResponse.error());
    const row = await screen.findByTestId('till-order');
    await userEvent.click(within(row).getByRole('button', { name: 'Refund ORD0000000090' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Refund 80' }));
    expect(await within(dialog).findByText('Waiting for the network…')).toBeInTheDocument();
    const kept = JSON.parse(localStorage.getItem('till-pending-refund')!) as {
      key: string;
      order_id: number;
      body: unknown;
    };
    expect(kept).toMatchObject({
      key: keyOf(refunds[0]),
      order_id: 90,
    });
    // Cancelled: what is left of the order, without an amount (the API refuses one).
    expect(kept.body).toEqual({ reason: 'cancelled' });

    // The page is reloaded (the till drawn anew); the network is back.
    view.unmount();
    // Its answer held until the till has shown what it is waiting for.
    let answerNow = () => {};
    const held = new Promise<void>((resolve) => (answerNow = resolve));
    const again: { key: string | null; body: unknown }[] = [];
    server.use(
      http.post('/api/v1/till/orders/90/refund', async ({ request }) => {
        again.push({ key: request.headers.get('idempotency-key'), body: await request.json() });
        await held;
        return HttpResponse.json({
          data: {
            order: orderRow({ refunded_amount: 80 }),
            refund: { amount: 80, reason: 'cancelled', transaction_id: 8, available_tokens: 80 },
          },
        });
      }),
    );
    render(<TillApp />);
    expect(
      await screen.findByText('Refund of ORD0000000090: waiting for the network…'),
    ).toBeVisible();
    answerNow();
    expect(await screen.findByText('80 refunded on ORD0000000090')).toBeVisible();
    expect(again).toEqual([{ key: kept.key, body: kept.body }]);
    expect(localStorage.getItem('till-pending-refund')).toBeNull();
  });

  it('refunds a partial order up to what the wallet paid, not the bill', async () => {
    openTill('merchant_supervisor', [orderRow({ paid_tokens: 30, to_pay_otherwise: 50 })]);
    const row = await screen.findByTestId('till-order');
    expect(row).toHaveTextContent('30');
    expect(within(row).getByText('50 otherwise')).toBeVisible();
    await userEvent.click(within(row).getByRole('button', { name: 'Refund ORD0000000090' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('button', { name: 'Refund 30' })).toBeEnabled();
    await userEvent.selectOptions(within(dialog).getByLabelText('Reason'), 'item_removed');
    const amount = within(dialog).getByLabelText('Amount to refund (tokens)');
    expect(amount).toHaveValue('30');
    await userEvent.clear(amount);
    await userEvent.type(amount, '31');
    expect(within(dialog).getByRole('button', { name: 'Refund 0' })).toBeDisabled();
  });

  it('shows staff no refund button, and a receipt to print', async () => {
    openTill('merchant_staff', [orderRow()]);
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    const row = await screen.findByTestId('till-order');
    expect(within(row).queryByRole('button', { name: /Refund/ })).not.toBeInTheDocument();
    await userEvent.click(
      within(row).getByRole('button', { name: 'Print the receipt of ORD0000000090' }),
    );
    await waitFor(() => expect(print).toHaveBeenCalledTimes(1));
    // The receipt is beside the app in the document (in print, it alone: till.css).
    const receipt = screen.getByTestId('receipt');
    expect(receipt.parentElement).toBe(document.body);
    expect(receipt).toHaveTextContent('Campus Shop');
    expect(receipt).toHaveTextContent('ORD0000000090');
    expect(receipt).toHaveTextContent('Total80');
  });

  it('speaks Chinese too, and switches language from its bar', async () => {
    openTill();
    await screen.findByLabelText('Pay code');
    await userEvent.click(screen.getByRole('button', { name: '中文' }));
    expect(await screen.findByRole('heading', { level: 1, name: '收银台' })).toBeInTheDocument();
    expect(screen.getByLabelText('付款码')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '中文' })).toHaveAttribute('aria-pressed', 'true');
    expect(document.title).toBe('收银台 · 代币管理后台');
  });

  it('signs out to the sign-in page, without a way back', async () => {
    openTill();
    const leave = vi.spyOn(tillWindow, 'leave').mockImplementation(() => {});
    const logout = answer('post', '/api/v1/iam/logout', { data: null });
    await userEvent.click(await screen.findByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(leave).toHaveBeenCalledWith('/login'));
    expect(logout).toHaveLength(1);
    expect(useAuthStore.getState().isAuthenticated).toBe(false);
  });

  it('draws no class that another overrides: it is drawn before tailwind-merge arrives', async () => {
    setClassMerge(undefined);
    openTill('merchant_supervisor', [orderRow()]);
    answer('post', '/api/v1/till/terminals/3/orders', () =>
      HttpResponse.json({ data: placed({ to_pay_otherwise: 5 }) }, { status: 201 }),
    );
    await screen.findByTestId('till-order');
    await keyIn(CODE, '80');
    const classes = () =>
      [...document.body.querySelectorAll('[class]')].map((element) =>
        element.getAttribute('class')!,
      );
    const before = classes();
    await userEvent.click(screen.getByRole('button', { name: 'Charge 80' }));
    await screen.findByTestId('collect-otherwise');
    const all = [...before, ...classes()];
    expect(all.length).toBeGreaterThan(30);
    expect(all.filter((value) => twMerge(value) !== value)).toEqual([]);
  });
});

describe("the till's camera", () => {
  const realMediaDevices = navigator.mediaDevices;
  afterEach(() => {
    Object.defineProperty(navigator, 'mediaDevices', {
      value: realMediaDevices,
      configurable: true,
    });
  });

  const secure = Object.getOwnPropertyDescriptor(window, 'isSecureContext');
  afterEach(() => {
    if (secure) Object.defineProperty(window, 'isSecureContext', secure);
    else delete (window as { isSecureContext?: boolean }).isSecureContext;
  });

  /** A secure page (https, or localhost) whose browser offers this camera. */
  const withCamera = (getUserMedia: () => Promise<MediaStream>) => {
    Object.defineProperty(window, 'isSecureContext', { value: true, configurable: true });
    Object.defineProperty(navigator, 'mediaDevices', {
      value: { getUserMedia: vi.fn(getUserMedia) },
      configurable: true,
    });
  };

  it.each([
    ['NotAllowedError', 'en', 'Camera access was refused.'],
    ['NotFoundError', 'en', 'No camera was found on this device.'],
    ['NotReadableError', 'en', 'another app may be using it'],
    ['NotAllowedError', 'zh', '摄像头权限被拒绝'],
    ['NotFoundError', 'zh', '此设备上没有找到摄像头'],
  ])('says plainly why it did not open: %s (%s)', async (name, lng, message) => {
    withCamera(() => Promise.reject(new DOMException('no', name)));
    openTill();
    await screen.findByLabelText('Pay code');
    await act(() => i18n.changeLanguage(lng));
    await userEvent.click(screen.getByRole('button', { name: lng === 'zh' ? '扫码' : 'Scan' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    // Typing the code stays.
    expect(screen.getByLabelText(lng === 'zh' ? '付款码' : 'Pay code')).toBeEnabled();
    expect(navigator.mediaDevices.getUserMedia).toHaveBeenCalledWith({
      video: { facingMode: { ideal: 'environment' } },
      audio: false,
    });
  });

  it('says so where the browser offers no camera', async () => {
    Object.defineProperty(navigator, 'mediaDevices', { value: undefined, configurable: true });
    openTill();
    await userEvent.click(await screen.findByRole('button', { name: 'Scan' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This browser cannot open a camera on this page',
    );
  });
});
