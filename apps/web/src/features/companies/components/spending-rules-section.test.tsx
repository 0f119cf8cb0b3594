import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SpendingRulesView, SpendingRuleVersion } from '@app/contract';
import { i18n } from '@/locales/i18n';
import { answer, errorBody, listOf, signedIn } from '@/test/api';
import { buildCompany } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const version = (overrides: Partial<SpendingRuleVersion>): SpendingRuleVersion => ({
  effective_from: '2026-11-01',
  daily_limit: null,
  order_limit: null,
  weekdays: null,
  hours: null,
  closed_on_holidays: false,
  merchant_categories: null,
  partial_payment: false,
  created_at: '2026-10-20T08:00:00.000Z',
  created_by: 1,
  ...overrides,
});

const lunch = version({
  effective_from: '2026-11-01',
  weekdays: [1, 2, 3, 4, 5],
  hours: [{ from: '11:00', to: '14:30' }],
  daily_limit: 25,
  closed_on_holidays: true,
  merchant_categories: ['restaurant', 'canteen'],
});
const view: SpendingRulesView = {
  current: lunch,
  scheduled: [version({ effective_from: '2026-12-10', order_limit: 40 })],
  history: [version({ effective_from: '2026-10-01', daily_limit: 30 })],
};
const EMPTY: SpendingRulesView = { current: null, scheduled: [], history: [] };

const preview = {
  orders: 1310,
  declined: {
    DAILY_LIMIT_EXCEEDED: { orders: 40, tokens: 900 },
    OUTSIDE_ALLOWED_HOURS: { orders: 2, tokens: 30 },
  },
  employees_affected: 17,
  examples: [],
};

/** The company admin's own rules at /spending-rules. */
async function openRules(answerWith: SpendingRulesView = view) {
  const user = signedIn('company_admin', { company_id: 1 });
  const gets = answer('get', '/api/v1/companies/1/spending-rules', { data: answerWith });
  renderApp('/spending-rules', { user });
  await screen.findByRole('heading', { level: 1, name: 'Spending Rules' });
  return { gets };
}

async function openEditor() {
  await userEvent.click(await screen.findByRole('button', { name: 'New version' }));
  return within(await screen.findByRole('dialog', { name: 'New version of the spending rules' }));
}

async function retype(field: HTMLElement, value: string) {
  await userEvent.clear(field);
  if (value) await userEvent.type(field, value);
}

