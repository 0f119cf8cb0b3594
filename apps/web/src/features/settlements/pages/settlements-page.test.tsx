import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { Role, SettlementList, SettlementOrder, SettlementPeriod } from '@app/contract';
import { browser } from '@/lib/browser';
import { i18n } from '@/locales/i18n';
import { answer, errorBody, signedIn } from '@/test/api';
import { renderApp } from '@/test/render';

const period = (overrides: Partial<SettlementPeriod> = {}): SettlementPeriod => ({
  merchant_id: 3,
  merchant_code: 'SHOP',
  merchant_name: 'Campus Shop',
  period_start: '2026-03-01',
  period_end: '2026-03-15',
  status: 'closed',
  orders: 3,
  refunds: 1,
  purchased_tokens: 1180,
  refunded_tokens: 10,
  net_tokens: 1170,
  companies: [
    {
      company_id: 1,
      company_code: 'ACME',
      company_name: 'Acme Foods',
      orders: 2,
      refunds: 1,
      purchased_tokens: 1130,
      refunded_tokens: 10,
      net_tokens: 1120,
    },
    {
      company_id: 2,
      company_code: 'BETA',
      company_name: 'Beta Labs',
      orders: 1,
      refunds: 0,
      purchased_tokens: 50,
      refunded_tokens: 0,
      net_tokens: 50,
    },
  ],
  ...overrides,
});

const listAnswer = (data: SettlementPeriod[]): SettlementList => ({
  data,
  total: data.length,
  totals: {
    orders: data.reduce((s, p) => s + p.orders, 0),
    refunds: data.reduce((s, p) => s + p.refunds, 0),
    purchased_tokens: data.reduce((s, p) => s + p.purchased_tokens, 0),
    refunded_tokens: data.reduce((s, p) => s + p.refunded_tokens, 0),
    net_tokens: data.reduce((s, p) => s + p.net_tokens, 0),
  },
  from: '2026-01-01',
  to: '2026-03-20',
});

const line = (overrides: Partial<SettlementOrder> = {}): SettlementOrder => ({
  order_id: 11,
  order_no: 'ORD0000000011',
  ordered_at: '2026-03-10T02:00:00.000Z',
  terminal_id: 5,
  terminal_code: 'TILL1',
  terminal_name: 'Till 1',
  company_id: 2,
  company_code: 'BETA',
  company_name: 'Beta Labs',
  employee_id: 'B001',
  employee_name: '张伟',
  subtotal: 50,
  purchased_tokens: 50,
  refunded_tokens: 0,
  net_tokens: 50,
  ...overrides,
});

function openList(data: SettlementPeriod[], path = '/settlements', role: Role = 'admin') {
  const requests = answer('get', '/api/v1/settlements', listAnswer(data));
  const merchants = answer('get', '/api/v1/settlements/merchants', {
    data: [{ id: 3, code: 'SHOP', name: 'Campus Shop' }],
  });
  const view = renderApp(path, {
    user: signedIn(role, role.startsWith('merchant') ? { merchant_id: 3 } : {}),
  });
  return { ...view, requests, merchants };
}

function openStatement(orders: SettlementOrder[], statement = period()) {
  const requests = answer('get', '/api/v1/settlements/3/2026-03-01', {
    data: { statement, orders },
    total: orders.length,
  });
  const view = renderApp('/settlements/3/2026-03-01', {
    user: signedIn('merchant_admin', { merchant_id: 3 }),
  });
  return { ...view, requests };
}

