import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Role, SelfUser } from '@app/contract';
import { useAuthStore } from '@/lib/auth-store';
import { readCookie } from '@/lib/cookies';
import { queryClient } from '@/lib/query-client';
import { buildUser } from '@/test/fixtures';
import { locationOf, renderApp } from '@/test/render';
import { server } from '@/test/server';

async function openMenu(user: SelfUser) {
  server.use(http.get('/api/v1/iam/self-info', () => HttpResponse.json({ data: user })));
  const view = renderApp('/dashboard', { user });
  // Once its code is there (a press before is kept: components/layout/deferred-menu.test.tsx);
  // found before and pressed after the swap, the placeholder would be pressed out of the page.
  await waitFor(() =>
    expect(screen.getByRole('button', { name: /Open user menu/ })).toHaveAttribute(
      'aria-haspopup',
      'menu',
    ),
  );
  await userEvent.click(screen.getByRole('button', { name: /Open user menu/ }));
  return { ...view, menu: await screen.findByRole('menu') };
}

describe('the user menu', () => {
  it('shows the employee id, the username and the role badge', async () => {
    const { menu } = await openMenu(buildUser('admin', { username: 'admin', employee_id: 'HQ-1' }));
    expect(within(menu).getByTestId('user-menu-name')).toHaveTextContent('admin');
    expect(within(menu).getByText('Employee ID: HQ-1')).toBeInTheDocument();
    expect(within(menu).getByTestId('user-menu-badge')).toHaveTextContent('Admin');
  });

  it.each<[Role, string | null]>([
    ['super_hr', 'Group HR'],
    ['company_admin', 'Company'],
    ['merchant_staff', null],
  ])('gives %s the badge %s', async (role, badge) => {
    const { menu } = await openMenu(buildUser(role));
    if (badge) expect(within(menu).getByTestId('user-menu-badge')).toHaveTextContent(badge);
    else expect(within(menu).queryByTestId('user-menu-badge')).not.toBeInTheDocument();
  });

  it('shows the email when there is no username', async () => {
    const { menu } = await openMenu(
      buildUser('company_admin', { username: '', email: 'hr@acme.test' }),
    );
    expect(within(menu).getByTestId('user-menu-name')).toHaveTextContent('hr@acme.test');
  });

  it('switches to Chinese and keeps the choice in the lang cookie', async () => {
    await openMenu(buildUser('admin'));
    await userEvent.click(screen.getByRole('menuitemradio', { name: '中文' }));
    expect(await screen.findByRole('link', { name: '仪表盘' })).toBeInTheDocument();
    expect(readCookie('lang')).toBe('zh');
    expect(document.documentElement.lang).toBe('zh');
  });

  it('logs out: calls the server, forgets the session and opens /login without from', async () => {
    let loggedOut = 0;
    server.use(
      http.post('/api/v1/iam/logout', () => {
        loggedOut += 1;
        return HttpResponse.json({ data: { ok: true } });
      }),
    );
    const { router } = await openMenu(buildUser('admin'));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Log out' }));

    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    await waitFor(() => expect(useAuthStore.getState().isAuthenticated).toBe(false));
    expect(locationOf(router)).toBe('/login');
    expect(loggedOut).toBe(1);
    expect(queryClient.getQueryData(['self-info'])).toBeUndefined();
  });

  it('still logs out locally when the server call fails', async () => {
    server.use(
      http.post('/api/v1/iam/logout', () =>
        HttpResponse.json(
          { statusCode: 401, error: 'Unauthorized', message: 'No session' },
          { status: 401 },
        ),
      ),
    );
    const { router } = await openMenu(buildUser('admin'));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Log out' }));
    await waitFor(() => expect(useAuthStore.getState().isAuthenticated).toBe(false));
    expect(locationOf(router)).toBe('/login');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });
});