describe('a company’s spending rules', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-03T10:00:00'));
  });
  afterEach(() => vi.useRealTimers());

  it('says when there is none that any order the balance covers is accepted', async () => {
    await openRules(EMPTY);
    expect(await screen.findByTestId('spending-rules-empty')).toHaveTextContent(
      'No spending rules: any order the balance covers is accepted.',
    );
  });

  it('states the version in force, the scheduled and the earlier ones in plain words', async () => {
    await openRules();
    const current = await screen.findByTestId('rules-current');
    expect(current).toHaveTextContent('Since Sunday 1 November 2026');
    expect(current).toHaveTextContent(
      'Monday to Friday, 11:00 to 14:30, at most 25 tokens a day, not on public holidays, restaurants and canteens',
    );
    const scheduled = screen.getByTestId('rules-scheduled');
    expect(scheduled).toHaveTextContent('From Thursday 10 December 2026');
    expect(scheduled).toHaveTextContent(
      'Every day, at any time, at most 40 tokens an order, at any merchant',
    );
    expect(screen.getByTestId('rules-history')).toHaveTextContent('at most 30 tokens a day');
    // Only a scheduled version can be withdrawn.
    expect(screen.getAllByRole('button', { name: /^Withdraw/ })).toHaveLength(1);
  });

  it('withdraws a scheduled version only after confirming', async () => {
    const { gets } = await openRules();
    const deletes = answer('delete', '/api/v1/companies/1/spending-rules/2026-12-10', {
      data: { ok: true },
    });
    const withdraw = await screen.findByRole('button', {
      name: 'Withdraw the version from Thursday 10 December 2026',
    });
    await userEvent.click(withdraw);
    let confirm = await screen.findByRole('alertdialog', { name: 'Withdraw this version?' });
    expect(confirm).toHaveTextContent(
      'The rules scheduled from Thursday 10 December 2026 will not take effect.',
    );
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(deletes).toHaveLength(0);

    await userEvent.click(withdraw);
    confirm = await screen.findByRole('alertdialog', { name: 'Withdraw this version?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Withdraw' }));
    await waitFor(() => expect(deletes).toHaveLength(1));
    // The list is read again.
    await waitFor(() => expect(gets.length).toBeGreaterThan(1));
  });

  it('checks the form with the contract’s messages before asking for a preview', async () => {
    await openRules(EMPTY);
    const previews = answer('post', '/api/v1/companies/1/spending-rules/preview', {
      data: preview,
    });
    const form = await openEditor();
    for (const day of [
      'Monday',
      'Tuesday',
      'Wednesday',
      'Thursday',
      'Friday',
      'Saturday',
      'Sunday',
    ]) {
      await userEvent.click(form.getByRole('checkbox', { name: day }));
    }
    await retype(form.getByLabelText('Order limit (tokens)'), '0');
    await userEvent.click(form.getByRole('button', { name: 'Add hours' }));
    const window = form.getByRole('group', { name: 'Hours 1' });
    await retype(within(window).getByLabelText('To'), '10:00');
    await retype(form.getByLabelText('Takes effect on'), '01/12/2026');
    await userEvent.tab();
    await userEvent.click(form.getByRole('button', { name: 'Save' }));

    expect(
      await within(form.getByLabelText('Order limit (tokens)').parentElement!).findByText(
        'Amount must be greater than 0',
      ),
    ).toBeInTheDocument();
    expect(form.getByRole('group', { name: 'Days' })).toHaveTextContent('Fill in this field');
    expect(window).toHaveTextContent('The end must be after the start');
    expect(form.getByText(/Choose today or a later date/)).toBeInTheDocument();
    expect(previews).toHaveLength(0);
    // Correcting a field clears its message.
    await retype(form.getByLabelText('Order limit (tokens)'), '40');
    expect(form.queryByText('Amount must be greater than 0')).not.toBeInTheDocument();
    expect(window).toHaveTextContent('The end must be after the start');
  });

  it('previews the impact, then saves on Confirm and shows the version scheduled', async () => {
    await openRules(EMPTY);
    const previews = answer('post', '/api/v1/companies/1/spending-rules/preview', {
      data: preview,
    });
    const saved = {
      current: null,
      scheduled: [
        version({
          effective_from: '2026-12-04',
          daily_limit: 25,
          weekdays: [1, 2, 3, 4, 5],
          merchant_categories: ['restaurant', 'canteen'],
          hours: [{ from: '11:00', to: '14:30' }],
        }),
      ],
      history: [],
    };
    const puts = answer('put', '/api/v1/companies/1/spending-rules', { data: saved });
    const form = await openEditor();
    // Tomorrow by default.
    expect(form.getByLabelText('Takes effect on')).toHaveValue('04/12/2026');
    await retype(form.getByLabelText('Daily limit (tokens)'), '25');
    await userEvent.click(form.getByRole('checkbox', { name: 'Saturday' }));
    await userEvent.click(form.getByRole('checkbox', { name: 'Sunday' }));
    await userEvent.click(form.getByRole('button', { name: 'Add hours' }));
    const window = form.getByRole('group', { name: 'Hours 1' });
    await retype(within(window).getByLabelText('To'), '14:30');
    for (const category of ['Café', 'Bakery', 'Grocery', 'Other']) {
      await userEvent.click(form.getByRole('checkbox', { name: category }));
    }
    await userEvent.click(form.getByRole('button', { name: 'Save' }));

    expect(await form.findByTestId('preview-impact')).toHaveTextContent(
      '42 of 1,310 orders of the last 30 days would have been declined: daily limit 40, hours 2',
    );
    expect(form.getByTestId('preview-employees')).toHaveTextContent(
      '17 employees would have been affected.',
    );
    expect(form.getByTestId('spending-rules-preview')).toHaveTextContent(
      'From Friday 4 December 2026, Monday to Friday, 11:00 to 14:30, at most 25 tokens a day, restaurants and canteens',
    );
    expect(previews[0]?.body).toEqual({
      rules: {
        daily_limit: 25,
        order_limit: null,
        weekdays: [1, 2, 3, 4, 5],
        hours: [{ from: '11:00', to: '14:30' }],
        closed_on_holidays: false,
        merchant_categories: ['restaurant', 'canteen'],
        partial_payment: false,
      },
    });
    expect(puts).toHaveLength(0);

    await userEvent.click(form.getByRole('button', { name: 'Confirm and save' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]?.body).toEqual({
      effective_from: '2026-12-04',
      ...(previews[0]?.body as { rules: object }).rules,
    });
    // Money-free: no Idempotency-Key is needed.
    expect(puts[0]?.headers.get('idempotency-key')).toBeNull();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByTestId('rules-scheduled')).toHaveTextContent(
      'From Friday 4 December 2026',
    );
  });

  it('puts the server’s field errors back on the form', async () => {
    await openRules(EMPTY);
    answer('post', '/api/v1/companies/1/spending-rules/preview', { data: preview });
    answer('put', '/api/v1/companies/1/spending-rules', () =>
      errorBody(400, 'BODY_INVALID', { metadata: { effective_from: 'v.effective_from_past' } }),
    );
    const form = await openEditor();
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByTestId('preview-impact')).toBeInTheDocument();
    await userEvent.click(form.getByRole('button', { name: 'Confirm and save' }));
    expect(
      await form.findByText('Choose today or a later date: a new version cannot change the past'),
    ).toBeInTheDocument();
    expect(form.getByLabelText('Takes effect on')).toHaveAttribute('aria-invalid', 'true');
  });

  it('speaks Chinese', async () => {
    await i18n.changeLanguage('zh');
    const user = signedIn('company_admin', { company_id: 1 });
    answer('get', '/api/v1/companies/1/spending-rules', { data: view });
    renderApp('/spending-rules', { user });
    const current = await screen.findByTestId('rules-current');
    expect(current).toHaveTextContent(
      '周一至周五，11:00 至 14:30，每天最多 25 代币，公共假日不可用，餐厅和食堂',
    );
    expect(screen.getByTestId('rules-scheduled')).toHaveTextContent('2026年12月10日星期四 起生效');
  });

  it('is on a company’s page for the admin', async () => {
    const user = signedIn('admin');
    answer('get', '/api/v1/companies/1', { data: buildCompany({ id: 1, name: 'Acme' }) });
    answer('get', '/api/v1/tokens/transactions', { data: [], next_cursor: null });
    answer('get', '/api/v1/companies/1/spending-rules', { data: view });
    renderApp('/companies/1', { user });
    const section = await screen.findByRole('region', { name: 'Spending rules' });
    expect(await within(section).findByTestId('rules-current')).toHaveTextContent(
      'Monday to Friday',
    );
    expect(within(section).getByRole('button', { name: 'New version' })).toBeEnabled();
  });

  it('lets Group HR choose the company on /spending-rules, kept in the address', async () => {
    const user = signedIn('super_hr');
    answer(
      'get',
      '/api/v1/companies',
      listOf([buildCompany({ id: 1, name: 'Acme', code: 'ACME' })]),
    );
    const gets = answer('get', '/api/v1/companies/1/spending-rules', { data: view });
    const { router } = renderApp('/spending-rules', { user });
    expect(
      await screen.findByText('Choose a company to see its rules.', { selector: 'p' }),
    ).toBeInTheDocument();
    expect(gets).toHaveLength(0);
    await userEvent.click(screen.getByRole('combobox', { name: 'Company' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Acme (ACME)' }));
    expect(await screen.findByTestId('rules-current')).toHaveTextContent('Monday to Friday');
    expect(router.state.location.search).toBe('?company_id=1');
    // Group HR manages rules too.
    expect(screen.getByRole('button', { name: 'New version' })).toBeInTheDocument();
  });
});
