import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Role, Webhook, WebhookDelivery } from '@app/contract';
import { answer, errorBody, listOf, signedIn } from '@/test/api';
import { renderApp } from '@/test/render';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

const endpoint = (overrides: Partial<Webhook> = {}): Webhook => ({
  id: 7,
  url: 'https://hr.example.com/hooks',
  description: 'Payroll',
  events: ['order.created', 'tokens.distributed'],
  status: 'active',
  disabled_reason: null,
  scope: 'company',
  merchant_id: null,
  company_id: 1,
  previous_secret_expires_at: null,
  created_at: '2026-01-15T08:00:00.000Z',
  updated_at: '2026-01-15T08:00:00.000Z',
  ...overrides,
});

const delivery = (overrides: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  id: 31,
  sequence: 12,
  event_id: 'msg_0a1b2c',
  event_type: 'order.created',
  status: 'pending',
  attempts: 2,
  last_status_code: 503,
  last_response: 'busy',
  last_attempt_at: '2026-01-15T08:00:05.000Z',
  next_attempt_at: '2026-01-15T08:05:05.000Z',
  created_at: '2026-01-15T08:00:00.000Z',
  ...overrides,
});

async function openWebhooks(endpoints: Webhook[], role: Role = 'company_admin') {
  const user = signedIn(role, role === 'company_admin' ? { company_id: 1 } : {});
  const requests = answer('get', '/api/v1/webhooks', listOf(endpoints));
  const view = renderApp('/webhooks', { user });
  await screen.findByRole('heading', { level: 1, name: 'Webhooks' });
  return { ...view, requests };
}

const openActions = async () => {
  await userEvent.click(
    await screen.findByRole('button', { name: 'Actions for https://hr.example.com/hooks' }),
  );
};

