// The Users screen of a merchant admin (DESIGN 2, decision 0017): its own merchant's supervisors
// and staff, created with the two staff types only and no merchant to choose.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ManagedUser } from '@app/contract';
import { i18n } from '@/locales/i18n';
import { answer, listOf, signedIn } from '@/test/api';
import { buildManagedUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const cashier = buildManagedUser({
  user_id: 21,
  username: 'shop.cashier',
  email: 'cashier@example.com',
  type: 'merchant_staff',
  merchant_id: 1,
  merchant_name: 'Campus Shop',
});

/** Signs in shop.admin and opens /user; /merchants is not served (it is not the merchant's). */
async function openAsShopAdmin(users: ManagedUser[] = [cashier]) {
  const shopAdmin = signedIn('merchant_admin', {
    user_id: 5,
    username: 'shop.admin',
    merchant_id: 1,
  });
  const merchants = answer('get', '/api/v1/merchants', listOf([]));
  const requests = answer('get', '/api/v1/users', listOf(users));
  const view = renderApp('/user', { user: shopAdmin });
  await screen.findByRole('heading', { level: 1, name: 'User Management' });
  return { ...view, requests, merchants };
}

async function fillAccount(form: ReturnType<typeof within>) {
  await userEvent.type(form.getByLabelText('Username'), 'shop.new');
  await userEvent.type(form.getByLabelText('Email'), 'new@example.com');
  await userEvent.type(form.getByLabelText('Password', { exact: true }), 'Secret@2026');
  await userEvent.type(form.getByLabelText('Confirm password'), 'Secret@2026');
}

describe('User Management for a merchant admin', () => {
  it('lists its staff without a merchant column or filter, and never asks for the merchants', async () => {
    const { merchants } = await openAsShopAdmin();
    expect(await screen.findByRole('cell', { name: 'shop.cashier' })).toBeInTheDocument();
    expect(screen.getByText('The supervisors and staff of your merchant.')).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Merchant' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Merchant/ })).not.toBeInTheDocument();
    // The filter, not the column's sort button of the same name.
    await userEvent.click(
      within(screen.getByRole('search')).getByRole('button', { name: /^User type/ }),
    );
    const typeFilter = await screen.findByRole('menu');
    expect(
      within(typeFilter)
        .getAllByRole('menuitemcheckbox')
        .map((option) => option.textContent),
    ).toEqual(['Merchant Supervisor', 'Merchant Staff']);
    expect(merchants).toHaveLength(0);
  });

  it('offers no sign-in reset of any kind: those are the Super Admin’s', async () => {
    await openAsShopAdmin();
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for shop.cashier' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Edit' })).toBeInTheDocument();
    expect(
      within(menu).queryByRole('menuitem', { name: 'Reset two-factor sign-in' }),
    ).not.toBeInTheDocument();
    expect(
      within(menu).queryByRole('menuitem', { name: 'Clear sign-in wait' }),
    ).not.toBeInTheDocument();
  });

  it('offers only Supervisor and Staff, no merchant picker, and sends no merchant', async () => {
    await openAsShopAdmin();
    const posts = answer('post', '/api/v1/users', { data: cashier });
    await userEvent.click(screen.getByRole('button', { name: 'Add user' }));
    const form = within(await screen.findByRole('dialog'));
    await userEvent.click(form.getByRole('radio', { name: /Type a password now/ }));
    await fillAccount(form);
    await userEvent.click(form.getByRole('combobox', { name: 'User type' }));
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(options).toEqual(['Merchant Supervisor', 'Merchant Staff']);
    await userEvent.click(screen.getByRole('option', { name: 'Merchant Supervisor' }));
    expect(form.queryByRole('combobox', { name: 'Merchant' })).not.toBeInTheDocument();
    await userEvent.click(form.getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('shop.new created')).toBeInTheDocument();
    expect(posts[0]?.body).toEqual({
      username: 'shop.new',
      email: 'new@example.com',
      password: 'Secret@2026',
      confirm_password: 'Secret@2026',
      type: 'merchant_supervisor',
      status: 'active',
    });
  });

  it('edits its staff and resets a password with the edit form', async () => {
    await openAsShopAdmin();
    const puts = answer('put', '/api/v1/users/21', { data: cashier });
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for shop.cashier' }));
    const menu = await screen.findByRole('menu');
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Edit' }));
    const form = within(await screen.findByRole('dialog'));
    await userEvent.type(form.getByLabelText('Password', { exact: true }), 'Reset@2026');
    await userEvent.type(form.getByLabelText('Confirm password'), 'Reset@2026');
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]?.body).toEqual({
      username: 'shop.cashier',
      email: 'cashier@example.com',
      status: 'active',
      password: 'Reset@2026',
      confirm_password: 'Reset@2026',
    });
  });

  it('speaks Chinese on the staff form', async () => {
    await i18n.changeLanguage('zh');
    const shopAdmin = signedIn('merchant_admin', { merchant_id: 1 });
    answer('get', '/api/v1/users', listOf([cashier]));
    renderApp('/user', { user: shopAdmin });
    expect(await screen.findByText('本商户的主管和职员。')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '添加用户' }));
    const form = within(await screen.findByRole('dialog'));
    await userEvent.click(form.getByRole('combobox', { name: '用户类型' }));
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(options).toEqual(['商户主管', '商户职员']);
  });
});
