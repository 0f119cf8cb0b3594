import { act, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { SelfUser } from '@app/contract';
import { useAuthStore } from '@/lib/auth-store';
import { buildUser } from '@/test/fixtures';
import { locationOf, renderApp } from '@/test/render';
import { server } from '@/test/server';

const selfInfoAnswers = (user: SelfUser) =>
  http.get('/api/v1/iam/self-info', () => HttpResponse.json({ data: user }));

describe('route guards', () => {
  it('sends an unauthenticated visitor to /login with the path and search in from', async () => {
    const { router } = renderApp('/companies?page=2&status=active');
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe(
      `?from=${encodeURIComponent('/companies?page=2&status=active')}`,
    );
  });

  it('shows a loading screen while the session loads and no user id is known', async () => {
    const admin = buildUser('admin');
    let release!: () => void;
    const answered = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.get('/api/v1/iam/self-info', async () => {
        await answered;
        return HttpResponse.json({ data: admin });
      }),
    );
    useAuthStore.setState({ user: null, isAuthenticated: true });
    const { router } = renderApp('/dashboard');

    expect(await screen.findByRole('status')).toHaveTextContent('Loading…');
    expect(screen.queryByRole('heading', { name: 'Dashboard' })).not.toBeInTheDocument();

    release();
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(locationOf(router)).toBe('/dashboard');
    expect(useAuthStore.getState().user).toEqual(admin);
  });

  it('sends a role without access to /error/403', async () => {
    const companyAdmin = buildUser('company_admin');
    server.use(selfInfoAnswers(companyAdmin));
    const { router } = renderApp('/merchants', { user: companyAdmin });
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
    expect(locationOf(router)).toBe('/error/403');
  });

  it('keeps the per-company summary report to admin and Group HR', async () => {
    const employee = buildUser('company_employee');
    server.use(selfInfoAnswers(employee));
    const { router } = renderApp('/summary-report/7', { user: employee });
    await waitFor(() => expect(locationOf(router)).toBe('/error/403'));
  });

  it('lets a role open the routes it is allowed', async () => {
    const companyAdmin = buildUser('company_admin');
    server.use(selfInfoAnswers(companyAdmin));
    const { router } = renderApp('/employees?status=active', { user: companyAdmin });
    expect(await screen.findByRole('heading', { name: 'Employees', level: 1 })).toBeInTheDocument();
    expect(locationOf(router)).toBe('/employees?status=active');
  });

  it('answers an unknown address in place, keeping and showing it, with a link home', async () => {
    const { router } = renderApp('/no/such/page?from=mail');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(locationOf(router)).toBe('/no/such/page?from=mail');
    expect(screen.getByTestId('not-found-address')).toHaveTextContent('/no/such/page?from=mail');
    expect(screen.getByRole('link', { name: 'Go to homepage' })).toHaveAttribute('href', '/');
  });

  it('redirects / to the dashboard', async () => {
    const admin = buildUser('admin');
    server.use(selfInfoAnswers(admin));
    const { router } = renderApp('/', { user: admin });
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(locationOf(router)).toBe('/dashboard');
  });

  it('opens the company transactions for the token-transaction group', async () => {
    const companyAdmin = buildUser('company_admin');
    server.use(selfInfoAnswers(companyAdmin));
    const { router } = renderApp('/token-transaction', { user: companyAdmin });
    expect(
      await screen.findByRole('heading', { name: 'Company Transaction', level: 1 }),
    ).toBeInTheDocument();
    expect(locationOf(router)).toBe('/company-transaction');
  });

  it('opens the employee transactions for a role without a company wallet to see (issue 43)', async () => {
    const employee = buildUser('company_employee');
    server.use(selfInfoAnswers(employee));
    const { router } = renderApp('/token-transaction', { user: employee });
    expect(
      await screen.findByRole('heading', { name: 'Employee Transaction', level: 1 }),
    ).toBeInTheDocument();
    expect(locationOf(router)).toBe('/employee-transaction');
    await act(() => router.navigate('/company-transaction'));
    await waitFor(() => expect(locationOf(router)).toBe('/error/403'));
  });

  it('signs out quietly to /login when the persisted session is no longer valid', async () => {
    const errors = vi.spyOn(console, 'error');
    server.use(
      http.get('/api/v1/iam/self-info', () =>
        HttpResponse.json(
          { statusCode: 401, error: 'Unauthorized', message: 'No session' },
          { status: 401 },
        ),
      ),
    );
    const { router } = renderApp('/companies', { user: buildUser('admin') });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe(`?from=${encodeURIComponent('/companies')}`);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(useAuthStore.getState().isAuthenticated).toBe(false);
    // The sign-out empties the query cache while the guards render; the navigation bar hears of
    // it after that render, not inside it (lib/query-client-registry.ts).
    const messages = errors.mock.calls.map((call) => String(call[0]));
    expect(messages.filter((message) => message.includes('Cannot update a component'))).toEqual([]);
  });

  it('takes the role from self-info when it changed since the last visit', async () => {
    const before = buildUser('admin');
    server.use(selfInfoAnswers({ ...before, type: 'company_admin' }));
    const { router } = renderApp('/merchants', { user: before });
    await waitFor(() => expect(locationOf(router)).toBe('/error/403'));
  });
});
