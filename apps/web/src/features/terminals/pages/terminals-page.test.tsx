import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Terminal, TerminalWithKey } from '@app/contract';
import { answer, errorBody, listOf, signedIn } from '@/test/api';
import { buildMerchant, buildTerminal } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const shop = buildMerchant({ id: 1, code: 'SHOP', name: 'Campus Shop' });
const cafe = buildMerchant({ id: 2, code: 'CAFE', name: 'Corner Cafe' });
const counter = buildTerminal({ id: 5, merchant_id: 1, code: 'SHOPT1', name: 'Counter 1' });
const KEY = 'tk_live_9f8e7d6c5b4a3210';

async function openTerminals(terminals: Terminal[], path = '/terminals') {
  const user = signedIn('admin');
  answer('get', '/api/v1/merchants', listOf([shop, cafe]));
  const requests = answer('get', '/api/v1/terminals', listOf(terminals));
  const view = renderApp(path, { user });
  await screen.findByRole('heading', { level: 1, name: 'Terminals' });
  return { ...view, requests };
}

async function createTerminal(withKey: TerminalWithKey) {
  const posts = answer(
    'post',
    '/api/v1/terminals',
    () =>
      new Response(JSON.stringify({ data: withKey }), {
        status: 201,
        headers: { 'Content-Type': 'application/json' },
      }),
  );
  await userEvent.click(screen.getByRole('button', { name: 'Add terminal' }));
  const form = within(await screen.findByRole('dialog'));
  await userEvent.click(form.getByRole('combobox', { name: 'Merchant' }));
  await userEvent.click(await screen.findByRole('option', { name: 'Corner Cafe (CAFE)' }));
  await userEvent.type(form.getByLabelText('Terminal code'), 'CAFET9');
  await userEvent.type(form.getByLabelText('Terminal name'), 'Window');
  await userEvent.click(form.getByRole('button', { name: 'Create' }));
  return posts;
}

