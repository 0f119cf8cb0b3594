import { LayoutDashboard } from 'lucide-react';
import { describe, expect, it } from 'vitest';
import { firstNavUrl, NAV_ITEMS, navItemsFor, type NavItem } from './nav';

const titles = (items: NavItem[]) => items.map((item) => item.titleKey);

describe('the sidebar entries', () => {
  it('follow the spec order', () => {
    expect(titles(NAV_ITEMS)).toEqual([
      'nav.dashboard',
      'nav.till',
      'nav.employees',
      'nav.merchants',
      'nav.companies',
      'nav.terminals',
      'nav.users',
      'nav.token_transaction',
      'nav.summary_report',
      'nav.reset_period_date',
      'nav.holidays',
      'nav.identity_providers',
      'nav.order_history',
      'nav.approvals',
      'nav.audit_log',
      'spending_rules.nav',
      'nav.settlements',
      'nav.webhooks',
      'nav.provisioning',
    ]);
  });

  it('give Spending Rules to the admin, Group HR and company admins (DESIGN 7)', () => {
    for (const role of ['admin', 'super_hr', 'company_admin']) {
      expect(titles(navItemsFor(role)), role).toContain('spending_rules.nav');
    }
    for (const role of ['merchant_admin', 'merchant_staff', 'company_employee']) {
      expect(titles(navItemsFor(role)), role).not.toContain('spending_rules.nav');
    }
  });

  it('give Provisioning to company admins only (decision 0087)', () => {
    expect(titles(navItemsFor('company_admin'))).toContain('nav.provisioning');
    for (const role of ['admin', 'super_hr', 'merchant_admin', 'company_employee']) {
      expect(titles(navItemsFor(role)), role).not.toContain('nav.provisioning');
    }
  });

  it('give Identity Providers to the Super Admin only (decision 0086)', () => {
    expect(titles(navItemsFor('admin'))).toContain('nav.identity_providers');
    for (const role of ['super_hr', 'company_admin', 'merchant_admin', 'company_employee']) {
      expect(titles(navItemsFor(role)), role).not.toContain('nav.identity_providers');
    }
  });

  it('give Webhooks to the admin, merchant admins and company admins (decision 0038)', () => {
    for (const role of ['admin', 'merchant_admin', 'company_admin']) {
      expect(titles(navItemsFor(role)), role).toContain('nav.webhooks');
    }
    for (const role of ['super_hr', 'merchant_supervisor', 'merchant_staff', 'company_employee']) {
      expect(titles(navItemsFor(role)), role).not.toContain('nav.webhooks');
    }
  });

  it('give Settlements to the admin, Group HR and the merchant admin (decisions 0040, DESIGN 8)', () => {
    for (const role of ['admin', 'super_hr', 'merchant_admin']) {
      expect(titles(navItemsFor(role)), role).toContain('nav.settlements');
    }
    for (const role of [
      'company_admin',
      'company_employee',
      'merchant_supervisor',
      'merchant_staff',
    ]) {
      expect(titles(navItemsFor(role)), role).not.toContain('nav.settlements');
    }
  });

  it('give the Audit Log to the admin, Group HR and company admins (decision 0036)', () => {
    for (const role of ['admin', 'super_hr', 'company_admin']) {
      expect(titles(navItemsFor(role)), role).toContain('nav.audit_log');
    }
    for (const role of ['merchant_admin', 'merchant_staff', 'company_employee']) {
      expect(titles(navItemsFor(role)), role).not.toContain('nav.audit_log');
    }
  });

  it('give Holidays to the admin alone (DESIGN 7)', () => {
    expect(titles(navItemsFor('admin'))).toContain('nav.holidays');
    for (const role of [
      'super_hr',
      'company_admin',
      'merchant_admin',
      'merchant_supervisor',
      'merchant_staff',
      'company_employee',
    ]) {
      expect(titles(navItemsFor(role)), role).not.toContain('nav.holidays');
    }
  });

  it('give merchant supervisors, staff and employees no entry that is always empty (issue 43)', () => {
    const children = (role: string) =>
      navItemsFor(role).flatMap((item) =>
        'items' in item ? item.items.map((child) => child.titleKey) : [],
      );
    for (const role of ['merchant_supervisor', 'merchant_staff']) {
      expect(titles(navItemsFor(role))).toEqual([
        'nav.dashboard',
        'nav.till',
        'nav.token_transaction',
      ]);
    }
    expect(titles(navItemsFor('company_employee'))).toEqual([
      'nav.dashboard',
      'nav.token_transaction',
    ]);
    // No wallet of a company to show them: only their orders' or their own ledger rows.
    for (const role of [
      'merchant_admin',
      'merchant_supervisor',
      'merchant_staff',
      'company_employee',
    ]) {
      expect(children(role), role).toEqual(['nav.employee_transaction']);
    }
    for (const role of ['admin', 'super_hr', 'company_admin']) {
      expect(children(role), role).toEqual(['nav.company_transaction', 'nav.employee_transaction']);
      expect(titles(navItemsFor(role)), role).toContain('nav.summary_report');
    }
  });

  it('give the merchant admin the Users entry for its staff', () => {
    expect(titles(navItemsFor('merchant_admin'))).toEqual([
      'nav.dashboard',
      'nav.till',
      'nav.users',
      'nav.token_transaction',
      'nav.settlements',
      'nav.webhooks',
    ]);
  });

  it('give a role nobody knows nothing', () => {
    expect(navItemsFor('hacker')).toEqual([]);
    expect(navItemsFor(undefined)).toEqual([]);
  });
});

describe('the wordmark target', () => {
  const items: NavItem[] = [
    { titleKey: 'a', url: '/merchants', icon: LayoutDashboard, permission: 'merchants.view' },
    {
      titleKey: 'b',
      url: '/token-transaction',
      icon: LayoutDashboard,
      permission: 'token_transaction.view',
      items: [{ titleKey: 'c', url: '/company-transaction' }],
    },
  ];

  it('is the first entry the role may open', () => {
    expect(firstNavUrl('admin', items)).toBe('/merchants');
  });

  it('is the first sub-entry when the first allowed entry is a group', () => {
    expect(firstNavUrl('company_admin', items)).toBe('/company-transaction');
  });

  it('is the dashboard for the real sidebar', () => {
    expect(firstNavUrl('company_admin')).toBe('/dashboard');
  });
});
