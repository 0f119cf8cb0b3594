import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { ManagedUser } from '@app/contract';
import { i18n } from '@/locales/i18n';
import { answer, errorBody, listOf, signedIn } from '@/test/api';
import { buildManagedUser, buildMerchant } from '@/test/fixtures';
import { locationOf, renderApp } from '@/test/render';

const shop = buildMerchant({ id: 1, code: 'SHOP', name: 'Campus Shop' });

function serveUsers(users: ManagedUser[]) {
  answer('get', '/api/v1/merchants', listOf([shop]));
  return answer('get', '/api/v1/users', listOf(users));
}

async function openUsers(users: ManagedUser[], path = '/user') {
  const admin = signedIn('admin', { user_id: 1, username: 'admin' });
  const requests = serveUsers(users);
  const view = renderApp(path, { user: admin });
  await screen.findByRole('heading', { level: 1, name: 'User Management' });
  return { ...view, requests };
}

const dialog = () => screen.findByRole('dialog');

/** The user modal on create, set to type the password now (an invitation is the default). */
async function openCreate() {
  await userEvent.click(screen.getByRole('button', { name: 'Add user' }));
  const form = within(await dialog());
  await userEvent.click(form.getByRole('radio', { name: /Type a password now/ }));
  return form;
}

async function chooseOption(trigger: HTMLElement, name: string) {
  await userEvent.click(trigger);
  await userEvent.click(await screen.findByRole('option', { name }));
}

async function rowActions(name: string) {
  await userEvent.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
  return screen.findByRole('menu');
}

