import { ROLE_LABELS, type Role } from '@app/contract';
import type { Executor } from '../db/client';
import { createUserAccount } from '../modules/iam';
import type { AuthUser } from '../lib/principal';

/** One password for every demo account; the web app's browser tests sign in with these. */
export const DEMO_PASSWORD = 'Demo@2026';

/** The fixed demo sign-ins, one per role. */
export const DEMO_USERS: readonly { username: string; type: Role; employeeId?: string }[] = [
  { username: 'admin', type: 'admin' },
  { username: 'grouphr', type: 'super_hr' },
  { username: 'acme.admin', type: 'company_admin' },
  { username: 'acme.emp', type: 'company_employee', employeeId: 'E0001' },
  { username: 'shop.admin', type: 'merchant_admin' },
  { username: 'shop.sup', type: 'merchant_supervisor' },
  { username: 'shop.staff', type: 'merchant_staff' },
];

export interface DemoSignIn {
  username: string;
  password: string;
  type: Role;
  label: string;
}

/**
 * Creates the demo users: company roles in `companyId`, merchant roles in `merchantId`.
 * `skip` leaves out usernames already taken (an admin created from the environment).
 */
export async function createDemoUsers(
  executor: Executor,
  tenants: { companyId: number; merchantId: number },
  skip: ReadonlySet<string> = new Set(),
): Promise<{ users: AuthUser[]; signIns: DemoSignIn[] }> {
  const users: AuthUser[] = [];
  const signIns: DemoSignIn[] = [];
  for (const demo of DEMO_USERS) {
    if (skip.has(demo.username)) continue;
    const isCompanyRole = demo.type === 'company_admin' || demo.type === 'company_employee';
    const isMerchantRole = demo.type.startsWith('merchant_');
    users.push(
      await createUserAccount(executor, {
        username: demo.username,
        email: `${demo.username}@demo.example`,
        password: DEMO_PASSWORD,
        type: demo.type,
        status: 'active',
        companyId: isCompanyRole ? tenants.companyId : null,
        merchantId: isMerchantRole ? tenants.merchantId : null,
        employeeId: demo.employeeId ?? null,
      }),
    );
    signIns.push({
      username: demo.username,
      password: DEMO_PASSWORD,
      type: demo.type,
      label: ROLE_LABELS[demo.type].en,
    });
  }
  return { users, signIns };
}
