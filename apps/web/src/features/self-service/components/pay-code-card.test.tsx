import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Secret, TOTP } from 'otpauth';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PayDevice, Wallet } from '@app/contract';
import { answer, signedIn } from '@/test/api';
import { renderApp } from '@/test/render';

/** RFC 6238's SHA-1 test secret ("12345678901234567890"), base32. */
const SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const DEVICE_ID = '412345678901';

const wallet: Wallet = {
  available_tokens: 1250,
  token_month: '2005-03',
  next_reset_at: '2005-04-01T00:00:00.000Z',
  expiring_tokens: 1250,
  spent_tokens: 0,
  company_code: 'ACME',
  company_name: 'Acme',
  employee_id: 'E0001',
  name: 'Alice Tan',
};

const listed = (overrides: Partial<PayDevice> = {}): PayDevice => ({
  device_id: DEVICE_ID,
  name: 'Chrome on Android',
  created_at: '2005-03-18T01:00:00.000Z',
  last_used_at: null,
  ...overrides,
});

/** The TOTP otpauth computes on its own, for the check of the card's digits. */
const totpAt = (timestamp: number) =>
  new TOTP({
    secret: Secret.fromBase32(SECRET),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
  }).generate({ timestamp });

function openWallet(devices: PayDevice[]) {
  const user = signedIn('company_employee', { company_id: 1 });
  answer('get', '/api/v1/me/wallet', { data: wallet });
  answer('get', '/api/v1/tokens/transactions', { data: [], next_cursor: null });
  const lists = answer('get', '/api/v1/me/pay-devices', { data: devices });
  renderApp('/dashboard', { user });
  return { user, lists };
}

describe('the pay code card', () => {
  afterEach(() => vi.useRealTimers());

  it('draws the device number and the RFC 6238 code of the clock, and the next one at the step', async () => {
    // Date and the card's one-second clock are faked; promises and other timers run as usual.
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    // RFC 6238 appendix B: T = 1111111109 s gives 07081804 (8 digits), so 081804 in 6.
    const at = 1_111_111_109_000;
    vi.setSystemTime(at);
    const user = signedIn('company_employee', { company_id: 1 });
    localStorage.setItem(
      `pay-device:${user.user_id}`,
      JSON.stringify({ device_id: DEVICE_ID, secret: SECRET, name: 'Chrome on Android' }),
    );
    answer('get', '/api/v1/me/wallet', { data: wallet });
    answer('get', '/api/v1/tokens/transactions', { data: [], next_cursor: null });
    answer('get', '/api/v1/me/pay-devices', { data: [listed()] });
    renderApp('/dashboard', { user });

    const digits = await screen.findByTestId('pay-code-digits');
    expect(totpAt(at)).toBe('081804');
    expect(digits).toHaveTextContent(/^412345 678901 081804$/);
    expect(screen.getByTestId('pay-code-qr')).toHaveAttribute('data-code', `${DEVICE_ID}081804`);
    // 1111111109 is the step's last second.
    expect(screen.getByTestId('pay-code-countdown')).toHaveTextContent('Changes in 1 second');

    act(() => vi.advanceTimersByTime(1000));
    const next = totpAt(at + 1000);
    expect(next).not.toBe('081804');
    expect(screen.getByTestId('pay-code-digits')).toHaveTextContent(`412345 678901 ${next}`);
    expect(screen.getByTestId('pay-code-qr')).toHaveAttribute('data-code', `${DEVICE_ID}${next}`);
    expect(screen.getByTestId('pay-code-countdown')).toHaveTextContent('Changes in 30 seconds');
    expect(
      within(await screen.findByTestId('pay-devices')).getByText('This phone'),
    ).toBeInTheDocument();
  });

  it('registers this phone, keeps its secret here and draws its code', async () => {
    const { user } = openWallet([]);
    const posts = answer('post', '/api/v1/me/pay-devices', () =>
      Response.json(
        {
          data: {
            ...listed({ name: 'My phone' }),
            secret: SECRET,
            period: 30,
            digits: 6,
            algorithm: 'SHA1',
          },
        },
        { status: 201 },
      ),
    );
    const name = await screen.findByLabelText('Name of this phone');
    await userEvent.clear(name);
    await userEvent.type(name, 'My phone');
    answer('get', '/api/v1/me/pay-devices', { data: [listed({ name: 'My phone' })] });
    await userEvent.click(screen.getByRole('button', { name: 'Set up paying with this phone' }));

    const digits = await screen.findByTestId('pay-code-digits');
    expect(posts.map((call) => call.body)).toEqual([{ name: 'My phone' }]);
    expect(JSON.parse(localStorage.getItem(`pay-device:${user.user_id}`)!)).toEqual({
      device_id: DEVICE_ID,
      secret: SECRET,
      name: 'My phone',
    });
    expect(digits.textContent!.replace(/\s/g, '')).toMatch(new RegExp(`^${DEVICE_ID}\\d{6}$`));
  });

  it('removes a phone after a confirmation, and forgets it here when it is this one', async () => {
    const user = signedIn('company_employee', { company_id: 1 });
    localStorage.setItem(
      `pay-device:${user.user_id}`,
      JSON.stringify({ device_id: DEVICE_ID, secret: SECRET, name: 'Chrome on Android' }),
    );
    answer('get', '/api/v1/me/wallet', { data: wallet });
    answer('get', '/api/v1/tokens/transactions', { data: [], next_cursor: null });
    answer('get', '/api/v1/me/pay-devices', { data: [listed()] });
    const deletes = answer(
      'delete',
      `/api/v1/me/pay-devices/${DEVICE_ID}`,
      () => new Response(null, { status: 204 }),
    );
    renderApp('/dashboard', { user });

    await screen.findByTestId('pay-code-digits');
    await userEvent.click(await screen.findByRole('button', { name: 'Remove Chrome on Android' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Chrome on Android will no longer pay');
    answer('get', '/api/v1/me/pay-devices', { data: [] });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));

    expect(
      await screen.findByRole('button', { name: 'Set up paying with this phone' }),
    ).toBeInTheDocument();
    expect(deletes).toHaveLength(1);
    expect(localStorage.getItem(`pay-device:${user.user_id}`)).toBeNull();
    expect(screen.queryByTestId('pay-code-digits')).not.toBeInTheDocument();
  });
});
