import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { MfaStatus } from '@app/contract';
import { browser } from '@/lib/browser';
import { useAuthStore } from '@/lib/auth-store';
import { i18n } from '@/locales/i18n';
import { answer, errorBody, signedIn } from '@/test/api';
import { locationOf, renderApp } from '@/test/render';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const ENROLMENT = {
  secret: SECRET,
  otpauth_url: `otpauth://totp/Token%20Back-office:hr%40example.com?issuer=Token%20Back-office&secret=${SECRET}&algorithm=SHA1&digits=6&period=30`,
};
const CODES = Array.from({ length: 10 }, (_, i) => `abcd${i + 2}-efgh${i + 2}`);

/** GET /iam/mfa answers `states` in turn (the last one from then on). */
function mfaStatus(...states: Partial<MfaStatus>[]) {
  let call = 0;
  return answer('get', '/api/v1/iam/mfa', () => {
    const state = states[Math.min(call, states.length - 1)];
    call += 1;
    return {
      data: {
        mfa_enabled: false,
        mfa_enrolment_required: false,
        recovery_codes_remaining: 0,
        ...state,
      },
    };
  });
}

describe('the two-factor page', () => {
  it('sets up TOTP: QR code and key, a code, then the ten recovery codes with copy and download', async () => {
    const user = userEvent.setup();
    const saveFile = vi.spyOn(browser, 'saveFile').mockImplementation(() => undefined);
    const copyText = vi.spyOn(browser, 'copyText').mockResolvedValue(undefined);
    mfaStatus({}, { mfa_enabled: true, recovery_codes_remaining: 10 });
    const started = answer('post', '/api/v1/iam/mfa/totp', { data: ENROLMENT });
    const verified = answer('post', '/api/v1/iam/mfa/totp/verify', (call) =>
      (call.body as { code: string }).code === '123456'
        ? { data: { recovery_codes: CODES } }
        : errorBody(400, 'MFA_CODE_INVALID'),
    );
    renderApp('/two-factor', { user: signedIn('super_hr') });

    await user.click(await screen.findByRole('button', { name: 'Set up two-factor sign-in' }));
    expect(started).toHaveLength(1);
    expect(
      await screen.findByRole('img', { name: 'QR code for your authenticator app' }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('totp-secret')).toHaveTextContent(
      'JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP',
    );

    const code = screen.getByLabelText('Authentication code');
    await user.type(code, '99{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter the 6-digit code');
    expect(verified).toHaveLength(0);
    await user.clear(code);
    await user.type(code, '654321{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('The code is not valid');
    await user.clear(code);
    await user.type(code, '123456{Enter}');

    const list = await screen.findByTestId('recovery-codes');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(CODES);
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(copyText).toHaveBeenCalledWith(`${CODES.join('\n')}\n`);
    expect(await screen.findByText('Copied to the clipboard.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Download (.txt)' }));
    const [blob, filename] = saveFile.mock.calls[0]!;
    expect(filename).toBe('recovery-codes.txt');
    expect(await blob.text()).toBe(`${CODES.join('\n')}\n`);

    await user.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect(await screen.findByTestId('two-factor-on')).toHaveTextContent(
      'Two-factor sign-in is on. 10 recovery codes left.',
    );
    expect(useAuthStore.getState().user?.mfa_enabled).toBe(true);
  });

  it('turns TOTP off with a code, and says a wrong one under the field', async () => {
    const user = userEvent.setup();
    mfaStatus({ mfa_enabled: true, recovery_codes_remaining: 3 }, { mfa_enabled: false });
    let attempt = 0;
    const calls = answer('delete', '/api/v1/iam/mfa/totp', () =>
      ++attempt === 1 ? errorBody(400, 'MFA_CODE_INVALID') : { data: { ok: true } },
    );
    answer('get', '/api/v1/iam/self-info', { data: signedIn('admin', { mfa_enabled: false }) });
    renderApp('/two-factor', { user: signedIn('admin', { mfa_enabled: true }) });

    expect(await screen.findByTestId('two-factor-on')).toHaveTextContent('3 recovery codes left');
    const field = screen.getByLabelText('Code or recovery code');
    await user.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter a code or a recovery code');
    await user.type(field, '111111{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('The code is not valid');
    await user.clear(field);
    await user.type(field, '222222{Enter}');
    expect(
      await screen.findByRole('button', { name: 'Set up two-factor sign-in' }),
    ).toBeInTheDocument();
    expect(calls.map((c) => c.body)).toEqual([{ code: '111111' }, { code: '222222' }]);
  });

  it('keeps a user who must enrol on this screen alone, then lets it in', async () => {
    const user = userEvent.setup();
    mfaStatus(
      { mfa_enrolment_required: true },
      { mfa_enabled: true, recovery_codes_remaining: 10 },
    );
    answer('post', '/api/v1/iam/mfa/totp', { data: ENROLMENT });
    answer('post', '/api/v1/iam/mfa/totp/verify', { data: { recovery_codes: CODES } });
    const { router } = renderApp('/companies', {
      user: signedIn('admin', { mfa_enabled: false, mfa_enrolment_required: true }),
    });

    expect(
      await screen.findByText('Your role requires two-factor sign-in. Set it up to continue.'),
    ).toBeInTheDocument();
    expect(locationOf(router)).toBe('/two-factor');
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Log out' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Set up two-factor sign-in' }));
    await user.type(await screen.findByLabelText('Authentication code'), '123456{Enter}');
    await user.click(await screen.findByRole('button', { name: 'I have saved them' }));
    await waitFor(() => expect(locationOf(router)).toBe('/dashboard'));
    expect(useAuthStore.getState().user?.mfa_enrolment_required).toBe(false);
  });

  it('speaks Chinese', async () => {
    await i18n.changeLanguage('zh');
    mfaStatus({});
    answer('post', '/api/v1/iam/mfa/totp', { data: ENROLMENT });
    renderApp('/two-factor', { user: signedIn('super_hr') });
    expect(
      await screen.findByRole('heading', { name: '两步验证登录', level: 1 }),
    ).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: '设置两步验证登录' }));
    expect(await screen.findByText('或手动输入此密钥：')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '确认并开启' })).toBeInTheDocument();
  });

  it('shows a failure to load, with a way to try again', async () => {
    let calls = 0;
    answer('get', '/api/v1/iam/mfa', () =>
      ++calls === 1
        ? errorBody(409, 'MFA_NOT_CONFIGURED')
        : {
            data: {
              mfa_enabled: false,
              mfa_enrolment_required: false,
              recovery_codes_remaining: 0,
            },
          },
    );
    renderApp('/two-factor', { user: signedIn('super_hr') });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Two-factor sign-in is not configured on this server.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(
      await screen.findByRole('button', { name: 'Set up two-factor sign-in' }),
    ).toBeInTheDocument();
  });
});