describe('Webhooks', () => {
  it('lists the endpoints with their events and status, and says when there are none', async () => {
    await openWebhooks([endpoint({ status: 'disabled', disabled_reason: 'gone' })]);
    const row = (await screen.findByText('https://hr.example.com/hooks')).closest('tr')!;
    expect(within(row).getByText('tokens.distributed')).toBeInTheDocument();
    expect(within(row).getByText('Disabled (410 Gone)')).toBeInTheDocument();
  });

  it('shows the empty state', async () => {
    await openWebhooks([]);
    expect(await screen.findByText(/No endpoints yet/)).toBeInTheDocument();
  });

  it.each([
    ['company_admin', 10],
    ['merchant_admin', 3],
    ['admin', 11],
  ] as const)('offers a %s only the events its role may receive (%i)', async (role, count) => {
    await openWebhooks([], role);
    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const form = within(await screen.findByRole('dialog'));
    expect(
      within(form.getByRole('group', { name: 'Events' })).getAllByRole('checkbox'),
    ).toHaveLength(count);
    expect(form.queryByRole('checkbox', { name: /tokens\.issued/ }) === null).toBe(
      role === 'merchant_admin',
    );
  });

  it('adds an endpoint with the chosen events and shows its secret once, with a copy button', async () => {
    const user = userEvent.setup();
    await openWebhooks([]);
    const posts = answer(
      'post',
      '/api/v1/webhooks',
      () =>
        new Response(JSON.stringify({ data: { ...endpoint(), secret: SECRET } }), {
          status: 201,
          headers: { 'Content-Type': 'application/json' },
        }),
    );
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const form = within(await screen.findByRole('dialog'));
    // Nothing chosen yet: refused before any request.
    await user.click(form.getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(form.getByLabelText('Endpoint URL')).toHaveAccessibleDescription(
        expect.stringContaining('Enter a web address'),
      ),
    );
    expect(posts).toHaveLength(0);

    await user.clear(form.getByLabelText('Endpoint URL'));
    await user.type(form.getByLabelText('Endpoint URL'), 'https://hr.example.com/hooks');
    await user.type(form.getByLabelText('Description (optional)'), 'Payroll');
    await user.click(form.getByRole('checkbox', { name: /tokens\.distributed/ }));
    await user.click(form.getByRole('checkbox', { name: /order\.created/ }));
    await user.click(form.getByRole('button', { name: 'Create' }));

    const secretDialog = await screen.findByRole('dialog', {
      name: 'Endpoint added: copy its signing secret',
    });
    expect(posts[0]?.body).toEqual({
      url: 'https://hr.example.com/hooks',
      // In the catalogue's order of the role's events, whatever the order of the clicks.
      events: ['tokens.distributed', 'order.created'],
      description: 'Payroll',
    });
    expect(within(secretDialog).getByLabelText('Signing secret')).toHaveValue(SECRET);
    await user.click(within(secretDialog).getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    await user.click(within(secretDialog).getByRole('button', { name: 'I have saved the secret' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it('shows a refused address on the URL field', async () => {
    await openWebhooks([]);
    answer('post', '/api/v1/webhooks', () => errorBody(400, 'WEBHOOK_URL_NOT_ALLOWED'));
    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const form = within(await screen.findByRole('dialog'));
    await userEvent.clear(form.getByLabelText('Endpoint URL'));
    await userEvent.type(form.getByLabelText('Endpoint URL'), 'https://10.0.0.1/');
    await userEvent.click(form.getByRole('checkbox', { name: /order\.created/ }));
    await userEvent.click(form.getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(form.getByLabelText('Endpoint URL')).toHaveAccessibleDescription(
        expect.stringContaining('use https and a public address'),
      ),
    );
  });

  it('rotates the secret only after confirming, then shows the new one', async () => {
    await openWebhooks([endpoint()]);
    const rotations = answer('post', '/api/v1/webhooks/7/rotate-secret', {
      data: { ...endpoint(), secret: SECRET },
    });
    await openActions();
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Rotate secret' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Rotate the signing secret' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(rotations).toHaveLength(0);

    await openActions();
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Rotate secret' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Rotate secret' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'New signing secret' });
    expect(within(dialog).getByLabelText('Signing secret')).toHaveValue(SECRET);
    expect(rotations).toHaveLength(1);
  });

  it('disables an endpoint and deletes one, each after confirming', async () => {
    await openWebhooks([endpoint()]);
    const patches = answer('patch', '/api/v1/webhooks/7', {
      data: endpoint({ status: 'disabled', disabled_reason: 'manual' }),
    });
    await openActions();
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Disable' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Disable' }),
    );
    expect(await screen.findByText('Endpoint disabled.')).toBeInTheDocument();
    expect(patches[0]?.body).toEqual({ status: 'disabled' });

    const deletes = answer('delete', '/api/v1/webhooks/7', { data: { ok: true } });
    await openActions();
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText('Deleted successfully.')).toBeInTheDocument();
    expect(deletes).toHaveLength(1);
  });

  it('shows the deliveries of an endpoint and retries one', async () => {
    await openWebhooks([endpoint()]);
    answer('get', '/api/v1/webhooks/7/deliveries', {
      data: [
        delivery(),
        delivery({
          id: 30,
          status: 'succeeded',
          attempts: 1,
          last_status_code: 200,
          last_response: 'ok',
          next_attempt_at: null,
        }),
      ],
      next_cursor: null,
    });
    const retries = answer('post', '/api/v1/webhooks/7/deliveries/31/retry', {
      data: delivery({ next_attempt_at: '2026-01-15T08:01:00.000Z' }),
    });
    await openActions();
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Deliveries' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Deliveries' }));
    const items = await dialog.findAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByText('Pending')).toBeInTheDocument();
    expect(within(items[0]!).getByText('503 busy')).toBeInTheDocument();
    expect(within(items[1]!).getByText('Succeeded')).toBeInTheDocument();
    await userEvent.click(
      within(items[0]!).getByRole('button', { name: 'Retry delivery of msg_0a1b2c' }),
    );
    expect(
      await screen.findByText('The delivery will be sent again in a moment.'),
    ).toBeInTheDocument();
    expect(retries).toHaveLength(1);
  });

  it('shows a delivery log that fails to load with a retry', async () => {
    await openWebhooks([endpoint()]);
    answer('get', '/api/v1/webhooks/7/deliveries', () => errorBody(404, 'RECORD_NOT_FOUND'));
    await openActions();
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Deliveries' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Deliveries' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent(/./);
    expect(dialog.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
