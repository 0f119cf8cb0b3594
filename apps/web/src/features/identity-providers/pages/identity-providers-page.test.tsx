import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { IdentityProvider } from '@app/contract';
import { answer, signedIn } from '@/test/api';
import { renderApp } from '@/test/render';

const ENTRA: IdentityProvider = {
  id: 7,
  name: 'Contoso Entra ID',
  issuer: 'https://login.microsoftonline.com/00000000-0000-0000-0000-000000000000/v2.0',
  client_id: 'client-7',
  client_secret_set: true,
  email_domains: ['contoso.com'],
  company_id: null,
  default_type: 'super_hr',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

async function openPage(providers: IdentityProvider[] = [ENTRA]) {
  const user = signedIn('admin');
  answer('get', '/api/v1/sys/identity-providers', { data: providers });
  answer('get', '/api/v1/companies', { data: [], total: 0 });
  const puts = answer('put', '/api/v1/sys/identity-providers', ({ body }) => ({
    data: (body as { providers: object[] }).providers.map((p, i) => ({
      ...ENTRA,
      id: 100 + i,
      ...p,
      client_secret: undefined,
      client_secret_set: true,
    })),
  }));
  renderApp('/identity-providers', { user });
  await screen.findByRole('heading', { level: 1, name: 'Identity Providers' });
  return { puts };
}

describe('Identity Providers', () => {
  it('lists the providers with the secret shown only as set', async () => {
    await openPage();
    const table = await screen.findByRole('table', { name: 'Identity Providers' });
    const row = within(table).getByRole('row', { name: /Contoso Entra ID/ });
    expect(within(row).getByText('contoso.com')).toBeInTheDocument();
    expect(within(row).getByText('Set')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Identity Providers' })).toHaveAttribute(
      'href',
      '/identity-providers',
    );
  });

  it('adds a provider with its secret, and edits one without sending a secret', async () => {
    const { puts } = await openPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add provider' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Name'), 'Okta');
    await user.clear(within(dialog).getByLabelText('Issuer'));
    await user.type(within(dialog).getByLabelText('Issuer'), 'https://acme.okta.com');
    await user.type(within(dialog).getByLabelText('Client ID'), 'okta-client');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Fill in this field')).toBeInTheDocument();
    expect(puts).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Client secret'), 's3cret');
    await user.type(within(dialog).getByLabelText('Email domains'), 'acme.com, Acme.org');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]!.body).toEqual({
      providers: [
        {
          id: 7,
          name: ENTRA.name,
          issuer: ENTRA.issuer,
          client_id: ENTRA.client_id,
          email_domains: ['contoso.com'],
          company_id: null,
          default_type: 'super_hr',
        },
        {
          name: 'Okta',
          issuer: 'https://acme.okta.com',
          client_id: 'okta-client',
          client_secret: 's3cret',
          email_domains: ['acme.com', 'acme.org'],
          company_id: null,
          default_type: 'super_hr',
        },
      ],
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(await screen.findByRole('button', { name: 'Edit Contoso Entra ID' }));
    const edit = await screen.findByRole('dialog');
    expect(within(edit).getByLabelText('Client secret')).toHaveValue('');
    expect(within(edit).getByLabelText('Client secret')).toHaveAttribute('placeholder', 'Set');
    await user.clear(within(edit).getByLabelText('Name'));
    await user.type(within(edit).getByLabelText('Name'), 'Contoso');
    await user.click(within(edit).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts).toHaveLength(2));
    const edited = (puts[1]!.body as { providers: Record<string, unknown>[] }).providers;
    expect(edited.find((p) => p.name === 'Contoso')).not.toHaveProperty('client_secret');
  });
});
