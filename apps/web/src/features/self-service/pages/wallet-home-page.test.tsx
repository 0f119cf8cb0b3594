import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TokenTransaction, Wallet } from '@app/contract';
import { i18n } from '@/locales/i18n';
import { answer, errorBody, signedIn } from '@/test/api';
import { renderApp } from '@/test/render';
import { countdownOf } from './wallet-home-page';

const wallet: Wallet = {
  available_tokens: 1250,
  token_month: '2026-01',
  next_reset_at: '2026-02-01T00:00:00.000Z',
  expiring_tokens: 1250,
  spent_tokens: 3400,
  company_code: 'ACME',
  company_name: 'Acme',
  employee_id: 'E0001',
  name: 'Alice Tan',
};

function row(overrides: Partial<TokenTransaction>): TokenTransaction {
  return {
    id: 1,
    seq: 1,
    occurred_at: '2026-01-20T12:00:00.000Z',
    event: 'order_purchased',
    company_id: 1,
    company_code: 'ACME',
    company_name: 'Acme',
    employee_id: 7,
    employee_number: 'E0001',
    employee_name: 'Alice Tan',
    direction: 'sent',
    amount: 80,
    balance_before: 1330,
    balance_after: 1250,
    period: '2026-01',
    order_id: 40,
    order_no: 'ORD0000000040',
    order_type: 'dine_in',
    order_status: 'ordered',
    order_subtotal: 80,
    order_refunded_amount: 0,
    order_refund_state: 'none',
    ordered_at: '2026-01-20T12:00:00.000Z',
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

const rows = [
  row({ id: 2, seq: 2 }),
  row({
    id: 1,
    seq: 1,
    event: 'employee_issued',
    direction: 'received',
    amount: 1330,
    order_id: null,
    merchant_name: null,
  }),
];

function openHome(answerWith: Wallet | (() => Response) = wallet) {
  const user = signedIn('company_employee', { company_id: 1 });
  const wallets = answer(
    'get',
    '/api/v1/me/wallet',
    typeof answerWith === 'function' ? answerWith : { data: answerWith },
  );
  answer('get', '/api/v1/me/pay-devices', { data: [] });
  const transactions = answer('get', '/api/v1/tokens/transactions', {
    data: rows,
    next_cursor: null,
  });
  renderApp('/dashboard', { user });
  return { wallets, transactions };
}

describe('the employee’s home', () => {
  beforeEach(() => {
    // Only Date is faked: the countdown reads the time; promises and timers run as usual.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-28T10:00:00.000Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('shows the balance, what expires at the reset and when, the spending, the pay code and its own rows', async () => {
    const { transactions } = openHome();
    expect(await screen.findByRole('heading', { level: 1, name: 'My wallet' })).toBeInTheDocument();
    const balance = await screen.findByTestId('wallet-balance');
    expect(within(balance).getByText('1,250')).toBeInTheDocument();
    expect(within(balance).getByTestId('expiring')).toHaveTextContent(
      /^1,250 tokens expire at the next reset, Sunday 1 February 2026 \(in 3 days\)$/,
    );
    expect(screen.getByText('Spent in January 2026')).toBeInTheDocument();
    expect(screen.getByTestId('wallet-spent')).toHaveTextContent('3,400');
    // The rotating pay code's card (its own tests: pay-code-card.test.tsx), not the old fixed
    // code of company and staff number, which anyone knowing them could have drawn.
    expect(screen.getByRole('heading', { level: 2, name: 'Pay code' })).toBeInTheDocument();
    expect(screen.getByTestId('pay-code-card')).toBeInTheDocument();
    expect(screen.queryByText('ACME · E0001')).not.toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /employee ID E0001/ })).not.toBeInTheDocument();
    const list = await screen.findByTestId('recent-transactions');
    expect(within(list).getByText('Order purchased · Campus Shop')).toBeInTheDocument();
    expect(within(list).getByLabelText('Spent 80 tokens')).toHaveTextContent('−80');
    expect(within(list).getByLabelText('Received 1,330 tokens')).toHaveTextContent('+1,330');
    // The server limits the list to the employee's own wallet; the page asks for nothing more.
    expect(transactions[0]?.query).toEqual({ limit: '10' });
  });

  it('says what it may still spend today, its rules in words and its declined orders with their reasons', async () => {
    openHome({
      ...wallet,
      remaining_today: 13,
      spending_rules: {
        effective_from: '2026-01-01',
        daily_limit: 25,
        order_limit: 40,
        weekdays: [1, 2, 3, 4, 5],
        hours: [{ from: '11:00', to: '14:30' }],
        closed_on_holidays: true,
        merchant_categories: ['restaurant', 'canteen'],
        partial_payment: false,
        created_at: '2025-12-20T08:00:00.000Z',
        created_by: 1,
      },
      spending_exception: {
        employee_id: 7,
        weekdays: [6, 7],
        closed_on_holidays: null,
        daily_limit: null,
        until: '2026-03-31',
        updated_at: '2026-01-02T08:00:00.000Z',
      },
      declines: [
        {
          id: 3,
          declined_at: '2026-01-27T12:05:00.000Z',
          company_id: 1,
          employee_id: 7,
          merchant_id: 1,
          terminal_id: 1,
          subtotal: 55,
          code: 'ORDER_LIMIT_EXCEEDED',
          details: { order_limit: 40 },
          merchant_name: 'Campus Shop',
        },
        {
          id: 2,
          declined_at: '2026-01-26T12:05:00.000Z',
          company_id: 1,
          employee_id: 7,
          merchant_id: 1,
          terminal_id: 1,
          subtotal: 20,
          code: 'DAILY_LIMIT_EXCEEDED',
          details: { daily_limit: 25, spent_today: 12, remaining_today: 13 },
          merchant_name: 'Campus Shop',
        },
      ],
    });
    expect(await screen.findByTestId('remaining-today')).toHaveTextContent(
      'You can still spend 13 tokens today',
    );
    expect(screen.getByTestId('wallet-rules')).toHaveTextContent(
      'Monday to Friday, 11:00 to 14:30, at most 25 tokens a day, at most 40 tokens an order, not on public holidays, restaurants and canteens',
    );
    expect(screen.getByTestId('wallet-exception')).toHaveTextContent(
      'Your exception until Tuesday 31 March 2026: Saturday and Sunday',
    );
    const declines = within(screen.getByTestId('wallet-declines'));
    expect(declines.getByText('An order may be at most 40 tokens.')).toBeInTheDocument();
    expect(
      declines.getByText('The daily limit of 25 tokens is reached: 13 left today.'),
    ).toBeInTheDocument();
    expect(declines.getByLabelText('Declined order of 55 tokens')).toHaveTextContent('55');
  });

  it('says nothing of today’s remainder without a daily limit, and that no rule applies', async () => {
    openHome({ ...wallet, remaining_today: null, spending_rules: null, declines: [] });
    await screen.findByTestId('wallet-balance');
    expect(screen.queryByTestId('remaining-today')).not.toBeInTheDocument();
    expect(screen.getByTestId('wallet-rules')).toHaveTextContent(
      'No spending rules: any order your balance covers is accepted.',
    );
    expect(screen.getByText('No declined order.')).toBeInTheDocument();
  });

  it('speaks Chinese, dates year first', async () => {
    await i18n.changeLanguage('zh');
    openHome();
    expect(await screen.findByRole('heading', { level: 1, name: '我的钱包' })).toBeInTheDocument();
    const balance = await screen.findByTestId('wallet-balance');
    expect(within(balance).getByTestId('expiring')).toHaveTextContent(
      /^1,250 代币将在下次重置时过期：2026年2月1日星期日（3 天后）$/,
    );
    expect(screen.getByText('2026年1月已消费')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: '付款码' })).toBeInTheDocument();
    expect(screen.queryByText('ACME · E0001')).not.toBeInTheDocument();
  });

  it('states its rules and declines in Chinese', async () => {
    await i18n.changeLanguage('zh');
    openHome({
      ...wallet,
      remaining_today: 13,
      declines: [
        {
          id: 3,
          declined_at: '2026-01-27T12:05:00.000Z',
          company_id: 1,
          employee_id: 7,
          merchant_id: 1,
          terminal_id: 1,
          subtotal: 55,
          code: 'ORDER_LIMIT_EXCEEDED',
          details: { order_limit: 40 },
          merchant_name: 'Campus Shop',
        },
      ],
    });
    expect(await screen.findByTestId('remaining-today')).toHaveTextContent('今天还可消费 13 代币');
    expect(screen.getByText('单笔订单最多 40 代币。')).toBeInTheDocument();
  });

  it('shows a failure by the display rule, with a retry', async () => {
    openHome(() => errorBody(404, 'RECORD_NOT_FOUND'));
    expect(await screen.findByText('Your wallet could not be loaded.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

describe('countdownOf', () => {
  const reset = new Date('2026-02-01T00:00:00.000Z');
  it.each([
    ['2026-01-28T10:00:00.000Z', { unit: 'days', count: 3 }],
    ['2026-01-31T00:00:00.000Z', { unit: 'days', count: 1 }],
    ['2026-01-31T00:00:01.000Z', { unit: 'hours', count: 23 }],
    ['2026-01-31T23:00:00.000Z', { unit: 'hours', count: 1 }],
    ['2026-01-31T23:00:01.000Z', { unit: 'soon' }],
    ['2026-02-01T00:00:00.000Z', { unit: 'soon' }],
  ])('at %s answers %j', (now, expected) => {
    expect(countdownOf(new Date(now), reset)).toEqual(expected);
  });
});
