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

  it('keeps paths with encoded spaces, non-ASCII names and inner double slashes', () => {
    for (const from of ['/employees?search=Jane%20Doe', '/employees?search=%E5%BC%A0', '/a//b']) {
      expect(safeRedirect(from)).toBe(from);
    }
  });

  it.each([
    null,
    '',
    'dashboard',
    '//evil.example',
    '/\\evil.example',
    'https://evil.example',
    '/login?from=/x',
    '/login#x',
    // Issue 14: control characters and backslashes, raw or percent-encoded, and `//` once decoded.
    '/%09/example.org',
    '/%0a/example.org',
    '/%0D%0A/example.org',
    '/%00',
    '/%7f/example.org',
    '/\t/example.org',
    '/\n/example.org',
    '/%5c/example.org',
    '/%5C%5Cexample.org',
    '/a\\b',
    '/%2F/example.org',
    '/%2f%2fexample.org',
    '/%E0%A4%A',
    'javascript:alert(1)',
    ' /dashboard',
  ])('replaces %j with the dashboard', (from) => {
    expect(safeRedirect(from)).toBe('/dashboard');
  });
});
