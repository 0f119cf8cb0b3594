import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '@/locales/i18n';
import { server } from '@/test/server';
import { useAlertStore } from './alert-store';
import type { ApiError } from './api-error';
import { transport } from './transport';

const stepUp = () =>
  HttpResponse.json(
    {
      statusCode: 401,
      error: 'Unauthorized',
      code: 'REAUTHENTICATION_REQUIRED',
      message: 'Confirm it is you',
      details: { within_seconds: 300 },
    },
    { status: 401 },
  );

/** An action that asks for a step-up until `/iam/reauthenticate` has been answered with 200. */
function stepUpServer(options: { mfa: boolean; rightSecret: string }) {
  let confirmed = false;
  const actions: Request[] = [];
  const proofs: unknown[] = [];
  server.use(
    http.get('/api/v1/iam/mfa', () =>
      HttpResponse.json({
        data: {
          mfa_enabled: options.mfa,
          mfa_enrolment_required: false,
          recovery_codes_remaining: 0,
        },
      }),
    ),
    http.post('/api/v1/iam/reauthenticate', async ({ request }) => {
      const body = (await request.json()) as { password?: string; code?: string };
      proofs.push(body);
      if ((body.password ?? body.code) !== options.rightSecret) {
        return HttpResponse.json(
          {
            statusCode: 400,
            error: 'Bad Request',
            code: 'CURRENT_PASSWORD_INVALID',
            message: 'Your current password is not correct.',
            // As the API answers it: the field's message, rendered in the caller's language.
            metadata: { current_password: 'Enter the password you sign in with now' },
          },
          { status: 400 },
        );
      }
      confirmed = true;
      return HttpResponse.json({
        data: { authenticated_at: new Date().toISOString(), factor: 'password' },
      });
    }),
    http.put('/api/v1/companies/1/spending-rules', async ({ request }) => {
      actions.push(request.clone());
      if (!confirmed) return stepUp();
      return HttpResponse.json({ data: { ok: true, sent: await request.json() } });
    }),
  );
  return { actions, proofs };
}

describe('step-up in place (DESIGN 9)', () => {
  afterEach(() => i18n.changeLanguage('en'));

  it('asks for the password over the page, then sends the same request again and answers it', async () => {
    const user = userEvent.setup();
    const { actions, proofs } = stepUpServer({ mfa: false, rightSecret: 'Passw0rd!' });
    const body = { daily_limit: 25, note: 'typed by the user' };
    const pending = transport.put<{ data: { sent: unknown } }>(
      '/api/v1/companies/1/spending-rules',
      body,
      { headers: { 'Idempotency-Key': 'key-1' } },
    );
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    // No "session expired": the session is fine.
    expect(useAlertStore.getState().queue).toEqual([]);
    const field = await within(dialog).findByLabelText('Password');
    await waitFor(() => expect(field).toBeEnabled());
    await user.type(field, 'wrong');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm and continue' }));
    // The field's message alone, without the API's name for the field.
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toBe('Enter the password you sign in with now');
    await user.type(within(dialog).getByLabelText('Password'), 'Passw0rd!');
    await user.keyboard('{Enter}');
    const answer = await pending;
    expect(answer.data.data.sent).toEqual(body);
    expect(proofs).toEqual([{ password: 'wrong' }, { password: 'Passw0rd!' }]);
    // The first try and its retry: the same body and the same Idempotency-Key.
    expect(actions).toHaveLength(2);
    expect(actions.map((r) => r.headers.get('idempotency-key'))).toEqual(['key-1', 'key-1']);
    expect(await Promise.all(actions.map((r) => r.json()))).toEqual([body, body]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('asks a user with two-factor sign-in for a code, in Chinese too, and gives the refusal back on cancel', async () => {
    await i18n.changeLanguage('zh');
    const user = userEvent.setup();
    const { actions, proofs } = stepUpServer({ mfa: true, rightSecret: '123456' });
    const pending = transport
      .put('/api/v1/companies/1/spending-rules', { daily_limit: 1 })
      .catch((error: unknown) => error as ApiError);
    const dialog = await screen.findByRole('dialog', { name: '请确认是您本人' });
    expect(await within(dialog).findByLabelText('验证码')).toHaveAttribute(
      'autocomplete',
      'one-time-code',
    );
    await user.click(within(dialog).getByRole('button', { name: '取消' }));
    const error = await pending;
    expect(error).toMatchObject({ status: 401, code: 'REAUTHENTICATION_REQUIRED' });
    expect(actions).toHaveLength(1);
    expect(proofs).toEqual([]);
  });
});
