import { ROLE_SCOPE } from '@app/contract';
import type { AuthUser } from './principal';
import { AppError } from './app-error';

/**
 * The slice of data a user may see, applied by repositories inside their queries
 * (DESIGN 2): a record outside it is simply not found (404 RECORD_NOT_FOUND).
 */
export type TenantScope =
  | { kind: 'all' }
  | { kind: 'company'; companyId: number }
  | { kind: 'merchant'; merchantId: number }
  | { kind: 'self'; companyId: number; employeeId: string };

/** A user whose row lacks the tenant its role needs sees nothing rather than everything. */
export function scopeOf(user: AuthUser): TenantScope {
  switch (ROLE_SCOPE[user.type]) {
    case 'all':
      return { kind: 'all' };
    case 'company':
      if (user.companyId != null) return { kind: 'company', companyId: user.companyId };
      break;
    case 'merchant':
      if (user.merchantId != null) return { kind: 'merchant', merchantId: user.merchantId };
      break;
    case 'self':
      if (user.companyId != null && user.employeeId != null) {
        return { kind: 'self', companyId: user.companyId, employeeId: user.employeeId };
      }
      break;
  }
  throw new AppError('PERMISSION_DENIED');
}

/**
 * The approvals a user sees (decision 0039), built on its tenant scope: the admin every request
 * (it decides top-ups), Group HR every company's distributions, a company admin its company's
 * distributions. Other roles have none (their routes refuse them before this).
 */
export interface ApprovalScope {
  kinds: ('top_up' | 'distribution')[];
  /** Only this company's requests; absent for all companies. */
  companyId?: number;
}

export function approvalScopeOf(user: AuthUser): ApprovalScope {
  const scope = scopeOf(user);
  if (user.type === 'admin' && scope.kind === 'all') return { kinds: ['top_up', 'distribution'] };
  if (user.type === 'super_hr' && scope.kind === 'all') return { kinds: ['distribution'] };
  if (user.type === 'company_admin' && scope.kind === 'company') {
    return { kinds: ['distribution'], companyId: scope.companyId };
  }
  throw new AppError('PERMISSION_DENIED');
}
