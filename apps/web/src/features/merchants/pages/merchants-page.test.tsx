import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Merchant } from '@app/contract';
import { answer, errorBody, listOf, signedIn } from '@/test/api';
import { buildMerchant } from '@/test/fixtures';
import { locationOf, renderApp } from '@/test/render';
import { i18n } from '@/locales/i18n';

const shop = buildMerchant({ id: 4, code: 'SHOP', name: 'Campus Shop', category: 'grocery' });

async function openMerchants(merchants: Merchant[], path = '/merchants') {
  const user = signedIn('admin');
  const requests = answer('get', '/api/v1/merchants', listOf(merchants));
  const view = renderApp(path, { user });
  await screen.findByRole('heading', { level: 1, name: 'Merchants' });
  return { ...view, requests };
}

async function rowAction(name: string, action: string) {
  await userEvent.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
  await userEvent.click(
    within(await screen.findByRole('menu')).getByRole('menuitem', { name: action }),
  );
}

async function openCreate() {
  await userEvent.click(screen.getByRole('button', { name: 'Add merchant' }));
  return within(await screen.findByRole('dialog'));
}

describe('Merchants', () => {
  it('lists merchants and filters by status through the URL', async () => {
    const { requests, router } = await openMerchants([
      shop,
      buildMerchant({ name: 'Corner Cafe', status: 'inactive' }),
    ]);
    const row = (await screen.findByRole('cell', { name: 'Campus Shop' })).closest('tr')!;
    expect(within(row).getByText('SHOP')).toBeInTheDocument();
    expect(within(row).getByText('Active')).toHaveAttribute('data-status', 'active');
    expect(within(row).getByText('Grocery')).toBeInTheDocument();
    const cafe = screen.getByRole('cell', { name: 'Corner Cafe' }).closest('tr')!;
    expect(within(cafe).getByText('Other')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('menuitemradio', { name: 'Inactive' }));
    await waitFor(() => expect(locationOf(router)).toBe('/merchants?status=inactive'));
    await waitFor(() =>
      expect(requests.at(-1)?.query).toEqual({ page: '1', page_size: '10', status: 'inactive' }),
    );
  });

  it.each([
    ['Merchant code', '', 'Enter a code'],
    ['Merchant code', 'S1', 'Code must be 3 to 12 characters'],
    ['Merchant code', 'SHOP 1', 'Code may contain only letters and numbers'],
    ['Merchant name', '', 'Enter a name'],
  ])('refuses %s %j with "%s"', async (label, value, message) => {
    await openMerchants([]);
    const posts = answer('post', '/api/v1/merchants', {});
    const form = await openCreate();
    if (value) await userEvent.type(form.getByLabelText(label), value);
    await userEvent.click(form.getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(form.getByLabelText(label)).toHaveAccessibleDescription(
        expect.stringContaining(message),
      ),
    );
    expect(posts).toHaveLength(0);
  });

  it('creates a merchant and shows a taken code on its field', async () => {
    await openMerchants([]);
    let attempt = 0;
    const posts = answer('post', '/api/v1/merchants', () => {
      attempt += 1;
      return attempt === 1
        ? errorBody(409, 'MERCHANT_CODE_ALREADY_EXISTS')
        : new Response(JSON.stringify({ data: shop }), {
            status: 201,
            headers: { 'Content-Type': 'application/json' },
          });
    });
    const form = await openCreate();
    await userEvent.type(form.getByLabelText('Merchant code'), 'SHOP');
    await userEvent.type(form.getByLabelText('Merchant name'), 'Campus Shop');
    await userEvent.click(form.getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(form.getByLabelText('Merchant code')).toHaveAccessibleDescription(
        expect.stringContaining('Merchant code already exists'),
      ),
    );

    // A new merchant is of the category Other unless another is picked.
    expect(posts[0]?.body).toMatchObject({ category: 'other' });

    await userEvent.clear(form.getByLabelText('Merchant code'));
    await userEvent.type(form.getByLabelText('Merchant code'), 'SHOP2');
    expect(form.getByRole('combobox', { name: 'Category' })).toHaveTextContent('Other');
    await userEvent.click(form.getByRole('combobox', { name: 'Category' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Canteen' }));
    await userEvent.click(form.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Created successfully.')).toBeInTheDocument();
    expect(posts[1]?.body).toEqual({
      code: 'SHOP2',
      name: 'Campus Shop',
      status: 'active',
      category: 'canteen',
    });
  });

  it('deactivates after confirming and does nothing on cancel', async () => {
    await openMerchants([shop]);
    const patches = answer('patch', '/api/v1/merchants/4/status', { data: shop });
    await rowAction('Campus Shop', 'Deactivate');
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(patches).toHaveLength(0);

    await rowAction('Campus Shop', 'Deactivate');
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm).toHaveTextContent('Are you sure you want to deactivate Campus Shop?');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText('Deactivated successfully.')).toBeInTheDocument();
    expect(patches[0]?.body).toEqual({ status: 'inactive' });
  });

  it("opens the merchant's staff on User Management and its terminals, filtered to it", async () => {
    const { router } = await openMerchants([shop]);
    answer('get', '/api/v1/users', listOf([]));
    await rowAction('Campus Shop', 'Staff');
    await waitFor(() => expect(locationOf(router)).toBe('/user?merchant_id=4'));
    await screen.findByRole('heading', { level: 1, name: 'User Management' });

    answer('get', '/api/v1/terminals', listOf([]));
    await router.navigate('/merchants');
    await rowAction('Campus Shop', 'Terminals');
    await waitFor(() => expect(locationOf(router)).toBe('/terminals?merchant_id=4'));
  });

  it('edits a merchant: prefilled, the code fixed, name and status sent', async () => {
    await openMerchants([shop]);
    const puts = answer('put', '/api/v1/merchants/4', { data: shop });
    await rowAction('Campus Shop', 'Edit');
    const form = within(await screen.findByRole('dialog', { name: 'Edit merchant' }));
    expect(form.getByLabelText('Merchant code')).toHaveValue('SHOP');
    expect(form.getByLabelText('Merchant code')).toBeDisabled();
    expect(form.getByLabelText('Merchant name')).toHaveValue('Campus Shop');
    await userEvent.clear(form.getByLabelText('Merchant name'));
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText('Enter a name')).toBeInTheDocument();
    expect(puts).toHaveLength(0);

    await userEvent.type(form.getByLabelText('Merchant name'), 'Campus Store');
    expect(form.getByRole('combobox', { name: 'Category' })).toHaveTextContent('Grocery');
    await userEvent.click(form.getByRole('combobox', { name: 'Category' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Bakery' }));
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Updated successfully.')).toBeInTheDocument();
    expect(puts[0]?.body).toEqual({ name: 'Campus Store', status: 'active', category: 'bakery' });
  });

  it('deletes a merchant only after confirming', async () => {
    await openMerchants([shop]);
    const deletes = answer('delete', '/api/v1/merchants/4', { data: { ok: true } });
    await rowAction('Campus Shop', 'Delete');
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(deletes).toHaveLength(0);

    await rowAction('Campus Shop', 'Delete');
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete' });
    expect(confirm).toHaveTextContent('Are you sure you want to delete Campus Shop?');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Deleted successfully.')).toBeInTheDocument();
    expect(deletes).toHaveLength(1);
  });

  it('filters by category through the URL', async () => {
    const { requests, router } = await openMerchants([shop]);
    await screen.findByRole('cell', { name: 'Campus Shop' });
    await userEvent.click(screen.getByRole('button', { name: 'Category' }));
    await userEvent.click(await screen.findByRole('menuitemradio', { name: 'Grocery' }));
    await waitFor(() => expect(locationOf(router)).toBe('/merchants?category=grocery'));
    await waitFor(() =>
      expect(requests.at(-1)?.query).toEqual({ page: '1', page_size: '10', category: 'grocery' }),
    );
  });

  it("shows the merchant's category on its page, in Chinese too", async () => {
    const user = signedIn('admin');
    answer('get', '/api/v1/merchants/4', { data: shop });
    answer('get', '/api/v1/orders/admin', {
      ...listOf([]),
      total_is_exact: true,
      next_cursor: null,
    });
    renderApp('/merchants/4', { user });
    await screen.findByRole('heading', { level: 1, name: 'Campus Shop' });
    const figure = document.querySelector('[data-figure="category"]')!;
    expect(figure).toHaveTextContent('Category');
    expect(figure).toHaveTextContent('Grocery');
    await i18n.changeLanguage('zh');
    await waitFor(() => expect(figure).toHaveTextContent('食品杂货'));
    await i18n.changeLanguage('en');
  });

  it('searches code or name through the URL', async () => {
    const { requests, router } = await openMerchants([shop]);
    await screen.findByRole('cell', { name: 'Campus Shop' });
    await userEvent.type(
      screen.getByRole('searchbox', { name: 'Search code or name' }),
      'camp{Enter}',
    );
    await waitFor(() => expect(locationOf(router)).toBe('/merchants?search=camp'));
    await waitFor(() =>
      expect(requests.at(-1)?.query).toEqual({ page: '1', page_size: '10', search: 'camp' }),
    );
  });
});
