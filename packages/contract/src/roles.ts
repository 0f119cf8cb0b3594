import { z } from 'zod';

/** Every user type the platform knows (spec 1, DESIGN 2). */
export const ROLES = [
  'admin',
  'super_hr',
  'company_admin',
  'company_employee',
  'merchant_admin',
  'merchant_supervisor',
  'merchant_staff',
] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

/** Role labels of spec 3 (the badge and list labels), in both languages. */
export const ROLE_LABELS: Record<Role, { en: string; zh: string }> = {
  admin: { en: 'Super Admin', zh: '超级管理员' },
  super_hr: { en: 'Group HR', zh: '集团人事' },
  company_admin: { en: 'Admin', zh: '管理员' },
  company_employee: { en: 'Employee', zh: '员工' },
  merchant_admin: { en: 'Admin', zh: '管理员' },
  merchant_supervisor: { en: 'Supervisor', zh: '主管' },
  merchant_staff: { en: 'Staff', zh: '职员' },
};

/** The user-menu badge of spec 2: Admin, Group HR or Company. */
export const ROLE_BADGES: Partial<Record<Role, { en: string; zh: string }>> = {
  admin: { en: 'Admin', zh: '管理员' },
  super_hr: { en: 'Group HR', zh: '集团人事' },
  company_admin: { en: 'Company', zh: '公司' },
};

/** Types an admin may create on the User Management screen. */
export const PLATFORM_USER_TYPES = ['admin', 'super_hr'] as const satisfies readonly Role[];
/** Merchant staff role options. */
export const MERCHANT_ROLES = [
  'merchant_admin',
  'merchant_supervisor',
  'merchant_staff',
] as const satisfies readonly Role[];

export const isMerchantRole = (role: Role): boolean =>
  (MERCHANT_ROLES as readonly Role[]).includes(role);
