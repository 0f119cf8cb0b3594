import { describe, expect, it } from 'vitest';
import { paths, safeRedirect } from './paths';

describe('paths', () => {
  it('puts the attempted location into the login address', () => {
    expect(paths.login.getHref('/dashboard')).toBe('/login?from=%2Fdashboard');
    expect(paths.login.getHref('/companies?page=2')).toBe('/login?from=%2Fcompanies%3Fpage%3D2');
    expect(paths.login.getHref()).toBe('/login');
  });

  it('links employees with the active filter and a company summary by id', () => {
    expect(paths.employees.getHref({ status: 'active' })).toBe('/employees?status=active');
    expect(paths.summaryReportCompany.getHref(12)).toBe('/summary-report/12');
  });

  it('links a list filtered to one merchant or company', () => {
    expect(paths.users.getHref()).toBe('/user');
    expect(paths.users.getHref({ merchant_id: 3 })).toBe('/user?merchant_id=3');
    expect(paths.terminals.getHref({ merchant_id: 3 })).toBe('/terminals?merchant_id=3');
    expect(paths.orderHistory.getHref({ company_id: 2 })).toBe('/order-history?company_id=2');
    expect(paths.orderHistory.getHref({ merchant_id: undefined })).toBe('/order-history');
  });
});

describe('safeRedirect', () => {
  it('keeps a same-origin relative path with its search', () => {
    expect(safeRedirect('/companies?page=2')).toBe('/companies?page=2');
  });

  it.each([
    null,
    '',
    'dashboard',
    '//evil.example',
    '/\\evil.example',
    'https://evil.example',
    '/login?from=/x',
  ])('replaces %s with the dashboard', (from) => {
    expect(safeRedirect(from)).toBe('/dashboard');
  });
});
