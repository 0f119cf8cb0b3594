import { z } from 'zod';
import { pageQuerySchema } from './common';
import { idSchema } from './validation';
import { datesInOrder, daySchema } from './calendar';
import { AUDIT_SORTS, sortQueryShape } from './sorting';

/**
 * One row of the audit log: who changed what, when, from where, with the record before and after
 * (snake_case wire shapes; secrets such as password hashes are never stored).
 */
export const auditEntrySchema = z.object({
  id: z.number().int(),
  occurred_at: z.string(),
  actor_user_id: z.number().int().nullable(),
  actor_username: z.string().nullable(),
  /** A verb: create, update, status_change, delete, or a module's own (e.g. rotate_key). */
  action: z.string(),
  /** A singular snake_case noun: user, company, merchant, terminal, system_settings, … */
  entity_type: z.string(),
  entity_id: z.string().nullable(),
  /**
   * The record's current name when it has one people know it by (company, merchant, terminal,
   * employee, user), else null: "Acme Ltd" for a distribution recorded on company 3.
   */
  entity_name: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/**
 * The actions the server writes today (the web app's action filter and labels). The API accepts
 * any well-formed name, so a module's new action is listed and filtered before a label exists.
 */
export const AUDIT_ACTIONS = [
  'create',
  'update',
  'status_change',
  'delete',
  'rotate_key',
  'topup',
  'distribute',
  'update_configuration',
  'import',
  'invite',
  'invitation_email',
  'resend_invitation',
  'accept_invitation',
  'sign_in',
  'sign_in_failed',
  'sign_in_throttled',
  'sign_in_mfa_required',
  'sign_in_mfa',
  'sign_in_mfa_failed',
  'recovery_code_used',
  'mfa_enrolment_started',
  'mfa_enable',
  'mfa_enable_failed',
  'mfa_disable',
  'mfa_disable_failed',
  'mfa_reset',
  'clear_sign_in_throttle',
  'request_approval',
  'approve',
  'reject',
  'expire',
  'rotate_secret',
  // Spending rules (DESIGN 7).
  'spending_rules_set',
  'spending_rules_withdraw',
  'spending_exception_set',
  'spending_exception_remove',
  'holidays_set',
  'pay_device_register',
  'pay_device_remove',
  // Step-up (DESIGN 9): a session's user proved who it is again.
  'reauthenticate',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The record types the server writes today (the web app's record-type filter and labels). */
export const AUDIT_ENTITY_TYPES = [
  'company',
  'employee',
  'user',
  'sign_in',
  'merchant',
  'terminal',
  'system_settings',
  'approval',
  'approval_policy',
  'webhook_endpoint',
] as const;
export type AuditEntityType = (typeof AUDIT_ENTITY_TYPES)[number];

const nameSchema = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9_.]{0,63}$/, 'v.invalid');

/** The filters of the audit log, shared by the list and its CSV export. */
const auditFilterShape = {
  entity_type: nameSchema.optional(),
  entity_id: z.string().trim().min(1).max(100).optional(),
  actor_user_id: idSchema.optional(),
  /** Who: part of the acting user's username, any case. */
  actor: z.string().trim().min(1).max(100).optional(),
  action: nameSchema.optional(),
  date_from: daySchema.optional(),
  date_to: daySchema.optional(),
  ...sortQueryShape(AUDIT_SORTS),
};

/**
 * GET /audit-log, newest first (or by `sort`). Dates are days in the programme's time zone, both
 * ends included. What a caller sees is its role's scope (decision 0036).
 */
export const auditListQuerySchema = pageQuerySchema
  .extend(auditFilterShape)
  .refine(...datesInOrder);
export type AuditListQuery = z.infer<typeof auditListQuerySchema>;

/** GET /exports/audit-log: the list's filters and order, without paging. */
export const auditExportQuerySchema = z.object(auditFilterShape).refine(...datesInOrder);
export type AuditExportQuery = z.infer<typeof auditExportQuerySchema>;
