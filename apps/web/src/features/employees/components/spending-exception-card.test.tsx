import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Employee, SpendingException } from '@app/contract';
import { i18n } from '@/locales/i18n';
import { answer, errorBody, signedIn } from '@/test/api';
import { buildCompany } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const alice: Employee = {
  id: 11,
  company_id: 1,
  employee_id: 'E0011',
  name: 'Alice Tan',
  email: 'alice@example.com',
  status: 'active',
  available_tokens: 1500,
  consumed_tokens: 2500,
  issued_tokens: 4000,
  token_month: '2026-01',
  monthly_tokens: null,
  has_account: false,
  created_at: '2026-01-31T14:05:00.000Z',
  updated_at: '2026-01-31T14:05:00.000Z',
};

const sundayWorker: SpendingException = {
  employee_id: 11,
  weekdays: [6, 7],
  closed_on_holidays: false,
  daily_limit: 30,
  until: '2026-12-31',
  updated_at: '2026-12-01T08:00:00.000Z',
};

async function openEmployee(exception: SpendingException | null) {
  const user = signedIn('company_admin', { company_id: 1 });
  answer('get', '/api/v1/employees/11', { data: alice });
  answer('get', '/api/v1/companies/1', { data: buildCompany({ id: 1 }) });
  answer('get', '/api/v1/tokens/transactions', { data: [], next_cursor: null });
  const gets = answer('get', '/api/v1/employees/11/spending-exception', { data: exception });
  renderApp('/employees/11', { user });
  const card = await screen.findByRole('region', { name: 'Spending exception' });
  return { card: within(card), gets };
}

const dialog = async () =>
  within(await screen.findByRole('dialog', { name: 'Spending exception of Alice Tan' }));

describe('an employee’s spending exception', () => {
  it('says the company’s rules apply when there is none, and sets one', async () => {
    const { card } = await openEmployee(null);
    expect(
      await card.findByText('No exception: the company’s rules apply.'.replace('’', "'")),
    ).toBeInTheDocument();
    const puts = answer('put', '/api/v1/employees/11/spending-exception', { data: sundayWorker });
    await userEvent.click(card.getByRole('button', { name: 'Set an exception' }));
    const form = await dialog();
    await userEvent.click(form.getByRole('checkbox', { name: "Other days than the company's" }));
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']) {
      await userEvent.click(form.getByRole('checkbox', { name: day }));
    }
    await userEvent.click(form.getByRole('combobox', { name: 'Public holidays' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Also on public holidays' }));
    await userEvent.type(form.getByLabelText('Daily limit (tokens)'), '30');
    await userEvent.type(form.getByLabelText('Until (inclusive)'), '31/12/2026');
    await userEvent.tab();
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]?.body).toEqual({
      weekdays: [6, 7],
      closed_on_holidays: false,
      daily_limit: 30,
      until: '2026-12-31',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await card.findByTestId('spending-exception')).toHaveTextContent(
      'Saturday and Sunday, also on public holidays, at most 30 tokens a day',
    );
    expect(card.getByTestId('spending-exception')).toHaveTextContent(
      'Until Thursday 31 December 2026',
    );
  });

  it('checks the limit with the contract’s message, and leaves the rest as the company’s', async () => {
    const { card } = await openEmployee(null);
    const puts = answer('put', '/api/v1/employees/11/spending-exception', { data: sundayWorker });
    await userEvent.click(await card.findByRole('button', { name: 'Set an exception' }));
    const form = await dialog();
    await userEvent.type(form.getByLabelText('Daily limit (tokens)'), '2.5');
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText('Enter a whole number')).toBeInTheDocument();
    expect(puts).toHaveLength(0);
    await userEvent.clear(form.getByLabelText('Daily limit (tokens)'));
    await userEvent.type(form.getByLabelText('Daily limit (tokens)'), '20');
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]?.body).toEqual({
      weekdays: null,
      closed_on_holidays: null,
      daily_limit: 20,
      until: null,
    });
  });

  it('edits an exception, prefilled, and shows a server error on its field', async () => {
    const { card } = await openEmployee(sundayWorker);
    answer('put', '/api/v1/employees/11/spending-exception', () =>
      errorBody(400, 'BODY_INVALID', { metadata: { until: 'v.date_invalid' } }),
    );
    await userEvent.click(await card.findByRole('button', { name: 'Edit the exception' }));
    const form = await dialog();
    expect(form.getByRole('checkbox', { name: 'Saturday' })).toBeChecked();
    expect(form.getByRole('checkbox', { name: 'Monday' })).not.toBeChecked();
    expect(form.getByLabelText('Daily limit (tokens)')).toHaveValue('30');
    expect(form.getByLabelText('Until (inclusive)')).toHaveValue('31/12/2026');
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText('Enter a valid date (YYYY-MM-DD)')).toBeInTheDocument();
  });

  it('removes the exception only after confirming', async () => {
    const { card } = await openEmployee(sundayWorker);
    const deletes = answer('delete', '/api/v1/employees/11/spending-exception', {
      data: { ok: true },
    });
    await userEvent.click(await card.findByRole('button', { name: 'Remove the exception' }));
    let confirm = await screen.findByRole('alertdialog', { name: 'Remove this exception?' });
    expect(confirm).toHaveTextContent("The company's rules will apply to Alice Tan again.");
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(deletes).toHaveLength(0);
    await userEvent.click(card.getByRole('button', { name: 'Remove the exception' }));
    confirm = await screen.findByRole('alertdialog', { name: 'Remove this exception?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Remove the exception' }));
    await waitFor(() => expect(deletes).toHaveLength(1));
    expect(await card.findByText("No exception: the company's rules apply.")).toBeInTheDocument();
  });

  it('speaks Chinese', async () => {
    await i18n.changeLanguage('zh');
    const user = signedIn('company_admin', { company_id: 1 });
    answer('get', '/api/v1/employees/11', { data: alice });
    answer('get', '/api/v1/companies/1', { data: buildCompany({ id: 1 }) });
    answer('get', '/api/v1/tokens/transactions', { data: [], next_cursor: null });
    answer('get', '/api/v1/employees/11/spending-exception', { data: sundayWorker });
    renderApp('/employees/11', { user });
    const card = within(await screen.findByRole('region', { name: '消费例外' }));
    expect(await card.findByTestId('spending-exception')).toHaveTextContent(
      '周六和周日，公共假日也可用，每天最多 30 代币',
    );
    expect(card.getByTestId('spending-exception')).toHaveTextContent('至 2026年12月31日星期四');
  });
});
