import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Employee, EmployeeAccount } from '@app/contract';
import { HttpResponse } from 'msw';
import { i18n } from '@/locales/i18n';
import { answer, errorBody, listOf, signedIn } from '@/test/api';
import { buildCompany } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const employee = (overrides: Partial<Employee> = {}): Employee => ({
  id: 11,
  company_id: 1,
  employee_id: 'E0011',
  name: 'Alice Tan',
  email: null,
  status: 'active',
  available_tokens: 0,
  consumed_tokens: 0,
  issued_tokens: 0,
  token_month: '2026-01',
  monthly_tokens: null,
  has_account: false,
  created_at: '2026-01-31T14:05:00.000Z',
  updated_at: '2026-01-31T14:05:00.000Z',
  ...overrides,
});

const account: EmployeeAccount = {
  user_id: 90,
  username: 'alice.tan',
  type: 'company_employee',
  status: 'active',
  company_id: 1,
  employee: 11,
  employee_id: 'E0011',
  created_at: '2026-01-31T14:05:00.000Z',
};

async function openEmployees(list: Employee[]) {
  const user = signedIn('company_admin', { company_id: 1 });
  answer('get', '/api/v1/employees', listOf(list));
  answer('get', '/api/v1/companies/1', { data: buildCompany({ id: 1 }) });
  renderApp('/employees?status=active', { user });
  await screen.findByRole('heading', { level: 1 });
}

async function openRowMenu(name: string) {
  await userEvent.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
  return within(await screen.findByRole('menu'));
}

async function type(form: ReturnType<typeof within>, label: string, value: string) {
  await userEvent.click(form.getByLabelText(label));
  await userEvent.paste(value);
}

describe('Give a sign-in', () => {
  it('creates the employee’s sign-in, a taken username on its field and a second sign-in refused', async () => {
    await openEmployees([employee(), employee({ id: 12, name: 'Bob Lim', has_account: true })]);
    let attempt = 0;
    const posts = answer('post', '/api/v1/employees/11/account', () => {
      attempt += 1;
      if (attempt === 1) return errorBody(409, 'USERNAME_EXISTS');
      if (attempt === 2) return errorBody(409, 'EMPLOYEE_ACCOUNT_EXISTS');
      return HttpResponse.json({ data: account }, { status: 201 });
    });

    // Bob has one already: not offered.
    const bobMenu = await openRowMenu('Bob Lim');
    expect(bobMenu.queryByRole('menuitem', { name: 'Give a sign-in' })).toBeNull();
    await userEvent.keyboard('{Escape}');

    await userEvent.click(
      (await openRowMenu('Alice Tan')).getByRole('menuitem', { name: 'Give a sign-in' }),
    );
    const form = within(await screen.findByRole('dialog', { name: 'Give a sign-in' }));
    expect(form.getByLabelText('Employee ID')).toHaveValue('E0011');
    expect(form.getByLabelText('Username')).toHaveFocus();

    await type(form, 'Username', 'alice.tan');
    await type(form, 'Password', 'Str0ng!Pass');
    await type(form, 'Confirm password', 'Str0ng!Pas');
    await userEvent.click(form.getByRole('button', { name: 'Give a sign-in' }));
    expect(await form.findByText('Passwords must match')).toBeInTheDocument();
    expect(posts).toHaveLength(0);

    await userEvent.type(form.getByLabelText('Confirm password'), 's');
    await userEvent.click(form.getByRole('button', { name: 'Give a sign-in' }));
    await waitFor(() =>
      expect(form.getByLabelText('Username')).toHaveAccessibleDescription(
        expect.stringContaining('Username already exists'),
      ),
    );
    expect(posts[0]?.body).toEqual({
      username: 'alice.tan',
      password: 'Str0ng!Pass',
      confirm_password: 'Str0ng!Pass',
    });

    await userEvent.click(form.getByRole('button', { name: 'Give a sign-in' }));
    expect(await screen.findByText('This employee already has a sign-in')).toBeInTheDocument();

    await userEvent.click(form.getByRole('button', { name: 'Give a sign-in' }));
    expect(await screen.findByText('Alice Tan can now sign in as alice.tan.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('speaks Chinese', async () => {
    await i18n.changeLanguage('zh');
    await openEmployees([employee()]);
    await userEvent.click(await screen.findByRole('button', { name: /Alice Tan/ }));
    await userEvent.click(
      within(await screen.findByRole('menu')).getByRole('menuitem', { name: '开通登录' }),
    );
    const form = within(await screen.findByRole('dialog', { name: '开通登录' }));
    expect(form.getByText(/Alice Tan 将使用此用户名和密码登录/)).toBeInTheDocument();
    await userEvent.click(form.getByRole('button', { name: '开通登录' }));
    expect(await form.findByText('请输入用户名')).toBeInTheDocument();
  });
});
