import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Employee } from '@app/contract';
import { http, HttpResponse } from 'msw';
import { i18n } from '@/locales/i18n';
import { answer, errorBody, listOf, signedIn } from '@/test/api';
import { buildApproval, buildCompany } from '@/test/fixtures';
import { locationOf, renderApp } from '@/test/render';
import { server } from '@/test/server';

const buildEmployee = (overrides: Partial<Employee> = {}): Employee => ({
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
  ...overrides,
});

const alice = buildEmployee();
const bob = buildEmployee({ id: 12, employee_id: 'E0012', name: 'Bob Lim', email: null });

async function openEmployees(employees: Employee[], path = '/employees?status=active') {
  const user = signedIn('company_admin', { company_id: 1 });
  const requests = answer('get', '/api/v1/employees', listOf(employees));
  answer('get', '/api/v1/companies/1', { data: buildCompany({ id: 1, token_balance: 1000 }) });
  const view = renderApp(path, { user });
  await screen.findByRole('heading', { level: 1, name: 'Employees' });
  return { ...view, requests };
}

async function rowAction(name: string, action: string) {
  await userEvent.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
  await userEvent.click(
    within(await screen.findByRole('menu')).getByRole('menuitem', { name: action }),
  );
}

async function openCreate() {
  await userEvent.click(screen.getByRole('button', { name: 'Add employee' }));
  return within(await screen.findByRole('dialog', { name: 'Add employee' }));
}

async function fill(form: ReturnType<typeof within>, label: string, value: string) {
  const input = form.getByLabelText(label);
  await userEvent.clear(input);
  if (value) {
    await userEvent.click(input);
    await userEvent.paste(value);
  }
}

