import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Role } from '@app/contract';
import { SIDEBAR_COOKIE_MAX_AGE } from '@/components/ui/sidebar';
import { AppShell } from './app-shell';

function renderShell(role: Role, path = '/dashboard', navBadges?: { approvals?: number }) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AppShell role={role} userMenu={<span>menu</span>} navBadges={navBadges}>
        <p>page</p>
      </AppShell>
    </MemoryRouter>,
  );
}

const sidebarNav = () => screen.getByRole('navigation', { name: 'Main' });
const navLabels = () =>
  within(sidebarNav())
    .getAllByRole('link')
    .map((link) => link.textContent);
const sidebarState = () =>
  document.querySelector('[data-slot="sidebar"]')?.getAttribute('data-state') ?? null;

/** Records cookie writes while keeping them readable. */
function recordCookies() {
  const jar = new Map<string, string>();
  const writes: string[] = [];
  Object.defineProperty(document, 'cookie', {
    configurable: true,
    get: () => [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
    set: (value: string) => {
      writes.push(value);
      const [pair = ''] = value.split(';');
      const [name = '', cookieValue = ''] = pair.split('=');
      jar.set(name.trim(), cookieValue);
    },
  });
  return writes;
}

afterEach(() => {
  Reflect.deleteProperty(document, 'cookie');
});

describe('the sidebar', () => {
  it('shows an admin every admin entry in the spec order, without Employees', () => {
    renderShell('admin');
    expect(navLabels()).toEqual([
      'Dashboard',
      'Merchants',
      'Companies',
      'Terminals',
      'User Management',
      'Company Transaction',
      'Employee Transaction',
      'Summary Report',
      'Reset Period Date',
      'Holidays',
      'Identity Providers',
      'Order History',
      'Approvals',
      'Audit Log',
      'Spending Rules',
      'Settlements',
      'Webhooks',
    ]);
    expect(within(sidebarNav()).getByRole('button', { name: 'Token Transaction' })).toBeVisible();
  });

  it('shows a company admin Employees (active only) and hides the admin-only entries', () => {
    renderShell('company_admin');
    expect(navLabels()).toEqual([
      'Dashboard',
      'Employees',
      'Company Transaction',
      'Employee Transaction',
      'Summary Report',
      'Approvals',
      'Audit Log',
      'Spending Rules',
      'Webhooks',
      'Provisioning',
    ]);
    expect(within(sidebarNav()).getByRole('link', { name: 'Employees' })).toHaveAttribute(
      'href',
      '/employees?status=active',
    );
  });

  it('shows Group HR the companies, the order history, the audit log and the settlements', () => {
    renderShell('super_hr');
    expect(navLabels()).toEqual([
      'Dashboard',
      'Companies',
      'Company Transaction',
      'Employee Transaction',
      'Summary Report',
      'Order History',
      'Approvals',
      'Audit Log',
      'Spending Rules',
      'Settlements',
    ]);
  });

  it('shows the pending approvals beside Approvals, with words for screen readers, and none at 0', () => {
    const { unmount } = renderShell('company_admin', '/dashboard', { approvals: 3 });
    const link = within(sidebarNav()).getByRole('link', { name: /Approvals/ });
    expect(link).toHaveAttribute('href', '/approvals');
    expect(within(link).getByTestId('nav-badge-approvals')).toHaveTextContent(
      '33 waiting for your decision',
    );
    unmount();
    renderShell('company_admin', '/dashboard', { approvals: 0 });
    expect(screen.queryByTestId('nav-badge-approvals')).toBeNull();
  });

  it('marks the current entry', () => {
    renderShell('admin', '/merchants');
    expect(within(sidebarNav()).getByRole('link', { name: 'Merchants' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(within(sidebarNav()).getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute(
      'aria-current',
    );
  });

  it('links the wordmark to the first entry the role may open', () => {
    renderShell('merchant_staff', '/employee-transaction');
    expect(screen.getByRole('link', { name: 'Token Back Office, home' })).toHaveAttribute(
      'href',
      '/dashboard',
    );
  });

  it('collapses with the trigger and keeps the state in the sidebar_state cookie for 7 days', async () => {
    const writes = recordCookies();
    renderShell('admin');
    const trigger = screen.getByRole('button', { name: 'Toggle sidebar' });
    expect(sidebarState()).toBe('expanded');
    expect(trigger).toHaveAttribute('aria-expanded', 'true');

    await userEvent.click(trigger);
    expect(sidebarState()).toBe('collapsed');
    expect(trigger).toHaveAttribute('aria-expanded', 'false');
    expect(writes).toEqual([
      `sidebar_state=false; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE}; SameSite=Lax`,
    ]);
    expect(SIDEBAR_COOKIE_MAX_AGE).toBe(7 * 24 * 60 * 60);
  });

  it('starts collapsed when the cookie says so', () => {
    document.cookie = 'sidebar_state=false; path=/';
    renderShell('admin');
    expect(sidebarState()).toBe('collapsed');
  });

  it('collapsed, shows the title of an entry beside it once hovered', async () => {
    document.cookie = 'sidebar_state=false; path=/';
    renderShell('admin');
    const merchants = () => screen.getByRole('link', { name: 'Merchants' });
    // The tooltips join the entries when their code has arrived.
    await waitFor(() => expect(merchants()).toHaveAttribute('data-state', 'closed'));
    fireEvent.pointerMove(merchants(), { pointerType: 'mouse' });
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Merchants');
  });

  it('collapsed, opens the entries of a group in a menu beside its icon', async () => {
    document.cookie = 'sidebar_state=false; path=/';
    renderShell('admin', '/company-transaction');
    const group = () => screen.getByRole('button', { name: 'Token Transaction' });
    await waitFor(() => expect(group()).toHaveAttribute('aria-haspopup', 'menu'));
    await userEvent.click(group());
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Token Transaction')).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Company Transaction' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(within(menu).getByRole('menuitem', { name: 'Employee Transaction' })).toHaveAttribute(
      'href',
      '/employee-transaction',
    );
  });

  it('toggles with Ctrl+B and Cmd+B', async () => {
    const user = userEvent.setup();
    renderShell('admin');
    await user.keyboard('{Control>}b{/Control}');
    expect(sidebarState()).toBe('collapsed');
    await user.keyboard('{Meta>}b{/Meta}');
    expect(sidebarState()).toBe('expanded');
    await user.keyboard('b');
    expect(sidebarState()).toBe('expanded');
  });

  it('opens as a sheet below 768px', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(max-width: 767px)',
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    }));
    renderShell('admin');
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Toggle sidebar' }));
    const sheet = await screen.findByRole('dialog', { name: 'Sidebar' });
    expect(within(sheet).getByRole('link', { name: 'Merchants' })).toBeInTheDocument();

    await userEvent.click(within(sheet).getByRole('link', { name: 'Merchants' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Sidebar' })).not.toBeInTheDocument(),
    );
  });
});
