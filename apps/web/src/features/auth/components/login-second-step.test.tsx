import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { i18n } from '@/locales/i18n';
import { answer, errorBody } from '@/test/api';
import { buildUser } from '@/test/fixtures';
import { locationOf, renderApp } from '@/test/render';

/** The password step answers that a second step is due. */
function passwordNeedsSecondStep() {
  return answer('post', '/api/v1/iam/login', { data: { mfa_required: true } });
}

async function typePassword(submit = 'Sign in') {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText(/Username or email|用户名或邮箱/), 'hr.lee');
  await user.type(screen.getByLabelText(/^Password$|^密码$/), 'Demo@2026');
  await user.click(screen.getByRole('button', { name: submit }));
  return user;
}

describe('the second sign-in step', () => {
  it('asks for the authenticator code after the password, and signs in with it', async () => {
    const hr = buildUser('super_hr', { mfa_enabled: true, mfa_enrolment_required: false });
    passwordNeedsSecondStep();
    const second = answer('post', '/api/v1/iam/login/mfa', { data: { user: hr } });
    answer('get', '/api/v1/iam/self-info', { data: hr });
    const { router } = renderApp(`/login?from=${encodeURIComponent('/two-factor')}`);
    const user = await typePassword();

    const code = await screen.findByLabelText('Authentication code');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveFocus();
    expect(useAuthStore.getState().isAuthenticated).toBe(false);

    await user.type(code, '12a');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter the 6-digit code');
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(second).toHaveLength(0);

    await user.clear(code);
    await user.type(code, '123 456{Enter}');
    await waitFor(() => expect(useAuthStore.getState().isAuthenticated).toBe(true));
    expect(second.map((c) => c.body)).toEqual([{ code: '123456' }]);
    await waitFor(() => expect(locationOf(router)).toBe('/two-factor'));
  });

  it('says a wrong code under the field, with no session-expired alert', async () => {
    passwordNeedsSecondStep();
    answer('post', '/api/v1/iam/login/mfa', () => errorBody(400, 'MFA_CODE_INVALID'));
    renderApp('/login');
    const user = await typePassword();
    await user.type(await screen.findByLabelText('Authentication code'), '000000{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The code is not valid. Check your authenticator app and try again.',
    );
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Verify' })).toBeEnabled();
  });

  it('takes a recovery code instead when switched', async () => {
    const hr = buildUser('super_hr');
    passwordNeedsSecondStep();
    const second = answer('post', '/api/v1/iam/login/mfa', { data: { user: hr } });
    answer('get', '/api/v1/iam/self-info', { data: hr });
    renderApp('/login?from=%2Ftwo-factor');
    const user = await typePassword();
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    const field = screen.getByLabelText('Recovery code');
    expect(field).not.toHaveAttribute('inputmode');
    await user.type(field, 'abcde-fghjk{Enter}');
    await waitFor(() => expect(second).toHaveLength(1));
    expect(second[0]!.body).toEqual({ recovery_code: 'abcde-fghjk' });
  });

  it('goes back to the password when the sign-in has expired or had too many wrong codes', async () => {
    passwordNeedsSecondStep();
    answer('post', '/api/v1/iam/login/mfa', () => errorBody(401, 'MFA_CHALLENGE_INVALID'));
    renderApp('/login');
    const user = await typePassword();
    await user.type(await screen.findByLabelText('Authentication code'), '111111{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This sign-in has expired or had too many wrong codes. Please sign in again.',
    );
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(screen.queryByLabelText('Authentication code')).not.toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('speaks Chinese', async () => {
    await i18n.changeLanguage('zh');
    passwordNeedsSecondStep();
    answer('post', '/api/v1/iam/login/mfa', () =>
      HttpResponse.json(
        { statusCode: 400, error: 'Bad Request', message: 'x', code: 'MFA_CODE_INVALID' },
        { status: 400 },
      ),
    );
    renderApp('/login');
    const user = await typePassword('登录');
    await user.type(await screen.findByLabelText('验证码'), '000000');
    await user.click(screen.getByRole('button', { name: '验证' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('验证码无效');
    expect(screen.getByRole('button', { name: '使用恢复码' })).toBeInTheDocument();
  });
});
