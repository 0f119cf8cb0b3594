import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { SelfUser } from '@app/contract';
import { useAuthStore } from '@/lib/auth-store';
import { i18n } from '@/locales/i18n';
import { buildUser } from '@/test/fixtures';
import { locationOf, renderApp } from '@/test/render';
import { server } from '@/test/server';

function acceptLogin(user: SelfUser, bodies: unknown[] = []) {
  server.use(
    http.post('/api/v1/iam/login', async ({ request }) => {
      bodies.push(await request.json());
      return HttpResponse.json({ data: { user } });
    }),
    http.get('/api/v1/iam/self-info', () => HttpResponse.json({ data: user })),
  );
}

async function signIn(username = 'admin', password = 'Demo@2026') {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Username or email'), username);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('the login page', () => {
  it('refuses to submit empty fields and says why, in the contract wording', async () => {
    const requests: string[] = [];
    server.events.on('request:start', ({ request }) => {
      requests.push(request.url);
    });
    renderApp('/login');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter your username or email')).toBeInTheDocument();
    expect(screen.getByText('Enter a password')).toBeInTheDocument();
    expect(screen.getByLabelText('Username or email')).toHaveAttribute('aria-invalid', 'true');
    expect(requests).toEqual([]);
    server.events.removeAllListeners();
  });

  it('shows the validation messages in Chinese', async () => {
    await i18n.changeLanguage('zh');
    renderApp('/login');
    await userEvent.click(await screen.findByRole('button', { name: '登录' }));
    expect(await screen.findByText('请输入用户名或邮箱')).toBeInTheDocument();
    expect(screen.getByText('请输入密码')).toBeInTheDocument();
  });

  it('switches the language from its menu', async () => {
    renderApp('/login');
    await userEvent.click(await screen.findByRole('button', { name: 'Change language' }));
    await userEvent.click(await screen.findByRole('menuitemradio', { name: '中文' }));
    expect(await screen.findByRole('button', { name: '登录' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('zh');
  });

  it('shows and hides the password', async () => {
    renderApp('/login');
    const password = await screen.findByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    await userEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    await userEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');
  });

  it('signs in and goes back to from', async () => {
    const admin = buildUser('admin');
    const bodies: unknown[] = [];
    acceptLogin(admin, bodies);
    const { router } = renderApp(`/login?from=${encodeURIComponent('/companies?page=2')}`);
    await signIn('  admin  ');

    expect(await screen.findByRole('heading', { name: 'Companies', level: 1 })).toBeInTheDocument();
    expect(locationOf(router)).toBe('/companies?page=2');
    expect(bodies).toEqual([{ username: 'admin', password: 'Demo@2026' }]);
    expect(useAuthStore.getState()).toMatchObject({ user: admin, isAuthenticated: true });
  });

  it.each(['//evil.example/dashboard', 'https://evil.example/', '/\\evil.example', 'dashboard'])(
    'ignores an unsafe from (%s) and opens the dashboard',
    async (from) => {
      acceptLogin(buildUser('admin'));
      const { router } = renderApp(`/login?from=${encodeURIComponent(from)}`);
      await signIn();
      expect(
        await screen.findByRole('heading', { name: 'Dashboard', level: 1 }),
      ).toBeInTheDocument();
      expect(locationOf(router)).toBe('/dashboard');
    },
  );

  it('shows the catalogue message when the credentials are wrong', async () => {
    server.use(
      http.post('/api/v1/iam/login', () =>
        HttpResponse.json(
          {
            statusCode: 401,
            error: 'Unauthorized',
            message: 'invalid credentials',
            code: 'INVALID_CREDENTIALS',
          },
          { status: 401 },
        ),
      ),
    );
    const { router } = renderApp('/login');
    await signIn('admin', 'wrong');
    expect(await screen.findByText('Incorrect username or password.')).toBeInTheDocument();
    // Said at the form, on the password, which has the focus; no toast, no dialog.
    const password = screen.getByLabelText('Password', { selector: 'input' });
    await waitFor(() => expect(password).toHaveFocus());
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAccessibleDescription('Incorrect username or password.');
    expect(screen.getAllByText('Incorrect username or password.')).toHaveLength(1);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign in' })).not.toBeDisabled());
    expect(locationOf(router)).toBe('/login');
    expect(useAuthStore.getState().isAuthenticated).toBe(false);
  });

  it('offers "Sign in with …" once the typed email is at a connected provider\'s domain', async () => {
    const asked: string[] = [];
    server.use(
      http.get('/api/v1/iam/oidc/providers', ({ request }) => {
        const email = new URL(request.url).searchParams.get('email') ?? '';
        asked.push(email);
        const provider = email.endsWith('contoso.com') ? { id: 7, name: 'Contoso Entra ID' } : null;
        return HttpResponse.json({ data: { provider } });
      }),
    );
    renderApp('/login?from=%2Fcompanies');
    const user = userEvent.setup();
    const box = await screen.findByLabelText('Username or email');
    await user.type(box, 'ann');
    expect(screen.queryByRole('link', { name: /Sign in with/ })).not.toBeInTheDocument();
    await user.type(box, '@contoso.com');
    const link = await screen.findByRole('link', { name: 'Sign in with Contoso Entra ID' });
    expect(link).toHaveAttribute(
      'href',
      '/api/v1/iam/oidc/7/start?from=%2Fcompanies&login_hint=ann%40contoso.com',
    );
    expect(asked).toEqual(['contoso.com']);
    await user.clear(box);
    await user.type(box, 'ann@example.com');
    await waitFor(() => expect(asked).toEqual(['contoso.com', 'example.com']));
    expect(screen.queryByRole('link', { name: /Sign in with/ })).not.toBeInTheDocument();
  });

  it('says why an OIDC sign-in was refused, and opens the second step when TOTP is still due', async () => {
    const { unmount } = renderApp('/login?sso_error=USER_INACTIVE');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      i18n.t('USER_INACTIVE', { ns: 'errors' }),
    );
    unmount();
    renderApp('/login?second_step=1');
    expect(await screen.findByText(i18n.t('two_factor.login_code_hint'))).toBeInTheDocument();
  });
});