describe('Settlements', () => {
  it('lists the statements of the range with their totals, and a row opens its statement', async () => {
    const { requests, merchants } = openList([
      period({
        period_start: '2026-03-16',
        period_end: '2026-03-31',
        status: 'open',
        net_tokens: -30,
        orders: 1,
        refunds: 1,
        purchased_tokens: 70,
        refunded_tokens: 100,
      }),
      period(),
    ]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Settlements' })).toBeVisible();
    expect(
      await screen.findByText('Half-month statements from 01/01/2026 – 20/03/2026.'),
    ).toBeVisible();
    const table = screen.getByRole('table', { name: 'Settlement statements' });
    const first = within(table).getByText('16/03/2026 – 31/03/2026').closest('tr')!;
    expect(within(first).getByText('Open')).toBeInTheDocument();
    expect(within(first).getByText('-30')).toBeInTheDocument();
    const closed = within(table).getByText('01/03/2026 – 15/03/2026').closest('tr')!;
    expect(within(closed).getByText('1,170')).toBeInTheDocument();
    // The range's totals: 1,170 − 30.
    const totals = screen.getByRole('list', { name: 'Totals of the listed statements' });
    expect(within(totals).getByText('1,140')).toBeInTheDocument();
    expect(requests[0]?.query).toEqual({ page: '1', page_size: '10' });
    expect(merchants).toHaveLength(1);

    answer('get', '/api/v1/settlements/3/2026-03-01', {
      data: { statement: period(), orders: [line()] },
      total: 1,
    });
    await userEvent.click(within(closed).getByText('Campus Shop (SHOP)'));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Statement: Campus Shop (SHOP)' }),
    ).toBeVisible();
  });

  it('sends the merchant and the dates of a shared link, and says when nothing matches', async () => {
    const { requests } = openList([], '/settlements?merchant_id=3&from=2026-02-01&to=2026-02-28');
    expect(await screen.findByText('No orders or refunds in these dates.')).toBeInTheDocument();
    expect(requests[0]?.query).toEqual({
      page: '1',
      page_size: '10',
      merchant_id: '3',
      from: '2026-02-01',
      to: '2026-02-28',
    });
  });

  it('takes a statement’s merchant crumb to that merchant’s statements', async () => {
    const { requests } = openList([period()], '/settlements/3');
    await screen.findByText('01/03/2026 – 15/03/2026');
    expect(requests[0]?.query).toMatchObject({ merchant_id: '3' });
  });

  it('shows a failure with a retry', async () => {
    let fail = true;
    answer('get', '/api/v1/settlements', () =>
      fail ? errorBody(400, 'QUERY_PARAM_INVALID') : listAnswer([period()]),
    );
    answer('get', '/api/v1/settlements/merchants', { data: [] });
    renderApp('/settlements', { user: signedIn('super_hr') });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The list could not be loaded.')).toBeInTheDocument();
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('01/03/2026 – 15/03/2026')).toBeInTheDocument();
  });

  it('gives a merchant role no merchant filter and never asks for the merchants', async () => {
    const { merchants } = openList([period()], '/settlements', 'merchant_admin');
    await screen.findByText('01/03/2026 – 15/03/2026');
    expect(screen.queryByRole('button', { name: /Merchant/ })).toBeNull();
    expect(merchants).toHaveLength(0);
  });

  it('shows a statement: totals, the split by company, every order, and downloads CSV and PDF', async () => {
    const saveFile = vi.spyOn(browser, 'saveFile').mockImplementation(() => {});
    openStatement([
      line(),
      line({
        order_id: 12,
        order_no: 'ORD0000000012',
        company_code: 'ACME',
        company_name: 'Acme Foods',
        employee_id: 'A001',
        employee_name: null,
        subtotal: 100,
        purchased_tokens: 0,
        refunded_tokens: 100,
        net_tokens: -100,
      }),
    ]);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Statement: Campus Shop (SHOP)' }),
    ).toBeVisible();
    // The breadcrumb names the merchant and the period; the merchant's crumb leads to its list.
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'SHOP' })).toHaveAttribute(
      'href',
      '/settlements/3',
    );
    expect(within(crumbs).getByText('01/03/2026 – 15/03/2026')).toBeVisible();
    expect(within(screen.getByRole('main')).getByText('01/03/2026 – 15/03/2026')).toBeVisible();
    const split = screen.getByRole('table', { name: 'By company' });
    const acme = within(split).getByText('Acme Foods').closest('tr')!;
    expect(within(acme).getByText('1,120')).toBeInTheDocument();
    expect(within(split).getByText('Total').closest('tr')).toHaveTextContent('1,170');
    const orders = screen.getByRole('table', { name: 'Orders of the statement' });
    expect(within(orders).getByText('ORD0000000012').closest('tr')).toHaveTextContent('-100');
    expect(within(orders).getByText('张伟')).toBeInTheDocument();

    const csv = answer(
      'get',
      '/api/v1/exports/settlements/3/2026-03-01',
      () =>
        new HttpResponse('order_no\n', {
          headers: {
            'Content-Type': 'text/csv; charset=utf-8',
            'Content-Disposition': 'attachment; filename="settlement-SHOP-2026-03-01.csv"',
          },
        }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saveFile).toHaveBeenCalledTimes(1));
    expect(csv).toHaveLength(1);
    expect(saveFile.mock.calls[0]?.[1]).toBe('settlement-SHOP-2026-03-01.csv');

    const pdf = answer(
      'get',
      '/api/v1/settlements/3/2026-03-01/pdf',
      () =>
        new HttpResponse(new Uint8Array([37, 80, 68, 70]), {
          headers: {
            'Content-Type': 'application/pdf',
            'Content-Disposition': 'attachment; filename="settlement-SHOP-2026-03-01.pdf"',
          },
        }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(saveFile).toHaveBeenCalledTimes(2));
    expect(pdf[0]?.query).toEqual({ lang: 'en' });
    expect(saveFile.mock.calls[1]?.[1]).toBe('settlement-SHOP-2026-03-01.pdf');
    expect(saveFile.mock.calls[1]?.[0]).toBeInstanceOf(Blob);
  });

  it('says when a statement cannot be loaded', async () => {
    answer('get', '/api/v1/settlements/3/2026-03-01', () => errorBody(404, 'RECORD_NOT_FOUND'));
    renderApp('/settlements/3/2026-03-01', { user: signedIn('admin') });
    expect(await screen.findByText('This statement could not be loaded.')).toBeVisible();
  });

  it('speaks Chinese, and asks for the PDF in Chinese', async () => {
    await i18n.changeLanguage('zh');
    vi.spyOn(browser, 'saveFile').mockImplementation(() => {});
    openStatement([line()]);
    expect(
      await screen.findByRole('heading', { level: 1, name: '结算单：Campus Shop (SHOP)' }),
    ).toBeVisible();
    expect(within(screen.getByRole('main')).getByText('2026-03-01 – 2026-03-15')).toBeVisible();
    expect(screen.getByRole('table', { name: '按公司' })).toBeVisible();
    const pdf = answer(
      'get',
      '/api/v1/settlements/3/2026-03-01/pdf',
      () =>
        new HttpResponse(new Uint8Array([37]), { headers: { 'Content-Type': 'application/pdf' } }),
    );
    await userEvent.click(screen.getByRole('button', { name: '下载 PDF' }));
    await waitFor(() => expect(pdf[0]?.query).toEqual({ lang: 'zh' }));
  });
});
