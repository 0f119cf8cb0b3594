import { render, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { i18n } from '@/locales/i18n';
import { queryClient } from '@/lib/query-client';
import { buildUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { server } from '@/test/server';
import { AppBreadcrumb } from './app-breadcrumb';

const renderAt = (path: string) =>
  render(
    <MemoryRouter initialEntries={[path]}>
      <AppBreadcrumb />
    </MemoryRouter>,
  );

const crumbs = (label = 'Breadcrumb') =>
  within(screen.getByRole('navigation', { name: label }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

describe('the breadcrumb', () => {
  it('starts with Home and adds one crumb per path part', () => {
    renderAt('/order-history');
    expect(crumbs()).toEqual(['Home', 'Order History']);
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(screen.getByText('Order History')).toHaveAttribute('aria-current', 'page');
  });

  it('turns dashes and underscores into capitalised words', () => {
    renderAt('/reset-period-date/next_reset-day');
    expect(crumbs()).toEqual(['Home', 'Reset Period Date', 'Next Reset Day']);
    expect(screen.getByRole('link', { name: 'Reset Period Date' })).toHaveAttribute(
      'href',
      '/reset-period-date',
    );
  });

  it('reads user as User Management and role as Role Management', () => {
    renderAt('/user/role');
    expect(crumbs()).toEqual(['Home', 'User Management', 'Role Management']);
  });

  it('speaks the current language', async () => {
    await i18n.changeLanguage('zh');
    renderAt('/user');
    expect(crumbs('面包屑导航')).toEqual(['首页', '用户管理']);
  });
});

describe('the breadcrumb under summary-report', () => {
  const admin = buildUser('admin');
  const selfInfo = http.get('/api/v1/iam/self-info', () => HttpResponse.json({ data: admin }));

  it('shows the company name from the company details call', async () => {
    server.use(
      selfInfo,
      http.get('/api/v1/companies/7', () =>
        HttpResponse.json({ data: { id: 7, code: 'ACME', name: 'Acme Ltd' } }),
      ),
    );
    renderApp('/summary-report/7', { user: admin });
    const nav = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(await within(nav).findByText('Acme Ltd')).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Summary Report' })).toHaveAttribute(
      'href',
      '/summary-report',
    );
    expect(queryClient.getQueryData(['company-details', '7'])).toMatchObject({ name: 'Acme Ltd' });
    expect(
      queryClient.getQueryCache().find({ queryKey: ['company-details', '7'] })?.options,
    ).toMatchObject({ refetchOnWindowFocus: false });
  });

  it('shows the id while the name loads and when the call fails', async () => {
    server.use(
      selfInfo,
      http.get('/api/v1/companies/8', () =>
        HttpResponse.json(
          { statusCode: 404, error: 'Not Found', message: 'x', code: 'RECORD_NOT_FOUND' },
          { status: 404 },
        ),
      ),
    );
    renderApp('/summary-report/8', { user: admin });
    const nav = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(within(nav).getByText('8')).toHaveAttribute('aria-current', 'page');
    await expect
      .poll(() => queryClient.getQueryState(['company-details', '8'])?.status)
      .toBe('error');
    expect(within(nav).getByText('8')).toBeInTheDocument();
    expect(screen.queryByText('The requested record was not found.')).not.toBeInTheDocument();
  });

  it('does not ask for company details elsewhere', async () => {
    const requested: string[] = [];
    const record = ({ request }: { request: Request }) => {
      requested.push(new URL(request.url).pathname);
    };
    server.events.on('request:start', record);
    server.use(selfInfo);
    renderApp('/summary-report', { user: admin });
    const nav = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(within(nav).getByText('Summary Report')).toBeInTheDocument();
    await expect.poll(() => requested).toContain('/api/v1/iam/self-info');
    server.events.removeListener('request:start', record);
    expect(requested.filter((path) => path.startsWith('/api/v1/companies'))).toEqual([]);
    expect(queryClient.getQueryState(['company-details', undefined])?.fetchStatus).toBe('idle');
  });
});