describe('Employees', () => {
  it('lists the employees with their tokens, filtered by the status in the URL', async () => {
    const { requests, router } = await openEmployees([alice]);
    const row = (await screen.findByRole('cell', { name: 'Alice Tan' })).closest('tr')!;
    expect(within(row).getByText('E0011')).toBeInTheDocument();
    expect(within(row).getByText('alice@example.com')).toBeInTheDocument();
    expect(within(row).getByText('Active')).toHaveAttribute('data-status', 'active');
    expect(within(row).getByText('1,500')).toBeInTheDocument();
    expect(within(row).getByText('2,500')).toBeInTheDocument();
    expect(within(row).getByText('4,000')).toBeInTheDocument();
    expect(within(row).getByText('2026-01')).toBeInTheDocument();
    expect(requests[0]?.query).toEqual({ page: '1', page_size: '10', status: 'active' });

    await userEvent.type(
      screen.getByRole('searchbox', { name: 'Search employee ID, name or email' }),
      'ali{Enter}',
    );
    await waitFor(() => expect(locationOf(router)).toBe('/employees?search=ali&status=active'));
    await waitFor(() =>
      expect(requests.at(-1)?.query).toEqual({
        page: '1',
        page_size: '10',
        status: 'active',
        search: 'ali',
      }),
    );
  });

  it.each([
    ['Employee ID', '', 'Enter an employee ID'],
    ['Employee ID', 'E', 'Employee ID must be at least 2 characters'],
    ['Employee ID', 'E'.repeat(51), 'Employee ID must be at most 50 characters'],
    ['Email (optional)', 'not-an-email', 'Enter a valid email address'],
  ])('refuses %s %j with "%s"', async (label, value, message) => {
    await openEmployees([]);
    const posts = answer('post', '/api/v1/employees', {});
    const form = await openCreate();
    if (label !== 'Employee ID') await fill(form, 'Employee ID', 'E0100');
    await fill(form, label, value);
    await userEvent.click(form.getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(form.getByLabelText(label)).toHaveAccessibleDescription(
        expect.stringContaining(message),
      ),
    );
    expect(posts).toHaveLength(0);
  });

  it('creates an employee and shows a taken email on its field and by the display rule', async () => {
    await openEmployees([]);
    let attempt = 0;
    const posts = answer('post', '/api/v1/employees', () => {
      attempt += 1;
      return attempt === 1
        ? errorBody(409, 'EMAIL_EXISTING_IN_OTHER_COMPANY')
        : new Response(JSON.stringify({ data: alice }), {
            status: 201,
            headers: { 'Content-Type': 'application/json' },
          });
    });
    const form = await openCreate();
    expect(form.getByLabelText('Employee ID')).toHaveValue('');
    await fill(form, 'Employee ID', 'E0011');
    await fill(form, 'Email (optional)', 'alice@example.com');
    await userEvent.click(form.getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(form.getByLabelText('Email (optional)')).toHaveAccessibleDescription(
        expect.stringContaining('Email already exists in another company'),
      ),
    );
    // The field message and the toast of the display rule.
    expect(await screen.findAllByText('Email already exists in another company')).toHaveLength(2);
    expect(posts[0]?.body).toEqual({
      employee_id: 'E0011',
      email: 'alice@example.com',
      status: 'active',
    });

    await fill(form, 'Email (optional)', '');
    await fill(form, 'Name', 'Alice Tan');
    await userEvent.click(form.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Alice Tan (E0011) added')).toBeInTheDocument();
    expect(posts[1]?.body).toEqual({ employee_id: 'E0011', name: 'Alice Tan', status: 'active' });
  });

  it('puts a taken employee ID on its field', async () => {
    await openEmployees([]);
    answer('post', '/api/v1/employees', errorBody(409, 'EMPLOYEE_ID_EXISTING_IN_THIS_COMPANY'));
    const form = await openCreate();
    await fill(form, 'Employee ID', 'E0011');
    await userEvent.click(form.getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(form.getByLabelText('Employee ID')).toHaveAccessibleDescription(
        expect.stringContaining('Employee ID already exists in this company'),
      ),
    );
  });

  it('edits an employee: prefilled, and a cleared email is sent as null', async () => {
    await openEmployees([alice]);
    const puts = answer('put', '/api/v1/employees/11', { data: alice });
    await rowAction('Alice Tan', 'Edit');
    const form = within(await screen.findByRole('dialog', { name: 'Edit employee' }));
    expect(form.getByLabelText('Employee ID')).toHaveValue('E0011');
    expect(form.getByLabelText('Name')).toHaveValue('Alice Tan');
    expect(form.getByLabelText('Email (optional)')).toHaveValue('alice@example.com');
    await fill(form, 'Employee ID', 'E');
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText('Employee ID must be at least 2 characters')).toBeInTheDocument();
    expect(puts).toHaveLength(0);

    await fill(form, 'Employee ID', 'E0099');
    await fill(form, 'Email (optional)', '');
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Alice Tan (E0011) updated')).toBeInTheDocument();
    expect(puts[0]?.body).toEqual({
      employee_id: 'E0099',
      name: 'Alice Tan',
      email: null,
      status: 'active',
    });
  });

  it('deactivates after confirming and does nothing on cancel', async () => {
    await openEmployees([alice]);
    const patches = answer('patch', '/api/v1/employees/11/status', { data: alice });
    await rowAction('Alice Tan', 'Deactivate');
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(patches).toHaveLength(0);

    await rowAction('Alice Tan', 'Deactivate');
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm).toHaveTextContent('Are you sure you want to deactivate Alice Tan?');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText('Deactivated successfully.')).toBeInTheDocument();
    expect(patches).toHaveLength(1);
    expect(patches[0]?.body).toEqual({ status: 'inactive' });
  });

  it('deletes an employee only after confirming', async () => {
    await openEmployees([alice]);
    const deletes = answer('delete', '/api/v1/employees/11', { data: { ok: true } });
    await rowAction('Alice Tan', 'Delete');
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(deletes).toHaveLength(0);

    await rowAction('Alice Tan', 'Delete');
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete' });
    expect(confirm).toHaveTextContent('Are you sure you want to delete Alice Tan?');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Deleted successfully.')).toBeInTheDocument();
    expect(deletes).toHaveLength(1);
  });

  it('rewards the selected employees one amount with an override, after a review', async () => {
    await openEmployees([alice, bob]);
    const posts = answer('post', '/api/v1/tokens/topup-token/employees', {
      data: { company_id: 1, total: 1000, token_balance: 0, items: [] },
    });
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select Alice Tan' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Bob Lim' }));
    await userEvent.click(screen.getByRole('button', { name: 'Reward tokens (2)' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Reward tokens' }));
    await waitFor(() => expect(dialog.getByTestId('reward-balance')).toHaveTextContent('1,000'));
    expect(dialog.getByRole('radio', { name: 'The 2 selected employees' })).toBeChecked();

    await fill(dialog, 'Amount for everyone', '600');
    expect(dialog.getByTestId('reward-total')).toHaveTextContent('1,200');
    expect(dialog.getByTestId('reward-balance-after')).toHaveTextContent('-200');
    expect(dialog.getByRole('alert')).toHaveTextContent('Total tokens exceed available limit!');
    const review = dialog.getByRole('button', { name: 'Review' });
    expect(review).toBeDisabled();

    await userEvent.click(dialog.getByRole('button', { name: 'Change the amount for Bob Lim' }));
    await fill(dialog, 'Amount for Bob Lim', '400');
    expect(dialog.getByTestId('reward-total')).toHaveTextContent('1,000');
    expect(dialog.getByTestId('reward-balance-after')).toHaveTextContent('0');
    expect(dialog.queryByRole('alert')).toBeNull();
    await userEvent.click(review);

    const summary = within(await dialog.findByTestId('reward-review'));
    expect(summary.getByTestId('reward-people')).toHaveTextContent('2');
    expect(summary.getByTestId('reward-total')).toHaveTextContent('1,000');
    expect(summary.getByTestId('reward-balance-after')).toHaveTextContent('0');
    expect(posts).toHaveLength(0);
    // A double-click on the final button: whatever reaches the server carries the dialog's one key.
    await userEvent.dblClick(
      summary.getByRole('button', { name: 'Reward 1,000 tokens to 2 employees' }),
    );
    expect(await screen.findByText('1,000 tokens rewarded to 2 employees')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'View' })).toBeInTheDocument();
    expect(posts[0]?.body).toEqual({
      items: [
        { employee_id: 11, amount: 600 },
        { employee_id: 12, amount: 400 },
      ],
    });
    const keys = new Set(posts.map((call) => call.headers.get('idempotency-key')));
    expect([...keys]).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/)]);
  });

  it('refuses an empty or zero amount in the reward dialog', async () => {
    await openEmployees([alice]);
    const posts = answer('post', '/api/v1/tokens/topup-token/employees', {});
    await userEvent.click(
      await screen.findByRole('checkbox', { name: 'Select all rows on this page' }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Reward tokens (1)' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Reward tokens' }));
    await waitFor(() => expect(dialog.getByTestId('reward-balance')).toHaveTextContent('1,000'));
    await userEvent.click(dialog.getByRole('button', { name: 'Review' }));
    expect(await dialog.findByText('Enter an amount')).toBeInTheDocument();
    await fill(dialog, 'Amount for everyone', '0');
    await userEvent.click(dialog.getByRole('button', { name: 'Review' }));
    expect(await dialog.findByText('Amount must be greater than 0')).toBeInTheDocument();
    expect(dialog.queryByTestId('reward-review')).toBeNull();
    expect(posts).toHaveLength(0);
  });

  it('rewards the amounts of a CSV file, previewed on the server, leaving invalid rows out', async () => {
    await openEmployees([alice, bob]);
    const previews: string[] = [];
    const previewBody = {
      data: {
        rows: [
          {
            line: 2,
            id: 11,
            employee_id: 'E0011',
            name: 'Alice Tan',
            amount: 150,
            amount_text: '150',
            action: 'reward',
          },
          {
            line: 3,
            id: null,
            employee_id: 'E0099',
            name: null,
            amount: 5,
            amount_text: '5',
            action: 'invalid',
            errors: { employee_id: 'v.employee_not_found' },
          },
        ],
        summary: { people: 1, invalid: 1, total: 150, balance: 1000, balance_after: 850 },
      },
    };
    server.use(
      http.post('/api/v1/tokens/topup-token/employees/preview', async ({ request }) => {
        const file = (await request.formData()).get('file');
        if (file && typeof file !== 'string') previews.push(await file.text());
        return HttpResponse.json(previewBody);
      }),
    );
    const posts = answer('post', '/api/v1/tokens/topup-token/employees', {
      data: { company_id: 1, total: 150, token_balance: 850, items: [] },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Reward tokens' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Reward tokens' }));
    expect(
      dialog.getByRole('radio', { name: 'Employees and amounts from a CSV file' }),
    ).toBeChecked();
    await userEvent.click(dialog.getByRole('button', { name: 'Preview' }));
    expect(await dialog.findByText('Choose a file')).toBeInTheDocument();
    await userEvent.upload(
      dialog.getByLabelText('CSV file'),
      new File(['employee_id,amount\nE0011,150\nE0099,5\n'], 'rewards.csv', { type: 'text/csv' }),
    );
    await userEvent.click(dialog.getByRole('button', { name: 'Preview' }));
    const invalid = (await dialog.findByText('E0099')).closest('tr')!;
    expect(invalid).toHaveTextContent(
      'employee_id: Enter the Employee ID of an employee of this company',
    );
    expect(previews).toEqual(['employee_id,amount\nE0011,150\nE0099,5\n']);
    expect(dialog.getByTestId('reward-balance-after')).toHaveTextContent('850');
    await userEvent.click(dialog.getByRole('button', { name: 'Review' }));
    await userEvent.click(
      await dialog.findByRole('button', { name: 'Reward 150 tokens to 1 employee' }),
    );
    expect(await screen.findByText('150 tokens rewarded to Alice Tan (E0011)')).toBeInTheDocument();
    expect(posts[0]?.body).toEqual({ items: [{ employee_id: 11, amount: 150 }] });
  });

  it('speaks Chinese: the labels and the validation messages', async () => {
    await i18n.changeLanguage('zh');
    answer('get', '/api/v1/employees', listOf([]));
    answer('get', '/api/v1/companies/1', { data: buildCompany({ id: 1 }) });
    renderApp('/employees', { user: signedIn('company_admin', { company_id: 1 }) });
    expect(await screen.findByRole('heading', { level: 1, name: '员工' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '添加员工' }));
    const form = within(await screen.findByRole('dialog', { name: '添加员工' }));
    await fill(form, '员工编号', 'E');
    await userEvent.click(form.getByRole('button', { name: '创建' }));
    expect(await form.findByText('员工编号至少 2 个字符')).toBeInTheDocument();
  });

  it('says "sent for approval", not rewarded, when the API holds the distribution (202)', async () => {
    await openEmployees([alice, bob]);
    answer(
      'post',
      '/api/v1/tokens/topup-token/employees',
      HttpResponse.json(
        { data: { approval: buildApproval({ total: 200, can_decide: false }) } },
        { status: 202 },
      ),
    );
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select Alice Tan' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Bob Lim' }));
    await userEvent.click(screen.getByRole('button', { name: 'Reward tokens (2)' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Reward tokens' }));
    await waitFor(() => expect(dialog.getByTestId('reward-balance')).toHaveTextContent('1,000'));
    await fill(dialog, 'Amount for everyone', '100');
    await userEvent.click(dialog.getByRole('button', { name: 'Review' }));
    const summary = within(await dialog.findByTestId('reward-review'));
    await userEvent.click(
      summary.getByRole('button', { name: 'Reward 200 tokens to 2 employees' }),
    );
    expect(
      await screen.findByText(
        'Sent for approval: 200 tokens to 2 employees. Another person must approve it.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText('200 tokens rewarded to 2 employees')).toBeNull();
  });
});
