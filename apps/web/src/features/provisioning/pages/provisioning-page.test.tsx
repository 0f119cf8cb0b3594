import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ScimRequest, ScimToken } from '@app/contract';
import { answer, signedIn } from '@/test/api';
import { renderApp } from '@/test/render';

const TOKEN = 'scim_3q2Xr6o8cWw0bZQ1pT4n5Lk9JmHgFdSaE7yUiOpRt2V';

const token = (overrides: Partial<ScimToken> = {}): ScimToken => ({
  id: 4,
  company_id: 1,
  description: 'Okta',
  prefix: 'scim_3q2Xr6',
  created_at: '2026-01-15T08:00:00.000Z',
  last_used_at: '2026-01-15T09:30:00.000Z',
  ...overrides,
});

const request = (overrides: Partial<ScimRequest> = {}): ScimRequest => ({
  id: 90,
  token_id: 4,
  method: 'PATCH',
  path: '/scim/v2/Users/17',
  status: 200,
  occurred_at: '2026-01-15T09:30:00.000Z',
  ...overrides,
});

async function openProvisioning(tokens: ScimToken[], requests: ScimRequest[] = []) {
  const user = signedIn('company_admin', { company_id: 1 });
  answer('get', '/api/v1/companies/1/scim-tokens', { data: tokens });
  answer('get', '/api/v1/companies/1/scim-requests', { data: requests });
  const view = renderApp('/provisioning', { user });
  await screen.findByRole('heading', { level: 1, name: 'Provisioning' });
  return view;
}

describe('Provisioning', () => {
  it('shows the SCIM base URL, the tokens and the last requests with their outcome', async () => {
    await openProvisioning(
      [token()],
      [request(), request({ id: 89, method: 'POST', path: '/scim/v2/Users', status: 409 })],
    );
    expect(screen.getByLabelText('SCIM base URL')).toHaveValue(`${window.location.origin}/scim/v2`);
    const tokens = within(await screen.findByRole('table', { name: 'Tokens' }));
    expect(tokens.getByText('Okta')).toBeInTheDocument();
    expect(tokens.getByText('scim_3q2Xr6…')).toBeInTheDocument();
    const requests = within(await screen.findByRole('table', { name: 'Last 50 SCIM requests' }));
    const failed = requests.getByText('/scim/v2/Users').closest('tr')!;
    expect(within(failed).getByText('POST')).toBeInTheDocument();
    expect(within(failed).getByText('409 Failed')).toBeInTheDocument();
    const succeeded = requests.getByText('/scim/v2/Users/17').closest('tr')!;
    expect(within(succeeded).getByText('200 Succeeded')).toBeInTheDocument();
  });

  it('says when there are no tokens and no requests', async () => {
    await openProvisioning([]);
    expect(await screen.findByText(/No tokens yet/)).toBeInTheDocument();
    expect(await screen.findByText('No SCIM requests yet.')).toBeInTheDocument();
  });

  it('makes a token with a description and shows it once, with a copy button and a warning', async () => {
    const user = userEvent.setup();
    await openProvisioning([]);
    const posts = answer(
      'post',
      '/api/v1/companies/1/scim-tokens',
      () =>
        new Response(JSON.stringify({ data: { ...token({ last_used_at: null }), token: TOKEN } }), {
          status: 201,
          headers: { 'Content-Type': 'application/json' },
        }),
    );
    await user.click(screen.getByRole('button', { name: 'New token' }));
    const form = within(await screen.findByRole('dialog'));
    // No description: refused before any request.
    await user.click(form.getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(form.getByLabelText('Description')).toHaveAccessibleDescription(
        expect.stringContaining('Enter a description'),
      ),
    );
    expect(posts).toHaveLength(0);
    await user.type(form.getByLabelText('Description'), 'Okta');
    await user.click(form.getByRole('button', { name: 'Create' }));

    const dialog = await screen.findByRole('dialog', { name: 'Token made: copy it now' });
    expect(posts[0]?.body).toEqual({ description: 'Okta' });
    expect(within(dialog).getByRole('alert')).toHaveTextContent(/only time the token is shown/);
    expect(within(dialog).getByLabelText('SCIM token')).toHaveValue(TOKEN);
    await user.click(within(dialog).getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(TOKEN);
    await user.click(within(dialog).getByRole('button', { name: 'I have saved the token' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(document.body.textContent).not.toContain(TOKEN);
  });

  it('revokes a token only after confirming', async () => {
    const user = userEvent.setup();
    await openProvisioning([token()]);
    const deletes = answer('delete', '/api/v1/companies/1/scim-tokens/4', { data: { ok: true } });
    await user.click(await screen.findByRole('button', { name: 'Revoke Okta' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Revoke the SCIM token' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(deletes).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Revoke Okta' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Revoke' }),
    );
    expect(await screen.findByText('Token revoked.')).toBeInTheDocument();
    expect(deletes).toHaveLength(1);
  });

  it('is in the menu of a company admin only', async () => {
    await openProvisioning([]);
    expect(
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', {
        name: 'Provisioning',
      }),
    ).toBeInTheDocument();
  });
});