describe('Terminals', () => {
  it("lists terminals with their merchant's name and key prefix, filtered from the URL", async () => {
    const { requests } = await openTerminals([counter], '/terminals?merchant_id=1&status=active');
    const row = (await screen.findByRole('cell', { name: 'Counter 1' })).closest('tr')!;
    expect(within(row).getByText('Campus Shop (SHOP)')).toBeInTheDocument();
    expect(within(row).getByText('tk_abc1234…')).toBeInTheDocument();
    expect(requests[0]?.query).toEqual({
      page: '1',
      page_size: '10',
      merchant_id: '1',
      status: 'active',
    });
  });

  it.each([
    ['Terminal code', 'T1', 'Code must be 3 to 12 characters'],
    ['Terminal code', 'T 100', 'Code may contain only letters and numbers'],
    ['Terminal name', '', 'Enter a name'],
  ])('refuses %s %j with "%s"', async (label, value, message) => {
    await openTerminals([]);
    const posts = answer('post', '/api/v1/terminals', {});
    await userEvent.click(screen.getByRole('button', { name: 'Add terminal' }));
    const form = within(await screen.findByRole('dialog'));
    if (value) await userEvent.type(form.getByLabelText(label), value);
    await userEvent.click(form.getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(form.getByLabelText(label)).toHaveAccessibleDescription(
        expect.stringContaining(message),
      ),
    );
    expect(form.getByRole('combobox', { name: 'Merchant' })).toHaveAccessibleDescription(
      'Choose a merchant',
    );
    expect(posts).toHaveLength(0);
  });

  it('shows a code taken at this merchant on the code field', async () => {
    await openTerminals([]);
    answer('post', '/api/v1/terminals', () => errorBody(409, 'TERMINAL_CODE_ALREADY_EXISTS'));
    await userEvent.click(screen.getByRole('button', { name: 'Add terminal' }));
    const form = within(await screen.findByRole('dialog'));
    await userEvent.click(form.getByRole('combobox', { name: 'Merchant' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Campus Shop (SHOP)' }));
    await userEvent.type(form.getByLabelText('Terminal code'), 'SHOPT1');
    await userEvent.type(form.getByLabelText('Terminal name'), 'Again');
    await userEvent.click(form.getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(form.getByLabelText('Terminal code')).toHaveAccessibleDescription(
        expect.stringContaining('This terminal code already exists for the merchant.'),
      ),
    );
  });

  it('shows the new key once, with a warning and a copy button', async () => {
    const user = userEvent.setup();
    await openTerminals([]);
    const posts = await createTerminal({
      ...buildTerminal({ id: 9, merchant_id: 2, code: 'CAFET9' }),
      api_key: KEY,
    });

    const keyDialog = await screen.findByRole('dialog', { name: 'Terminal CAFET9 created' });
    expect(posts[0]?.body).toEqual({
      merchant_id: 2,
      code: 'CAFET9',
      name: 'Window',
      status: 'active',
    });
    expect(within(keyDialog).getByLabelText('API key')).toHaveValue(KEY);
    expect(within(keyDialog).getByRole('alert')).toHaveTextContent(
      'This key will not be shown again.',
    );

    await user.click(within(keyDialog).getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(KEY);
    expect(await within(keyDialog).findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    expect(await screen.findByText('Copied to the clipboard.')).toBeInTheDocument();

    await user.click(within(keyDialog).getByRole('button', { name: 'I have saved the key' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByDisplayValue(KEY)).not.toBeInTheDocument();
    expect(document.body.textContent).not.toContain(KEY);
  });

  it('rotates a key only after confirming, then shows the new key once', async () => {
    await openTerminals([counter]);
    const rotations = answer('post', '/api/v1/terminals/5/rotate-key', {
      data: { ...counter, api_key: KEY },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for SHOPT1' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Rotate key' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Rotate key' });
    expect(confirm).toHaveTextContent('its current key stops working at once');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(rotations).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Actions for SHOPT1' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Rotate key' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Rotate key' }),
    );
    const keyDialog = await screen.findByRole('dialog', { name: 'New key for terminal SHOPT1' });
    expect(within(keyDialog).getByLabelText('API key')).toHaveValue(KEY);
    expect(rotations).toHaveLength(1);
  });

  it('deactivates a terminal after confirming', async () => {
    await openTerminals([counter]);
    const patches = answer('patch', '/api/v1/terminals/5/status', { data: counter });
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for SHOPT1' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Deactivate' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Deactivate' }),
    );
    expect(await screen.findByText('Deactivated successfully.')).toBeInTheDocument();
    expect(patches[0]?.body).toEqual({ status: 'inactive' });
  });

  it('edits a terminal: merchant and code fixed, name and status sent', async () => {
    await openTerminals([counter]);
    const puts = answer('put', '/api/v1/terminals/5', { data: counter });
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for SHOPT1' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const form = within(await screen.findByRole('dialog', { name: 'Edit terminal' }));
    expect(form.getByLabelText('Merchant')).toHaveValue('Campus Shop (SHOP)');
    expect(form.getByLabelText('Merchant')).toBeDisabled();
    expect(form.getByLabelText('Terminal code')).toHaveValue('SHOPT1');
    expect(form.getByLabelText('Terminal code')).toBeDisabled();
    await userEvent.clear(form.getByLabelText('Terminal name'));
    await userEvent.type(form.getByLabelText('Terminal name'), 'Till');
    await userEvent.click(form.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Inactive' }));
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Updated successfully.')).toBeInTheDocument();
    expect(puts[0]?.body).toEqual({ name: 'Till', status: 'inactive' });
    // An edit never shows or changes a key.
    expect(screen.queryByLabelText('API key')).not.toBeInTheDocument();
  });

  it('deletes a terminal only after confirming', async () => {
    await openTerminals([counter]);
    const deletes = answer('delete', '/api/v1/terminals/5', { data: { ok: true } });
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for SHOPT1' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(deletes).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Actions for SHOPT1' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText('Deleted successfully.')).toBeInTheDocument();
    expect(deletes).toHaveLength(1);
  });

  it('starts a new terminal on the merchant the list is filtered to', async () => {
    await openTerminals([counter], '/terminals?merchant_id=2');
    await userEvent.click(screen.getByRole('button', { name: 'Add terminal' }));
    const form = within(await screen.findByRole('dialog'));
    expect(form.getByRole('combobox', { name: 'Merchant' })).toHaveTextContent(
      'Corner Cafe (CAFE)',
    );
  });
});
