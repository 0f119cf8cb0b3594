import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Company, ManagedUser, Role } from '@app/contract';
import { answer, errorBody, listOf, signedIn } from '@/test/api';
import { buildApproval, buildCompany, buildManagedUser } from '@/test/fixtures';
import { locationOf, renderApp } from '@/test/render';
import { server } from '@/test/server';

const acme = buildCompany({
  id: 1,
  code: 'ACME',
  name: 'Acme Corporation',
  monthly_reset_day: 15,
  init_token: 20000,
  init_token_next_month: null,
  employee_monthly_tokens: 300,
  token_balance: 1234567,
});

async function openCompanies(companies: Company[], role: Role = 'admin', path = '/companies') {
  const user = signedIn(role);
  const requests = answer('get', '/api/v1/companies', listOf(companies));
  const view = renderApp(path, { user });
  await screen.findByRole('heading', { level: 1, name: 'Companies' });
  return { ...view, requests };
}

async function rowAction(name: string, action: string | RegExp) {
  await userEvent.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
  const menu = await screen.findByRole('menu');
  await userEvent.click(within(menu).getByRole('menuitem', { name: action }));
}

const dialog = async () => within(await screen.findByRole('dialog'));

async function openCreate() {
  await userEvent.click(screen.getByRole('button', { name: 'Add company' }));
  return dialog();
}

async function replace(field: HTMLElement, value: string) {
  await userEvent.clear(field);
  if (value) await userEvent.type(field, value);
}

