import { z } from 'zod';
import { pageQuerySchema } from './common';
import { sortQueryShape, USER_SORTS } from './sorting';
import { MERCHANT_ROLES, PLATFORM_USER_TYPES, roleSchema, type Role } from './roles';
import { statusSchema } from './statuses';
import {
  emailSchema,
  idSchema,
  numberError,
  passwordSchema,
  usernameSchema,
  wholeNumber,
} from './validation';

/**
 * The accounts managed on User Management (`/users`): platform users and merchant staff.
 * Company admins have their own screen (`/companies/admin`); employees are not users here.
 */
export const MANAGED_USER_TYPES = [...PLATFORM_USER_TYPES, ...MERCHANT_ROLES] as const;
export const managedUserTypeSchema = z.enum(MANAGED_USER_TYPES, {
  error: (issue) => (issue.input === undefined ? 'v.type_required' : 'v.type_invalid'),
});
export type ManagedUserType = z.infer<typeof managedUserTypeSchema>;

/**
 * The staff a merchant admin manages at `/users` (DESIGN 2): the supervisors and staff of its own
 * merchant. Other merchant admins, itself included, are not among them.
 */
export const MERCHANT_STAFF_TYPES = [
  'merchant_supervisor',
  'merchant_staff',
] as const satisfies readonly ManagedUserType[];

/**
 * The user types a role manages at `/users`: the admin every managed type, a merchant admin its
 * staff, anyone else none. The server scopes its queries by it; the web app offers these types.
 */
export function userTypesManagedBy(role: Role | null | undefined): readonly ManagedUserType[] {
  if (role === 'admin') return MANAGED_USER_TYPES;
  if (role === 'merchant_admin') return MERCHANT_STAFF_TYPES;
  return [];
}

/**
 * A platform, merchant or company-admin user (DESIGN 4: `{ user_id, username, email, type,
 * status, merchant_id?, company_id? }`), with the tenant's name for display.
 */
export const managedUserSchema = z.object({
  user_id: z.number().int(),
  username: z.string(),
  email: z.string().nullable(),
  type: roleSchema,
  status: statusSchema,
  merchant_id: z.number().int().nullable(),
  merchant_name: z.string().nullable(),
  company_id: z.number().int().nullable(),
  company_name: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /**
   * An account without a password (invited, its link not used yet, decision 0025): its newest
   * link's expiry and whether that has passed. Null once the account has a password.
   */
  invitation: z
    .object({ status: z.enum(['pending', 'expired']), expires_at: z.string() })
    .nullable(),
});
export type ManagedUser = z.infer<typeof managedUserSchema>;

/** Optional repeat of the password; when sent it must match (PASSWORD_NOT_MATCH). */
const confirmPasswordSchema = z.string().max(256).optional();

/**
 * When editing, an empty (or absent) password keeps the current one (spec 5); any other value
 * must meet the password rules.
 */
export const optionalPasswordSchema = z
  .string('v.invalid')
  .optional()
  .superRefine((value, ctx) => {
    if (!value) return;
    const parsed = passwordSchema.safeParse(value);
    const message = parsed.success ? undefined : parsed.error.issues[0]?.message;
    if (message) ctx.addIssue({ code: 'custom', message });
  })
  .meta({ example: 'Str0ng!Pass' })
  .transform((value) => value || undefined);

/**
 * POST /users. `merchant_id` is refused for the platform types. For the merchant roles the admin
 * must name the merchant (the server answers BODY_INVALID `v.merchant_required` otherwise); a
 * merchant admin may leave it out, its own merchant being implied (decision 0017).
 */
export const createUserBodySchema = z
  .strictObject({
    username: usernameSchema,
    email: emailSchema,
    password: passwordSchema,
    confirm_password: confirmPasswordSchema,
    type: managedUserTypeSchema,
    status: statusSchema,
    merchant_id: z
      .number({ error: numberError('v.merchant_required') })
      .int(wholeNumber())
      .positive('v.merchant_required')
      .optional(),
  })
  .superRefine((body, ctx) => {
    const isMerchant = (MERCHANT_ROLES as readonly string[]).includes(body.type);
    if (!isMerchant && body.merchant_id !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['merchant_id'], message: 'v.merchant_not_allowed' });
    }
  })
  // `merchant_id` goes with the merchant roles, and only with them.
  .meta({
    example: {
      username: 'ana.lim',
      email: 'ana.lim@example.com',
      password: 'Str0ng!Pass',
      confirm_password: 'Str0ng!Pass',
      type: 'merchant_admin',
      status: 'active',
      merchant_id: 3,
    },
  });
export type CreateUserBody = z.input<typeof createUserBodySchema>;

/**
 * PUT /users/{id} and PUT /companies/admin/{user_id}. The type and the tenant are fixed at
 * creation; a `type`, `merchant_id` or `company_id` here is an unknown field (BODY_INVALID).
 * A user setting its own password gives its current one too (`current_password`; without it 400
 * CURRENT_PASSWORD_REQUIRED, wrong 400 CURRENT_PASSWORD_INVALID); it is ignored otherwise.
 */
export const updateUserBodySchema = z.strictObject({
  username: usernameSchema,
  email: emailSchema,
  status: statusSchema,
  password: optionalPasswordSchema,
  confirm_password: confirmPasswordSchema,
  current_password: z.string().max(256).optional(),
});
export type UpdateUserBody = z.input<typeof updateUserBodySchema>;

const searchSchema = z.string().trim().max(100, 'v.invalid').optional();
/** Repeated keys arrive as an array, a single one as a string (DESIGN 4). */
const repeated = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(item));

/** GET /users: `search` matches username or email; `type` may repeat. */
export const userListQuerySchema = pageQuerySchema.extend({
  search: searchSchema,
  type: repeated(z.enum(MANAGED_USER_TYPES)).optional(),
  status: statusSchema.optional(),
  merchant_id: idSchema.optional(),
  ...sortQueryShape(USER_SORTS),
});
export type UserListQuery = z.infer<typeof userListQuerySchema>;

/** GET /hrs: Group HR users. */
export const hrListQuerySchema = pageQuerySchema.extend({
  search: searchSchema,
  status: statusSchema.optional(),
});
export type HrListQuery = z.infer<typeof hrListQuerySchema>;

export const userIdParamsSchema = z.object({ id: idSchema });

/** POST /companies/admin (DESIGN 4). */
export const createCompanyAdminBodySchema = z.strictObject({
  company_id: z
    .number({ error: numberError('v.company_required') })
    .int(wholeNumber())
    .positive('v.company_required'),
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
  confirm_password: confirmPasswordSchema,
  status: statusSchema,
});
export type CreateCompanyAdminBody = z.input<typeof createCompanyAdminBodySchema>;

/** PUT /companies/admin/{user_id}: the company stays the one it was created for. */
export const updateCompanyAdminBodySchema = updateUserBodySchema;
export type UpdateCompanyAdminBody = UpdateUserBody;

/** GET /companies/admin */
export const companyAdminListQuerySchema = pageQuerySchema.extend({
  company_id: idSchema.optional(),
  search: searchSchema,
  status: statusSchema.optional(),
});
export type CompanyAdminListQuery = z.infer<typeof companyAdminListQuerySchema>;

export const companyAdminParamsSchema = z.object({ user_id: idSchema });
