import { describe, expect, it } from 'vitest';
import { ROLES, ROLE_SCOPE, type Role } from '@app/contract';
import type { AuthUser } from './principal';
import { AppError } from './app-error';
import { scopeOf } from './scope';

const user = (type: Role, extra: Partial<AuthUser> = {}): AuthUser => ({
  id: 1,
  type,
  username: 'someone',
  email: null,
  companyId: null,
  merchantId: null,
  employeeId: null,
  status: 'active',
  ...extra,
});

describe('scopeOf', () => {
  it('gives platform roles everything', () => {
    expect(scopeOf(user('admin'))).toEqual({ kind: 'all' });
    expect(scopeOf(user('super_hr'))).toEqual({ kind: 'all' });
  });

  it('holds a company admin to its company', () => {
    expect(scopeOf(user('company_admin', { companyId: 7 }))).toEqual({
      kind: 'company',
      companyId: 7,
    });
  });

  it('holds an employee to its own wallet', () => {
    expect(scopeOf(user('company_employee', { companyId: 7, employeeId: 'E0001' }))).toEqual({
      kind: 'self',
      companyId: 7,
      employeeId: 'E0001',
    });
  });

  it('holds every merchant role to its merchant', () => {
    for (const type of ['merchant_admin', 'merchant_supervisor', 'merchant_staff'] as const) {
      expect(scopeOf(user(type, { merchantId: 3 }))).toEqual({ kind: 'merchant', merchantId: 3 });
    }
  });

  it('follows the contract for every role', () => {
    for (const type of ROLES) {
      const scope = scopeOf(user(type, { companyId: 1, merchantId: 1, employeeId: 'E1' }));
      expect(scope.kind).toBe(ROLE_SCOPE[type]);
    }
  });

  it('denies rather than widens when the tenant is missing or the role unknown', () => {
    expect(() => scopeOf(user('company_admin'))).toThrow(AppError);
    expect(() => scopeOf(user('company_employee', { companyId: 7 }))).toThrow(AppError);
    expect(() => scopeOf(user('merchant_staff'))).toThrow(AppError);
    expect(() => scopeOf(user('intruder' as Role))).toThrow(AppError);
  });
});