describe('Companies', () => {
  it('lists companies with the balance in thousands and the status in colour', async () => {
    const { requests } = await openCompanies([
      acme,
      buildCompany({ name: 'Globex', status: 'inactive', token_balance: 0 }),
    ]);
    const row = (await screen.findByRole('cell', { name: 'Acme Corporation' })).closest('tr')!;
    expect(within(row).getByText('1,234,567')).toBeInTheDocument();
    expect(within(row).getByText('20,000')).toBeInTheDocument();
    expect(within(row).getByText('Active')).toHaveAttribute('data-status', 'active');
    const globex = screen.getByRole('cell', { name: 'Globex' }).closest('tr')!;
    expect(within(globex).getByText('Inactive').className).toContain('bg-destructive');
    expect(requests[0]?.query).toEqual({ page: '1', page_size: '10' });
  });

  it('keeps the search and the status filter in the URL', async () => {
    const { requests, router } = await openCompanies(
      [acme],
      'admin',
      '/companies?status=inactive&search=acme',
    );
    await screen.findByRole('cell', { name: 'Acme Corporation' });
    expect(requests[0]?.query).toEqual({
      page: '1',
      page_size: '10',
      status: 'inactive',
      search: 'acme',
    });
    expect(screen.getByRole('searchbox', { name: 'Search code or name' })).toHaveValue('acme');
    await userEvent.click(screen.getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(locationOf(router)).toBe('/companies'));
  });

  describe('the company modal, creating', () => {
    it.each([
      ['Company code', '', 'Enter a code'],
      ['Company code', 'AB', 'Code must be 3 to 12 characters'],
      ['Company code', 'ABCDEFGHIJKLM', 'Code must be 3 to 12 characters'],
      ['Company code', 'AC-ME', 'Code may contain only letters and numbers'],
      ['Company name', '', 'Enter a name'],
      ['Reset day', '', 'Enter a reset day'],
      ['Reset day', '0', 'Reset day must be between 1 and 31'],
      ['Reset day', '32', 'Reset day must be between 1 and 31'],
      ['Reset day', '1.5', 'Enter a whole number'],
      ['Initial token', '-1', 'Initial token must be at least 0'],
      ['Initial token', '', 'Enter an amount'],
    ])('refuses %s %j with "%s"', async (label, value, message) => {
      await openCompanies([]);
      const posts = answer('post', '/api/v1/companies', {});
      const form = await openCreate();
      await replace(form.getByLabelText(label), value);
      await userEvent.click(form.getByRole('button', { name: 'Create' }));
      const field = form.getByLabelText(label);
      await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
      expect(field).toHaveAccessibleDescription(expect.stringContaining(message));
      expect(posts).toHaveLength(0);
    });

    it('creates a company with numbers, not text, in the body', async () => {
      const { requests } = await openCompanies([]);
      const posts = answer('post', '/api/v1/companies', { data: acme });
      const form = await openCreate();
      await userEvent.type(form.getByLabelText('Company code'), 'ACME');
      await userEvent.type(form.getByLabelText('Company name'), 'Acme Corporation');
      await replace(form.getByLabelText('Reset day'), '15');
      await replace(form.getByLabelText('Initial token'), '20000');
      await replace(form.getByLabelText('Employee monthly tokens'), '300');
      await userEvent.click(form.getByRole('button', { name: 'Create' }));

      expect(await screen.findByText('Acme Corporation created')).toBeInTheDocument();
      // The next step: add its admin, which opens the admin form for that company.
      const next = await screen.findByRole('dialog', { name: 'Acme Corporation is created' });
      answer('get', '/api/v1/companies/admin', listOf([]));
      await userEvent.click(within(next).getByRole('button', { name: 'Add its admin' }));
      const admins = await screen.findByRole('dialog', { name: 'Company admins' });
      expect(
        within(admins).getByRole('heading', { name: 'Add company admin' }),
      ).toBeInTheDocument();
      expect(within(admins).getByLabelText('Username')).toBeInTheDocument();
      expect(posts[0]?.body).toEqual({
        code: 'ACME',
        name: 'Acme Corporation',
        status: 'active',
        monthly_reset_day: 15,
        init_token: 20000,
        employee_monthly_tokens: 300,
      });
      await waitFor(() => expect(requests.length).toBeGreaterThan(1));
    });

    it('shows a taken code on the code field', async () => {
      await openCompanies([]);
      answer('post', '/api/v1/companies', () => errorBody(409, 'COMPANY_CODE_ALREADY_EXISTS'));
      const form = await openCreate();
      await userEvent.type(form.getByLabelText('Company code'), 'ACME');
      await userEvent.type(form.getByLabelText('Company name'), 'Again');
      await userEvent.click(form.getByRole('button', { name: 'Create' }));
      const code = form.getByLabelText('Company code');
      await waitFor(() => expect(code).toHaveAttribute('aria-invalid', 'true'));
      expect(code).toHaveAccessibleDescription(
        expect.stringContaining('Company code already exists'),
      );
    });
  });

  describe('the company modal, editing', () => {
    it('is prefilled; the code cannot change', async () => {
      await openCompanies([{ ...acme, init_token_next_month: 25000 }]);
      await rowAction('Acme Corporation', 'Edit');
      const form = await dialog();
      expect(form.getByRole('heading', { name: 'Edit company' })).toBeInTheDocument();
      expect(form.getByLabelText('Company code')).toHaveValue('ACME');
      expect(form.getByLabelText('Company code')).toBeDisabled();
      expect(form.getByLabelText('Company name')).toHaveValue('Acme Corporation');
      expect(form.getByLabelText('Company name')).toBeEnabled();
      expect(form.getByLabelText('Reset day')).toHaveValue(15);
      expect(form.getByLabelText('Initial token')).toHaveValue(20000);
      expect(form.getByLabelText('Initial token next month')).toHaveValue(25000);
      expect(form.getByRole('combobox', { name: 'Status' })).toHaveTextContent('Active');
    });

    it('saves every field with PUT /companies/{id}, numbers as numbers', async () => {
      await openCompanies([acme]);
      const puts = answer('put', '/api/v1/companies/1', { data: acme });
      await rowAction('Acme Corporation', 'Edit');
      const form = await dialog();
      await replace(form.getByLabelText('Company name'), 'Acme Group');
      await replace(form.getByLabelText('Reset day'), '31');
      await replace(form.getByLabelText('Initial token next month'), '5000');
      await userEvent.click(form.getByRole('combobox', { name: 'Status' }));
      await userEvent.click(await screen.findByRole('option', { name: 'Inactive' }));
      await userEvent.click(form.getByRole('button', { name: 'Save' }));

      expect(await screen.findByText('Acme Corporation updated')).toBeInTheDocument();
      expect(puts[0]?.body).toEqual({
        name: 'Acme Group',
        status: 'inactive',
        monthly_reset_day: 31,
        init_token: 20000,
        init_token_next_month: 5000,
        employee_monthly_tokens: 300,
      });
    });

    it('clears the next month token with an empty box', async () => {
      await openCompanies([{ ...acme, init_token_next_month: 25000 }]);
      const puts = answer('put', '/api/v1/companies/1', { data: acme });
      await rowAction('Acme Corporation', 'Edit');
      const form = await dialog();
      await replace(form.getByLabelText('Initial token next month'), '');
      await userEvent.click(form.getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(puts).toHaveLength(1));
      expect(puts[0]?.body).toMatchObject({ init_token_next_month: null });
    });

    it('checks the same rules as creating', async () => {
      await openCompanies([acme]);
      const puts = answer('put', '/api/v1/companies/1', { data: acme });
      await rowAction('Acme Corporation', 'Edit');
      const form = await dialog();
      await replace(form.getByLabelText('Company name'), '');
      await replace(form.getByLabelText('Reset day'), '40');
      await replace(form.getByLabelText('Initial token next month'), '-5');
      await userEvent.click(form.getByRole('button', { name: 'Save' }));
      expect(await form.findByText('Reset day must be between 1 and 31')).toBeInTheDocument();
      expect(form.getByText('Initial token must be at least 0')).toBeInTheDocument();
      expect(form.getByText('Enter a name')).toBeInTheDocument();
      expect(puts).toHaveLength(0);
    });

    it('closes on cancel without saving', async () => {
      await openCompanies([acme]);
      const puts = answer('put', '/api/v1/companies/1', { data: acme });
      await rowAction('Acme Corporation', 'Edit');
      const form = await dialog();
      await replace(form.getByLabelText('Company name'), 'Changed');
      await userEvent.click(form.getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(puts).toHaveLength(0);
    });
  });

  describe('activate and deactivate', () => {
    it('deactivates after confirming', async () => {
      await openCompanies([acme]);
      const patches = answer('patch', '/api/v1/companies/1/status', { data: acme });
      await rowAction('Acme Corporation', 'Deactivate');
      const confirm = await screen.findByRole('alertdialog', {
        name: 'Deactivate Acme Corporation?',
      });
      // It says what happens to the balance, the employees and their spending.
      expect(confirm).toHaveTextContent(/Acme Corporation holds [\d,]+ tokens\./);
      expect(confirm).toHaveTextContent('its employees cannot spend at merchants');
      expect(confirm).toHaveTextContent('its balance expires and no monthly tokens arrive');
      await userEvent.click(
        within(confirm).getByRole('button', { name: 'Deactivate the company' }),
      );
      expect(await screen.findByText('Acme Corporation deactivated')).toBeInTheDocument();
      expect(patches[0]?.body).toEqual({ status: 'inactive' });
    });

    it('does nothing on cancel', async () => {
      await openCompanies([{ ...acme, status: 'inactive' }]);
      const patches = answer('patch', '/api/v1/companies/1/status', { data: acme });
      await rowAction('Acme Corporation', 'Activate');
      await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
      expect(patches).toHaveLength(0);
    });
  });

  describe('issuing tokens', () => {
    it.each([
      ['', 'Enter an amount'],
      ['0', 'Amount must be greater than 0'],
      ['-10', 'Amount must be greater than 0'],
      ['2.5', 'Enter a whole number'],
    ])('refuses the amount %j with "%s"', async (value, message) => {
      await openCompanies([acme]);
      const posts = answer('post', '/api/v1/tokens/topup-token', {});
      await rowAction('Acme Corporation', 'Issue tokens');
      const form = await dialog();
      if (value) await userEvent.type(form.getByLabelText('Amount'), value);
      await userEvent.click(form.getByRole('button', { name: 'Issue tokens' }));
      expect(await form.findByText(message)).toBeInTheDocument();
      expect(posts).toHaveLength(0);
    });

    it('issues a whole amount to the company and says so', async () => {
      await openCompanies([acme]);
      const posts = answer('post', '/api/v1/tokens/topup-token', {
        data: {
          company_id: 1,
          amount: 5000,
          token_balance: 1239567,
          transaction_id: 1,
          period: '2026-01',
        },
      });
      await rowAction('Acme Corporation', 'Issue tokens');
      const form = await dialog();
      expect(form.getByTestId('balance-now')).toHaveTextContent('1,234,567');
      await userEvent.type(form.getByLabelText('Amount'), '5000');
      expect(form.getByTestId('balance-after')).toHaveTextContent('1,239,567');
      await userEvent.type(form.getByLabelText('Note (optional)'), 'November bonus');
      await userEvent.click(form.getByRole('button', { name: 'Issue tokens' }));

      // The confirm step names the company and the amount; nothing is sent before it.
      const review = within(await form.findByTestId('issue-review'));
      expect(
        review.getByText('5,000 tokens go from the platform to the wallet of Acme Corporation.'),
      ).toBeInTheDocument();
      expect(review.getByTestId('balance-after')).toHaveTextContent('1,239,567');
      expect(posts).toHaveLength(0);
      const confirm = review.getByRole('button', {
        name: 'Issue 5,000 tokens to Acme Corporation',
      });
      expect(confirm).toHaveFocus();
      await userEvent.keyboard('{Enter}');

      expect(
        await screen.findByText('5,000 tokens issued to Acme Corporation'),
      ).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'View' })).toBeInTheDocument();
      expect(posts).toHaveLength(1);
      expect(posts[0]?.body).toEqual({ company_id: 1, amount: 5000, note: 'November bonus' });
      expect(posts[0]?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    });

    it('goes back from the confirm step to the form as it was typed, sending nothing', async () => {
      await openCompanies([acme]);
      const posts = answer('post', '/api/v1/tokens/topup-token', {});
      await rowAction('Acme Corporation', 'Issue tokens');
      const form = await dialog();
      await userEvent.type(form.getByLabelText('Amount'), '700');
      await userEvent.click(form.getByRole('button', { name: 'Issue tokens' }));
      const review = within(await form.findByTestId('issue-review'));
      await userEvent.click(review.getByRole('button', { name: 'Back' }));
      expect(form.getByLabelText('Amount')).toHaveValue(700);
      expect(posts).toHaveLength(0);
    });

    it('resends the same Idempotency-Key on a retry from the same dialog, a new one when reopened', async () => {
      await openCompanies([acme]);
      let calls = 0;
      const posts = answer('post', '/api/v1/tokens/topup-token', () =>
        (calls += 1) === 1
          ? HttpResponse.error()
          : {
              data: {
                company_id: 1,
                amount: 300,
                token_balance: 1234867,
                transaction_id: 1,
                period: '2026-01',
              },
            },
      );
      await rowAction('Acme Corporation', 'Issue tokens');
      const form = await dialog();
      await userEvent.type(form.getByLabelText('Amount'), '300');
      await userEvent.click(form.getByRole('button', { name: 'Issue tokens' }));
      const confirm = await form.findByRole('button', {
        name: 'Issue 300 tokens to Acme Corporation',
      });
      await userEvent.click(confirm);
      expect(await form.findByRole('alert')).toBeInTheDocument();
      await userEvent.click(confirm);
      expect(await screen.findByText('300 tokens issued to Acme Corporation')).toBeInTheDocument();
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

      await rowAction('Acme Corporation', 'Issue tokens');
      const again = await dialog();
      await userEvent.type(again.getByLabelText('Amount'), '300');
      await userEvent.click(again.getByRole('button', { name: 'Issue tokens' }));
      await userEvent.click(
        await again.findByRole('button', { name: 'Issue 300 tokens to Acme Corporation' }),
      );
      await waitFor(() => expect(posts).toHaveLength(3));
      const keys = posts.map((call) => call.headers.get('idempotency-key'));
      expect(keys[1]).toBe(keys[0]);
      expect(keys[2]).not.toBe(keys[0]);
    });

    it('says "sent for approval", not done, when the API holds the top-up for approval (202)', async () => {
      await openCompanies([acme]);
      answer(
        'post',
        '/api/v1/tokens/topup-token',
        HttpResponse.json(
          { data: { approval: buildApproval({ kind: 'top_up', total: 50000 }) } },
          { status: 202 },
        ),
      );
      await rowAction('Acme Corporation', 'Issue tokens');
      const form = await dialog();
      await userEvent.type(form.getByLabelText('Amount'), '50000');
      await userEvent.click(form.getByRole('button', { name: 'Issue tokens' }));
      await userEvent.click(
        await form.findByRole('button', { name: 'Issue 50,000 tokens to Acme Corporation' }),
      );
      expect(
        await screen.findByText(
          'Sent for approval: 50,000 tokens to Acme Corporation. Another admin must approve it.',
        ),
      ).toBeInTheDocument();
      expect(screen.queryByText('50,000 tokens issued to Acme Corporation')).toBeNull();
    });

    it('is for the admin only: Group HR does not get the action', async () => {
      await openCompanies([acme], 'super_hr');
      await userEvent.click(
        await screen.findByRole('button', { name: 'Actions for Acme Corporation' }),
      );
      const menu = await screen.findByRole('menu');
      expect(within(menu).getByRole('menuitem', { name: 'Edit' })).toBeInTheDocument();
      expect(within(menu).queryByRole('menuitem', { name: 'Issue tokens' })).toBeNull();
    });
  });

  describe('the company admin modal', () => {
    const admin: ManagedUser = buildManagedUser({
      user_id: 30,
      username: 'acme.admin',
      email: 'acme.admin@example.com',
      type: 'company_admin',
      company_id: 1,
      company_name: 'Acme Corporation',
    });

    async function openAdmins(admins: ManagedUser[] = [admin]) {
      await openCompanies([acme]);
      const lists = answer('get', '/api/v1/companies/admin', listOf(admins));
      await rowAction('Acme Corporation', 'Company admins');
      const modal = await dialog();
      return { modal, lists };
    }

    it('lists the admins of that company', async () => {
      const { modal, lists } = await openAdmins();
      expect(await modal.findByRole('cell', { name: 'acme.admin' })).toBeInTheDocument();
      expect(lists[0]?.query).toEqual({ company_id: '1', page: '1', page_size: '10' });
    });

    it('creates an admin for the company, checking the rules first', async () => {
      const { modal, lists } = await openAdmins([]);
      expect(await modal.findByText('This company has no admin yet.')).toBeInTheDocument();
      const posts = answer('post', '/api/v1/companies/admin', { data: admin });
      await userEvent.click(modal.getByRole('button', { name: 'Add company admin' }));
      await userEvent.click(modal.getByRole('radio', { name: /Type a password now/ }));
      await userEvent.click(modal.getByRole('button', { name: 'Create' }));
      expect(await modal.findByText('Enter a username')).toBeInTheDocument();
      expect(modal.getByText('Enter an email address')).toBeInTheDocument();

      await userEvent.type(modal.getByLabelText('Username'), 'acme.hr');
      await userEvent.type(modal.getByLabelText('Email'), 'hr@acme.test');
      await userEvent.type(modal.getByLabelText('Password', { exact: true }), 'Secret@2026');
      await userEvent.type(modal.getByLabelText('Confirm password'), 'Secret@2026');
      await userEvent.click(modal.getByRole('button', { name: 'Create' }));

      expect(
        await screen.findByText('acme.hr created as an admin of Acme Corporation'),
      ).toBeInTheDocument();
      expect(posts[0]?.body).toEqual({
        company_id: 1,
        username: 'acme.hr',
        email: 'hr@acme.test',
        password: 'Secret@2026',
        confirm_password: 'Secret@2026',
        status: 'active',
      });
      // Back on the list, which is asked for again.
      expect(await modal.findByRole('button', { name: 'Add company admin' })).toBeInTheDocument();
      await waitFor(() => expect(lists.length).toBeGreaterThan(1));
    });

    it('invites an admin by default and shows the one-time link to hand over', async () => {
      const { modal } = await openAdmins([]);
      const posts: unknown[] = [];
      server.use(
        http.post('/api/v1/companies/admin/invitations', async ({ request }) => {
          posts.push(await request.json());
          return HttpResponse.json(
            {
              data: {
                user: admin,
                url: 'http://localhost/set-password#token=abc',
                expires_at: '2026-01-18T08:00:00.000Z',
                emailed: false,
              },
            },
            { status: 201 },
          );
        }),
      );
      await userEvent.click(await modal.findByRole('button', { name: 'Add company admin' }));
      expect(modal.getByRole('radio', { name: /one-time link/ })).toBeChecked();
      expect(modal.queryByLabelText('Password', { exact: true })).toBeNull();
      await userEvent.type(modal.getByLabelText('Username'), 'acme.hr');
      await userEvent.type(modal.getByLabelText('Email'), 'hr@acme.test');
      await userEvent.click(modal.getByRole('button', { name: 'Create and invite' }));

      expect(await modal.findByLabelText('Set-password link')).toHaveValue(
        'http://localhost/set-password#token=abc',
      );
      expect(modal.getByText(/The link was not emailed/)).toBeInTheDocument();
      expect(posts).toEqual([
        { company_id: 1, username: 'acme.hr', email: 'hr@acme.test', status: 'active' },
      ]);
    });

    it('resends the invitation of an admin without a password and shows the new link', async () => {
      const invited = {
        ...admin,
        invitation: { status: 'pending' as const, expires_at: '2026-02-03T08:00:00.000Z' },
      };
      const { modal } = await openAdmins([invited]);
      expect(await modal.findByText('Invitation pending')).toBeInTheDocument();
      const posts = answer('post', '/api/v1/companies/admin/30/invitations', () =>
        HttpResponse.json(
          {
            data: {
              user: invited,
              url: 'http://localhost/set-password#token=again',
              expires_at: '2026-02-04T08:00:00.000Z',
              emailed: false,
            },
          },
          { status: 201 },
        ),
      );
      await userEvent.click(await modal.findByRole('button', { name: 'Actions for acme.admin' }));
      await userEvent.click(await screen.findByRole('menuitem', { name: 'Resend invitation' }));
      expect(await modal.findByLabelText('Set-password link')).toHaveValue(
        'http://localhost/set-password#token=again',
      );
      expect(modal.getByRole('heading', { name: 'New set-password link' })).toBeInTheDocument();
      expect(modal.getByText(/the previous one no longer works/)).toBeInTheDocument();
      expect(posts).toHaveLength(1);
      await userEvent.click(modal.getByRole('button', { name: 'Done' }));
      expect(await modal.findByRole('button', { name: 'Add company admin' })).toBeInTheDocument();
    });

    it('offers no resend for an admin with a password', async () => {
      const { modal } = await openAdmins();
      await userEvent.click(await modal.findByRole('button', { name: 'Actions for acme.admin' }));
      const menu = await screen.findByRole('menu');
      expect(within(menu).getByRole('menuitem', { name: 'Edit' })).toBeInTheDocument();
      expect(within(menu).queryByRole('menuitem', { name: 'Resend invitation' })).toBeNull();
      expect(modal.queryByText(/^Invitation/)).toBeNull();
    });

    it('edits an admin, prefilled, keeping the password when left empty', async () => {
      const { modal } = await openAdmins();
      const puts = answer('put', '/api/v1/companies/admin/30', { data: admin });
      await userEvent.click(await modal.findByRole('button', { name: 'Actions for acme.admin' }));
      await userEvent.click(await screen.findByRole('menuitem', { name: 'Edit' }));
      expect(await modal.findByLabelText('Username')).toHaveValue('acme.admin');
      expect(modal.getByLabelText('Email')).toHaveValue('acme.admin@example.com');
      await userEvent.click(modal.getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(puts).toHaveLength(1));
      expect(puts[0]?.body).toEqual({
        username: 'acme.admin',
        email: 'acme.admin@example.com',
        status: 'active',
      });
    });

    it('goes back to the list on cancel without saving', async () => {
      const { modal } = await openAdmins();
      const posts = answer('post', '/api/v1/companies/admin', {});
      await userEvent.click(await modal.findByRole('button', { name: 'Add company admin' }));
      await userEvent.click(modal.getByRole('button', { name: 'Cancel' }));
      expect(await modal.findByRole('cell', { name: 'acme.admin' })).toBeInTheDocument();
      expect(posts).toHaveLength(0);
    });

    it('deactivates an admin after confirming', async () => {
      const { modal } = await openAdmins();
      const patches = answer('patch', '/api/v1/companies/admin/30/status', { data: admin });
      await userEvent.click(await modal.findByRole('button', { name: 'Actions for acme.admin' }));
      await userEvent.click(await screen.findByRole('menuitem', { name: 'Deactivate' }));
      const confirm = await screen.findByRole('alertdialog');
      await userEvent.click(within(confirm).getByRole('button', { name: 'Deactivate' }));
      await waitFor(() => expect(patches).toHaveLength(1));
      expect(patches[0]?.body).toEqual({ status: 'inactive' });
    });
  });
});
