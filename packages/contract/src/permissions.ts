import { ROLES, type Role } from './constants';

const ALL = ROLES;

/**
 * The permission table: every action the product guards, and the roles allowed to do it.
 * Screens follow spec 6; API actions follow DESIGN 4. Anything absent is denied.
 */
export const PERMISSIONS = {
  // screens (spec 6 sidebar table)
  'dashboard.view': ALL,
  'token_transaction.view': ALL,
  // Issue 43: no menu entry that is always empty or answers 403. A merchant has no wallet and an
  // employee may not read its company's: Company Transaction is for those who hold or oversee one.
  // The Summary Report is a report of companies, which neither a merchant role nor an employee
  // reads (decision 0079 departs from spec 6's "all roles" here).
  'company_transaction.view': ['admin', 'super_hr', 'company_admin'],
  'summary_report.view': ['admin', 'super_hr', 'company_admin'],
  'summary_report.company.view': ['admin', 'super_hr'],
  'employees.view': ['company_admin'],
  'merchants.view': ['admin'],
  'terminals.view': ['admin'],
  'users.view': ['admin', 'merchant_admin'],
  'reset_period.view': ['admin'],
  'companies.view': ['admin', 'super_hr'],
  'order_history.view': ['admin', 'super_hr'],
  // Beyond the spec (DESIGN 6, decision 0036): each role sees the audit rows of its own scope.
  'audit_log.view': ['admin', 'super_hr', 'company_admin'],
  // Four-eyes approvals (DESIGN 6, decision 0039): the people who may decide some request.
  'approvals.view': ['admin', 'super_hr', 'company_admin'],
  // Integrations (DESIGN 6, decision 0038): webhook endpoints of the creator's scope.
  'webhooks.view': ['admin', 'merchant_admin', 'company_admin'],
  // DESIGN 6, decision 0040: a merchant's half-month statements; of the merchant roles, its admin
  // only (DESIGN 8: a cashier charges, a supervisor also refunds; neither reads the statements).
  'settlements.view': ['admin', 'super_hr', 'merchant_admin'],
  // Spending rules (DESIGN 7, issue 42): a company's rules and the holiday calendar.
  'spending_rules.view': ['admin', 'super_hr', 'company_admin'],
  'holidays.view': ['admin'],
  // The till (DESIGN 8): every merchant role charges; refunds are the supervisor's and the admin's.
  'till.view': ['merchant_admin', 'merchant_supervisor', 'merchant_staff'],
  // SCIM provisioning (DESIGN 9, decision 0087): the company admin's Provisioning screen.
  'provisioning.view': ['company_admin'],
  // OIDC sign-in (DESIGN 9, decision 0086): the identity providers screen, the Super Admin's.
  'identity_providers.view': ['admin'],
  'order_declines.view': [
    'admin',
    'super_hr',
    'company_admin',
    'merchant_admin',
    'merchant_supervisor',
  ],

  // API actions (DESIGN 4)
  'iam.self': ALL,
  'companies.read': ['admin', 'super_hr', 'company_admin'],
  'companies.write': ['admin', 'super_hr'],
  'company_admins.manage': ['admin', 'super_hr'],
  'employees.read': ['admin', 'super_hr', 'company_admin'],
  'employees.write': ['company_admin'],
  'employees.import': ['company_admin'],
  // Employee self-service (DESIGN 6): a company admin gives its employees a sign-in.
  'employees.account': ['company_admin'],
  'wallet.self': ['company_employee'],
  // Pay devices (DESIGN 8): the employee registers and removes its own; its company admin (and
  // the admin, Group HR) sees and removes them.
  'pay_devices.self': ['company_employee'],
  'pay_devices.manage': ['admin', 'super_hr', 'company_admin'],
  'till.charge': ['merchant_admin', 'merchant_supervisor', 'merchant_staff'],
  /** Refunds, and every terminal's orders of the day (not only the one the till charges through). */
  'till.refund': ['merchant_admin', 'merchant_supervisor'],
  'merchants.manage': ['admin'],
  'terminals.manage': ['admin'],
  // merchant_admin: its own merchant's supervisors and staff only (DESIGN 2, userTypesManagedBy).
  'users.manage': ['admin', 'merchant_admin'],
  // Another user's sign-in protections (their throttle, their second factor): the admin only, over
  // every user; a merchant admin's users.manage does not reach them.
  'users.sign_in_reset': ['admin'],
  'hrs.read': ['admin'],
  'tokens.issue_company': ['admin'],
  'tokens.distribute': ['company_admin'],
  'tokens.configuration': ['admin', 'super_hr', 'company_admin'],
  'tokens.transactions': ALL,
  'orders.admin': ['admin', 'super_hr'],
  'dashboard.read': ALL,
  'dashboard.summary': ['admin', 'super_hr'],
  'sys.current_period': ALL,
  'sys.manage': ['admin'],
  'identity_providers.manage': ['admin'],
  'jobs.run': ['admin'],
  'audit.read': ['admin', 'super_hr', 'company_admin'],
  'approvals.decide': ['admin', 'super_hr', 'company_admin'],
  'webhooks.manage': ['admin', 'merchant_admin', 'company_admin'],
  'settlements.read': ['admin', 'super_hr', 'merchant_admin'],
  // Spending rules (DESIGN 7): admin, Group HR and the company's own admins manage a company's
  // rules and its employees' exceptions; the admin keeps the holiday calendar; declines are read
  // in scope (merchant roles their own merchant's, the employee its own through its wallet).
  'spending_rules.read': ['admin', 'super_hr', 'company_admin'],
  'spending_rules.manage': ['admin', 'super_hr', 'company_admin'],
  'holidays.read': ALL,
  'holidays.manage': ['admin'],
  'orders.declines': [
    'admin',
    'super_hr',
    'company_admin',
    'merchant_admin',
    'merchant_supervisor',
    'company_employee',
  ],
  // SCIM tokens (DESIGN 9, decision 0087): a company admin its own company's, the admin any's.
  'scim_tokens.manage': ['admin', 'company_admin'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

/**
 * Each screen's permission, tied to the API permissions of what the screen reads and does: every
 * role that may open a screen may call its API (permissions.test.ts checks it), so a screen and
 * its endpoints cannot drift apart. The web app's routes and sidebar accept only these keys.
 */
export const SCREEN_PERMISSIONS = {
  'dashboard.view': ['dashboard.read', 'sys.current_period'],
  'token_transaction.view': ['tokens.transactions'],
  'company_transaction.view': ['tokens.transactions'],
  'summary_report.view': ['summary_report.view'],
  'summary_report.company.view': ['summary_report.company.view'],
  'employees.view': [
    'employees.read',
    'employees.write',
    'employees.import',
    'tokens.distribute',
    'employees.account',
  ],
  'merchants.view': ['merchants.manage'],
  'terminals.view': ['terminals.manage'],
  'users.view': ['users.manage'],
  'reset_period.view': ['sys.manage'],
  'companies.view': ['companies.read', 'companies.write', 'company_admins.manage'],
  'order_history.view': ['orders.admin'],
  'audit_log.view': ['audit.read'],
  'approvals.view': ['approvals.decide'],
  'webhooks.view': ['webhooks.manage'],
  'settlements.view': ['settlements.read'],
  'spending_rules.view': ['spending_rules.read', 'spending_rules.manage', 'holidays.read'],
  'holidays.view': ['holidays.read', 'holidays.manage'],
  'order_declines.view': ['orders.declines'],
  'till.view': ['till.charge'],
  'provisioning.view': ['scim_tokens.manage'],
  'identity_providers.view': ['identity_providers.manage'],
} as const satisfies Partial<Record<Permission, readonly Permission[]>>;

export type ScreenPermission = keyof typeof SCREEN_PERMISSIONS;

/** `role: screen needs api` for every role a table lets open a screen whose API it refuses. */
export function screenPermissionGaps(
  table: Record<Permission, readonly string[]> = PERMISSIONS,
): string[] {
  return Object.entries(SCREEN_PERMISSIONS).flatMap(([screen, apis]) =>
    table[screen as Permission].flatMap((role) =>
      apis
        .filter((api) => !table[api].includes(role))
        .map((api) => `${role}: ${screen} needs ${api}`),
    ),
  );
}

export const can = (role: string | null | undefined, permission: Permission): boolean =>
  role != null && (PERMISSIONS[permission] as readonly string[]).includes(role);

/**
 * What slice of the data a role sees. Tenant scope is applied in the query from this,
 * never by filtering afterwards (DESIGN 2).
 */
export type Scope = 'all' | 'company' | 'merchant' | 'self';
export const ROLE_SCOPE: Record<Role, Scope> = {
  admin: 'all',
  super_hr: 'all',
  company_admin: 'company',
  company_employee: 'self',
  merchant_admin: 'merchant',
  merchant_supervisor: 'merchant',
  merchant_staff: 'merchant',
};