describe('User Management', () => {
  it('lists users with their type, merchant, status badge and creation date', async () => {
    await openUsers([
      buildManagedUser({ username: 'grouphr', type: 'super_hr' }),
      buildManagedUser({
        username: 'shop.staff',
        type: 'merchant_staff',
        merchant_id: 1,
        merchant_name: 'Campus Shop',
        status: 'inactive',
        created_at: '2026-01-31T14:05:00.000Z',
      }),
    ]);
    const row = (await screen.findByRole('cell', { name: 'shop.staff' })).closest('tr')!;
    expect(within(row).getByText('Merchant Staff')).toBeInTheDocument();
    expect(within(row).getByText('Campus Shop')).toBeInTheDocument();
    expect(within(row).getByText('Inactive')).toHaveAttribute('data-status', 'inactive');
    expect(within(row).getByText('Inactive').className).toContain('bg-destructive');
    expect(within(row).getByText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/)).toBeInTheDocument();
    const hr = screen.getByRole('cell', { name: 'grouphr' }).closest('tr')!;
    expect(within(hr).getByText('Active').className).toContain('bg-success');
  });

  it('sends the filters of a shared link: type (repeated), status, merchant and search', async () => {
    const { requests } = await openUsers(
      [],
      '/user?type=merchant_admin&type=merchant_staff&status=active&merchant_id=1&search=shop&page_size=20',
    );
    await screen.findByText('No results.');
    expect(requests.at(-1)?.query).toEqual({
      page: '1',
      page_size: '20',
      type: ['merchant_admin', 'merchant_staff'],
      status: 'active',
      merchant_id: '1',
      search: 'shop',
    });
    expect(screen.getByRole('button', { name: /^Merchant/ })).toHaveTextContent(
      'Campus Shop (SHOP)',
    );
  });

  describe('the user modal, creating', () => {
    it('says what is missing when submitted empty, and sends nothing', async () => {
      await openUsers([]);
      const posts = answer('post', '/api/v1/users', {});
      const form = await openCreate();
      await userEvent.click(form.getByRole('button', { name: 'Create' }));
      expect(await form.findByText('Enter a username')).toBeInTheDocument();
      expect(form.getByText('Enter an email address')).toBeInTheDocument();
      expect(form.getByText('Enter a password')).toBeInTheDocument();
      expect(form.getByText('Choose a user type')).toBeInTheDocument();
      expect(posts).toHaveLength(0);
    });

    it.each([
      ['Username', 'ab', 'Username must be 3 to 20 characters'],
      ['Username', 'a'.repeat(21), 'Username must be 3 to 20 characters'],
      ['Username', 'bad name!', 'Username may contain only letters, numbers, underscores and dots'],
      ['Email', 'not-an-email', 'Enter a valid email address'],
      ['Password', 'Sh0rt!', 'Password must be 8 to 32 characters'],
      ['Password', 'lowercase1!', 'Password must contain an upper-case letter'],
      ['Password', 'UPPERCASE1!', 'Password must contain a lower-case letter'],
      ['Password', 'NoDigitsHere!', 'Password must contain a digit'],
      ['Password', 'NoSpecial123', 'Password must contain a special character'],
    ])('refuses %s %j with "%s"', async (label, value, message) => {
      await openUsers([]);
      const form = await openCreate();
      await userEvent.type(form.getByLabelText(label, { exact: true }), value);
      await userEvent.click(form.getByRole('button', { name: 'Create' }));
      expect(await form.findByText(message)).toBeInTheDocument();
    });

    it('requires the passwords to match', async () => {
      await openUsers([]);
      const form = await openCreate();
      await userEvent.type(form.getByLabelText('Password', { exact: true }), 'Secret@2026');
      await userEvent.type(form.getByLabelText('Confirm password'), 'Secret@2027');
      await userEvent.click(form.getByRole('button', { name: 'Create' }));
      expect(await form.findByText('Passwords must match')).toBeInTheDocument();
    });

    it('asks for the merchant of a merchant user', async () => {
      const warnings = vi.spyOn(console, 'warn');
      const errors = vi.spyOn(console, 'error');
      await openUsers([]);
      const form = await openCreate();
      expect(form.queryByRole('combobox', { name: 'Merchant' })).not.toBeInTheDocument();
      expect(form.getByRole('combobox', { name: 'User type' })).toHaveTextContent('Select');
      await chooseOption(form.getByRole('combobox', { name: 'User type' }), 'Merchant Admin');
      await userEvent.click(form.getByRole('button', { name: 'Create' }));
      expect(await form.findByText('Choose a merchant')).toBeInTheDocument();
      // The selects are controlled from their first render: choosing a type or a merchant makes
      // no "changing from uncontrolled to controlled" warning.
      const said = [...warnings.mock.calls, ...errors.mock.calls].map((call) => String(call[0]));
      expect(said.filter((text) => /uncontrolled/i.test(text))).toEqual([]);
    });

    it('creates a Group HR user with exactly the fields of the contract', async () => {
      const { requests } = await openUsers([]);
      const posts = answer('post', '/api/v1/users', { data: buildManagedUser() });
      const form = await openCreate();
      await userEvent.type(form.getByLabelText('Username'), 'new.hr');
      await userEvent.type(form.getByLabelText('Email'), 'new.hr@example.com');
      await userEvent.type(form.getByLabelText('Password', { exact: true }), 'Secret@2026');
      await userEvent.type(form.getByLabelText('Confirm password'), 'Secret@2026');
      await chooseOption(form.getByRole('combobox', { name: 'User type' }), 'Group HR');
      await userEvent.click(form.getByRole('button', { name: 'Create' }));

      expect(await screen.findByText('new.hr created')).toBeInTheDocument();
      expect(posts[0]?.body).toEqual({
        username: 'new.hr',
        email: 'new.hr@example.com',
        password: 'Secret@2026',
        confirm_password: 'Secret@2026',
        type: 'super_hr',
        status: 'active',
      });
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      await waitFor(() => expect(requests).toHaveLength(2));
    });

    it('creates a merchant user for the chosen merchant', async () => {
      await openUsers([]);
      const posts = answer('post', '/api/v1/users', { data: buildManagedUser() });
      const form = await openCreate();
      await userEvent.type(form.getByLabelText('Username'), 'shop.cashier');
      await userEvent.type(form.getByLabelText('Email'), 'cashier@example.com');
      await userEvent.type(form.getByLabelText('Password', { exact: true }), 'Secret@2026');
      await userEvent.type(form.getByLabelText('Confirm password'), 'Secret@2026');
      await chooseOption(form.getByRole('combobox', { name: 'User type' }), 'Merchant Staff');
      await chooseOption(form.getByRole('combobox', { name: 'Merchant' }), 'Campus Shop (SHOP)');
      await chooseOption(form.getByRole('combobox', { name: 'Status' }), 'Inactive');
      await userEvent.click(form.getByRole('button', { name: 'Create' }));
      await waitFor(() => expect(posts).toHaveLength(1));
      expect(posts[0]?.body).toMatchObject({
        type: 'merchant_staff',
        merchant_id: 1,
        status: 'inactive',
      });
    });

    it.each([
      ['USERNAME_EXISTS', 'Username', 'Username already exists'],
      ['EMAIL_EXISTS', 'Email', 'Email is already registered'],
    ])('shows %s on the %s field and as a toast', async (code, label, message) => {
      await openUsers([]);
      answer('post', '/api/v1/users', () => errorBody(409, code));
      const form = await openCreate();
      await userEvent.type(form.getByLabelText('Username'), 'taken');
      await userEvent.type(form.getByLabelText('Email'), 'taken@example.com');
      await userEvent.type(form.getByLabelText('Password', { exact: true }), 'Secret@2026');
      await userEvent.type(form.getByLabelText('Confirm password'), 'Secret@2026');
      await chooseOption(form.getByRole('combobox', { name: 'User type' }), 'Super Admin');
      await userEvent.click(form.getByRole('button', { name: 'Create' }));

      const field = form.getByLabelText(label);
      await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
      expect(field).toHaveAccessibleDescription(message);
      expect(await screen.findAllByText(message)).toHaveLength(2);
      expect(screen.getByRole('dialog')).toBeInTheDocument();
    });

    it('closes on cancel without sending anything', async () => {
      await openUsers([]);
      const posts = answer('post', '/api/v1/users', {});
      const form = await openCreate();
      await userEvent.type(form.getByLabelText('Username'), 'draft');
      await userEvent.click(form.getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(posts).toHaveLength(0);
      const again = await openCreate();
      expect(again.getByLabelText('Username')).toHaveValue('');
    });
  });

  describe('the user modal, editing', () => {
    const hr = buildManagedUser({
      user_id: 7,
      username: 'grouphr',
      email: 'hr@example.com',
      type: 'super_hr',
      status: 'inactive',
    });

    async function openEdit(user: ManagedUser) {
      await openUsers([user]);
      const menu = await rowActions(user.username);
      await userEvent.click(within(menu).getByRole('menuitem', { name: 'Edit' }));
      return within(await dialog());
    }

    it('is prefilled, keeps the type fixed and leaves the password empty', async () => {
      const form = await openEdit(hr);
      expect(form.getByRole('heading', { name: 'Edit user' })).toBeInTheDocument();
      expect(form.getByLabelText('Username')).toHaveValue('grouphr');
      expect(form.getByLabelText('Email')).toHaveValue('hr@example.com');
      expect(form.getByLabelText('Password', { exact: true })).toHaveValue('');
      expect(form.getByRole('textbox', { name: 'User type' })).toBeDisabled();
      expect(form.getByRole('textbox', { name: 'User type' })).toHaveValue('Group HR');
      expect(form.getByRole('combobox', { name: 'Status' })).toHaveTextContent('Inactive');
      expect(form.getByText('Leave empty to keep the current password.')).toBeInTheDocument();
    });

    it('keeps the current password when the box is left empty', async () => {
      const puts = answer('put', '/api/v1/users/7', { data: hr });
      const form = await openEdit(hr);
      await userEvent.clear(form.getByLabelText('Email'));
      await userEvent.type(form.getByLabelText('Email'), 'people@example.com');
      await userEvent.click(form.getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('grouphr updated')).toBeInTheDocument();
      expect(puts[0]?.body).toEqual({
        username: 'grouphr',
        email: 'people@example.com',
        status: 'inactive',
      });
    });

    it('sends a new password with its confirmation, checked by the same rules', async () => {
      const puts = answer('put', '/api/v1/users/7', { data: hr });
      const form = await openEdit(hr);
      await userEvent.type(form.getByLabelText('Password', { exact: true }), 'weak');
      await userEvent.click(form.getByRole('button', { name: 'Save' }));
      expect(await form.findByText('Password must be 8 to 32 characters')).toBeInTheDocument();
      expect(form.getByText('Passwords must match')).toBeInTheDocument();

      await userEvent.clear(form.getByLabelText('Password', { exact: true }));
      await userEvent.type(form.getByLabelText('Password', { exact: true }), 'Changed@2026');
      await userEvent.type(form.getByLabelText('Confirm password'), 'Changed@2026');
      await userEvent.click(form.getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(puts).toHaveLength(1));
      expect(puts[0]?.body).toEqual({
        username: 'grouphr',
        email: 'hr@example.com',
        status: 'inactive',
        password: 'Changed@2026',
        confirm_password: 'Changed@2026',
      });
    });

    // Decision 0070: one's own new password goes with the current one; another's does not.
    it('asks for the current password when the admin edits itself, and sends it', async () => {
      const me = buildManagedUser({ user_id: 1, username: 'admin', email: 'admin@example.com' });
      let tries = 0;
      const puts = answer('put', '/api/v1/users/1', () =>
        tries++ === 0
          ? errorBody(400, 'CURRENT_PASSWORD_INVALID', {
              message: 'Your current password is not correct.',
              metadata: { current_password: 'Your current password is not correct' },
            })
          : HttpResponse.json({ data: me }),
      );
      const form = await openEdit(me);
      expect(form.getByText('Needed only to set a new password for yourself.')).toBeInTheDocument();
      await userEvent.type(form.getByLabelText('Password', { exact: true }), 'Changed@2026');
      await userEvent.type(form.getByLabelText('Confirm password'), 'Changed@2026');
      await userEvent.type(form.getByLabelText('Current password'), 'Wrong@2026');
      await userEvent.click(form.getByRole('button', { name: 'Save' }));
      expect(await form.findByText(/^Your current password is not correct/)).toBeInTheDocument();
      await userEvent.clear(form.getByLabelText('Current password'));
      await userEvent.type(form.getByLabelText('Current password'), 'Passw0rd!');
      await userEvent.click(form.getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(puts).toHaveLength(2));
      expect(puts[1]?.body).toEqual({
        username: 'admin',
        email: 'admin@example.com',
        status: 'active',
        password: 'Changed@2026',
        confirm_password: 'Changed@2026',
        current_password: 'Passw0rd!',
      });
    });

    it('asks for no current password when editing someone else', async () => {
      const form = await openEdit(hr);
      expect(form.queryByLabelText('Current password')).not.toBeInTheDocument();
    });

    it('does not offer to edit merchant supervisors and staff', async () => {
      await openUsers([buildManagedUser({ username: 'shop.sup', type: 'merchant_supervisor' })]);
      const menu = await rowActions('shop.sup');
      expect(within(menu).getByRole('menuitem', { name: /Edit/ })).toHaveAttribute(
        'aria-disabled',
        'true',
      );
      expect(within(menu).getByText('Only merchant admin can be updated')).toBeInTheDocument();
    });
  });

  describe('the status and delete confirms', () => {
    const staff = buildManagedUser({ user_id: 9, username: 'shop.admin', type: 'merchant_admin' });

    it('deactivates after confirming, with the PATCH of the status convention', async () => {
      const { requests } = await openUsers([staff]);
      const patches = answer('patch', '/api/v1/users/9/status', { data: staff });
      const menu = await rowActions('shop.admin');
      await userEvent.click(within(menu).getByRole('menuitem', { name: 'Deactivate' }));
      const confirm = await screen.findByRole('alertdialog', { name: 'Deactivate' });
      expect(confirm).toHaveTextContent('Are you sure you want to deactivate shop.admin?');
      await userEvent.click(within(confirm).getByRole('button', { name: 'Deactivate' }));

      expect(await screen.findByText('Deactivated successfully.')).toBeInTheDocument();
      expect(patches[0]?.body).toEqual({ status: 'inactive' });
      await waitFor(() => expect(requests).toHaveLength(2));
    });

    it('activates an inactive user', async () => {
      await openUsers([{ ...staff, status: 'inactive' }]);
      const patches = answer('patch', '/api/v1/users/9/status', { data: staff });
      const menu = await rowActions('shop.admin');
      await userEvent.click(within(menu).getByRole('menuitem', { name: 'Activate' }));
      const confirm = await screen.findByRole('alertdialog', { name: 'Activate' });
      await userEvent.click(within(confirm).getByRole('button', { name: 'Activate' }));
      expect(await screen.findByText('Activated successfully.')).toBeInTheDocument();
      expect(patches[0]?.body).toEqual({ status: 'active' });
    });

    it('does nothing when the confirm is cancelled', async () => {
      await openUsers([staff]);
      const patches = answer('patch', '/api/v1/users/9/status', { data: staff });
      const deletes = answer('delete', '/api/v1/users/9', { data: { ok: true } });
      await userEvent.click(
        within(await rowActions('shop.admin')).getByRole('menuitem', { name: 'Deactivate' }),
      );
      await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
      await userEvent.click(
        within(await rowActions('shop.admin')).getByRole('menuitem', { name: 'Delete' }),
      );
      await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
      expect(patches).toHaveLength(0);
      expect(deletes).toHaveLength(0);
    });

    it('deletes after confirming', async () => {
      await openUsers([staff]);
      const deletes = answer('delete', '/api/v1/users/9', { data: { ok: true } });
      await userEvent.click(
        within(await rowActions('shop.admin')).getByRole('menuitem', { name: 'Delete' }),
      );
      const confirm = await screen.findByRole('alertdialog', { name: 'Delete' });
      expect(confirm).toHaveTextContent('Are you sure you want to delete shop.admin?');
      await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
      expect(await screen.findByText('Deleted successfully.')).toBeInTheDocument();
      expect(deletes).toHaveLength(1);
    });

    it('resets another user’s two-factor sign-in after a confirm that says what it does', async () => {
      await openUsers([staff]);
      const deletes = answer('delete', '/api/v1/users/9/mfa', { data: { ok: true } });
      await userEvent.click(
        within(await rowActions('shop.admin')).getByRole('menuitem', {
          name: 'Reset two-factor sign-in',
        }),
      );
      const confirm = await screen.findByRole('alertdialog', { name: 'Reset two-factor sign-in' });
      expect(confirm).toHaveTextContent('shop.admin will sign in with the password alone');
      await userEvent.click(
        within(confirm).getByRole('button', { name: 'Reset two-factor sign-in' }),
      );
      expect(
        await screen.findByText('Two-factor sign-in of shop.admin is reset.'),
      ).toBeInTheDocument();
      expect(deletes).toHaveLength(1);
    });

    it('clears a user’s sign-in wait after confirming, and sends nothing when cancelled', async () => {
      await openUsers([staff]);
      const deletes = answer('delete', '/api/v1/users/9/sign-in-throttle', {
        data: { cleared: 1 },
      });
      const clear = async () =>
        userEvent.click(
          within(await rowActions('shop.admin')).getByRole('menuitem', {
            name: 'Clear sign-in wait',
          }),
        );
      await clear();
      await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
      expect(deletes).toHaveLength(0);
      await clear();
      const confirm = await screen.findByRole('alertdialog', { name: 'Clear sign-in wait' });
      await userEvent.click(within(confirm).getByRole('button', { name: 'Clear sign-in wait' }));
      expect(await screen.findByText('shop.admin can sign in again.')).toBeInTheDocument();
      expect(deletes).toHaveLength(1);
    });

    it('keeps the signed-in admin from deactivating or deleting itself', async () => {
      await openUsers([buildManagedUser({ user_id: 1, username: 'admin' })]);
      const menu = await rowActions('admin');
      expect(within(menu).getByRole('menuitem', { name: /Deactivate/ })).toHaveAttribute(
        'aria-disabled',
        'true',
      );
      expect(within(menu).getByRole('menuitem', { name: /Delete/ })).toHaveAttribute(
        'aria-disabled',
        'true',
      );
    });
  });

  describe('invitations', () => {
    const pending = buildManagedUser({
      user_id: 41,
      username: 'new.hr',
      type: 'super_hr',
      invitation: { status: 'pending', expires_at: '2026-02-03T08:00:00.000Z' },
    });
    const expired = buildManagedUser({
      user_id: 42,
      username: 'late.hr',
      type: 'super_hr',
      invitation: { status: 'expired', expires_at: '2026-01-03T08:00:00.000Z' },
    });
    const settled = buildManagedUser({ user_id: 43, username: 'old.hr', type: 'super_hr' });

    it('marks accounts without a password: invitation pending or expired', async () => {
      await openUsers([pending, expired, settled]);
      const rowOf = async (name: string) =>
        (await screen.findByRole('cell', { name })).closest('tr')!;
      const pendingBadge = within(await rowOf('new.hr')).getByText('Invitation pending');
      expect(pendingBadge.closest('[data-invitation]')).toHaveAttribute(
        'title',
        expect.stringMatching(/expires on 03\/02\/2026/),
      );
      expect(within(await rowOf('late.hr')).getByText('Invitation expired')).toBeInTheDocument();
      expect(within(await rowOf('old.hr')).queryByText(/^Invitation/)).toBeNull();
      // Only an account without a password has the action.
      const menu = await rowActions('old.hr');
      expect(within(menu).queryByRole('menuitem', { name: 'Resend invitation' })).toBeNull();
    });

    it('resends an invitation and shows the new link to copy', async () => {
      await openUsers([expired]);
      const posts = answer('post', '/api/v1/users/42/invitations', () =>
        HttpResponse.json(
          {
            data: {
              user: {
                ...expired,
                invitation: { status: 'pending', expires_at: '2026-02-04T08:00:00.000Z' },
              },
              url: 'http://localhost/set-password#token=fresh',
              expires_at: '2026-02-04T08:00:00.000Z',
              emailed: true,
            },
          },
          { status: 201 },
        ),
      );
      const menu = await rowActions('late.hr');
      await userEvent.click(within(menu).getByRole('menuitem', { name: 'Resend invitation' }));
      const shown = within(await screen.findByRole('dialog', { name: 'New set-password link' }));
      expect(await shown.findByLabelText('Set-password link')).toHaveValue(
        'http://localhost/set-password#token=fresh',
      );
      expect(shown.getByText(/the previous one no longer works/)).toBeInTheDocument();
      expect(shown.getByText(/also emailed to/)).toBeInTheDocument();
      expect(posts).toHaveLength(1);
      expect(posts[0]?.body).toBeUndefined();
      await userEvent.click(shown.getByRole('button', { name: 'Done' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    });

    it('says why when the account has a password by now (409)', async () => {
      await openUsers([pending]);
      answer('post', '/api/v1/users/41/invitations', errorBody(409, 'INVITATION_NOT_PENDING'));
      const menu = await rowActions('new.hr');
      await userEvent.click(within(menu).getByRole('menuitem', { name: 'Resend invitation' }));
      expect(await screen.findByText(/This account already has a password/)).toBeInTheDocument();
      expect(screen.queryByRole('dialog', { name: 'New set-password link' })).toBeNull();
    });

    it('speaks Chinese', async () => {
      await i18n.changeLanguage('zh');
      const admin = signedIn('admin', { user_id: 1, username: 'admin' });
      serveUsers([expired]);
      renderApp('/user', { user: admin });
      const row = (await screen.findByRole('cell', { name: 'late.hr' })).closest('tr')!;
      expect(within(row).getByText('邀请已过期')).toBeInTheDocument();
      await userEvent.click(screen.getByRole('button', { name: 'late.hr 的操作' }));
      expect(await screen.findByRole('menuitem', { name: '重新发送邀请' })).toBeInTheDocument();
    });
  });

  it('speaks Chinese: the labels and the validation messages', async () => {
    await i18n.changeLanguage('zh');
    const admin = signedIn('admin');
    serveUsers([]);
    const { router } = renderApp('/user', { user: admin });
    expect(await screen.findByRole('heading', { level: 1, name: '用户管理' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '添加用户' }));
    const form = within(await dialog());
    await userEvent.click(form.getByRole('radio', { name: /现在输入密码/ }));
    await userEvent.click(form.getByRole('button', { name: '创建' }));
    expect(await form.findByText('请输入用户名')).toBeInTheDocument();
    expect(form.getByText('请输入密码')).toBeInTheDocument();
    expect(locationOf(router)).toBe('/user');
  });
});
