import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { LOGIN_USERNAME_MAX } from '@app/contract/constants';
import { queryClient } from '@/lib/query-client';
import { keepPrerenderedInput } from '@/lib/prerendered';
import { server } from '@/test/server';
import { LoginForm } from './login-form';

/** The form alone; every body the server receives is kept. */
function renderForm() {
  const bodies: unknown[] = [];
  server.use(
    http.post('/api/v1/iam/login', async ({ request }) => {
      bodies.push(await request.json());
      return HttpResponse.json({ data: { user: null } });
    }),
  );
  const onSuccess = vi.fn();
  render(
    <QueryClientProvider client={queryClient}>
      <LoginForm onSuccess={onSuccess} />
    </QueryClientProvider>,
  );
  return { bodies, onSuccess };
}

describe('the login form, without a form or schema library (decision 0026)', () => {
  it('checks as loginBodySchema does, focuses the first wrong field and sends nothing', async () => {
    const { bodies } = renderForm();
    const username = screen.getByLabelText('Username or email');
    const password = screen.getByLabelText('Password', { selector: 'input' });
    await userEvent.type(password, 'Demo@2026');
    await userEvent.type(username, 'a'.repeat(LOGIN_USERNAME_MAX + 1));
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(username).toHaveAttribute('aria-invalid', 'true');
    expect(username).toHaveAccessibleDescription(`Enter at most ${LOGIN_USERNAME_MAX} characters`);
    expect(username).toHaveFocus();
    expect(password).toHaveAttribute('aria-invalid', 'false');
    expect(bodies).toEqual([]);
  });

  it('checks each field again as it changes once submitted, then sends the username trimmed', async () => {
    const { bodies, onSuccess } = renderForm();
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      'Enter your username or email',
      'Enter a password',
    ]);
    await userEvent.type(screen.getByLabelText('Username or email'), '  admin ');
    expect(screen.queryByText('Enter your username or email')).not.toBeInTheDocument();
    expect(screen.getByText('Enter a password')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Password', { selector: 'input' }), 'Demo@2026');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(onSuccess).toHaveBeenCalledTimes(1));
    expect(bodies).toEqual([{ username: 'admin', password: 'Demo@2026' }]);
  });
});

describe('the login form over the pre-rendered sign-in page (decision 0037)', () => {
  it('keeps what was typed into the page it replaces, up to its mount, and the focus', async () => {
    // The page as login.en.html has it, before the app renders over it.
    const page = document.createElement('div');
    page.innerHTML =
      '<input name="username" value=""><input type="password" name="password" value="">';
    document.body.append(page);
    const [oldUsername, oldPassword] = page.querySelectorAll('input');
    await userEvent.type(oldUsername!, 'adm');
    keepPrerenderedInput(page);
    // Typing goes on while the app renders in the background.
    await userEvent.type(oldUsername!, 'in');
    await userEvent.type(oldPassword!, 'Demo@');
    page.remove();

    const { bodies } = renderForm();
    const username = screen.getByLabelText('Username or email');
    const password = screen.getByLabelText('Password', { selector: 'input' });
    expect(username).toHaveValue('admin');
    expect(password).toHaveValue('Demo@');
    expect(password).toHaveFocus();
    await userEvent.type(password, '2026{Enter}');
    await waitFor(() => expect(bodies).toEqual([{ username: 'admin', password: 'Demo@2026' }]));
  });

  it('takes them once: a later sign-in form starts empty', () => {
    renderForm();
    expect(screen.getByLabelText('Username or email')).toHaveValue('');
    expect(screen.getByLabelText('Username or email')).toHaveFocus();
  });
});
