import { z } from 'zod';
import { pageQuerySchema } from './common';
import { idSchema, tokenAmountSchema } from './validation';

/** Four-eyes approvals (DESIGN 6, decision 0039). */
export const APPROVAL_KINDS = ['top_up', 'distribution'] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'expired'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** A pending request nobody decided expires after this many days (the jobs timer). */
export const APPROVAL_EXPIRY_DAYS = 7;

/** `/sys/approval-policy`: a threshold in tokens per kind; null means the rule is off. */
export const approvalPolicySchema = z.object({
  top_up_threshold: z.number().int().nullable(),
  distribution_threshold: z.number().int().nullable(),
  updated_at: z.string().nullable(),
  updated_by: z.number().int().nullable(),
});
export type ApprovalPolicy = z.infer<typeof approvalPolicySchema>;

export const approvalPolicyBodySchema = z.strictObject({
  top_up_threshold: tokenAmountSchema.nullable(),
  distribution_threshold: tokenAmountSchema.nullable(),
});
export type ApprovalPolicyBody = z.infer<typeof approvalPolicyBodySchema>;

/** One line of a distribution's payload, with the names the screen shows (as when requested). */
export const approvalItemSchema = z.object({
  employee_id: z.number().int(),
  staff_number: z.string(),
  name: z.string().nullable(),
  amount: z.number().int(),
});
export type ApprovalItem = z.infer<typeof approvalItemSchema>;

/**
 * What was asked, as it will be applied: the company (with its name), the note, and the amount of
 * a top-up or the lines of a distribution.
 */
export const approvalPayloadSchema = z.object({
  company_id: z.number().int(),
  company_name: z.string(),
  note: z.string().nullable(),
  amount: z.number().int().optional(),
  items: z.array(approvalItemSchema).optional(),
});
export type ApprovalPayload = z.infer<typeof approvalPayloadSchema>;

/**
 * Acts on another's account that link two people (issue 39, decision 0069): a decider linked to
 * the requester, either way, in the last 30 days is not a second person.
 */
export const USER_LINK_KINDS = ['created', 'invited', 'password_set', 'mfa_reset'] as const;
export type UserLinkKind = (typeof USER_LINK_KINDS)[number];

/** `details` of a 403 APPROVAL_SELF: why the caller counts as the requester. */
export const approvalSelfDetailsSchema = z.object({
  /** `same_user`: its own request; `linked`: one of the two acted on the other's account. */
  reason: z.enum(['same_user', 'linked']),
  link: z
    .object({
      kind: z.enum(USER_LINK_KINDS),
      actor_user_id: z.number().int(),
      target_user_id: z.number().int(),
      at: z.string(),
    })
    .optional(),
});
export type ApprovalSelfDetails = z.infer<typeof approvalSelfDetailsSchema>;

/**
 * A payee of a held distribution as it is now, where its staff number or name changed since the
 * request (the wallet, by the employee's internal id, stays the one asked for).
 */
export const payeeChangeSchema = z.object({
  employee_id: z.number().int(),
  staff_number_then: z.string(),
  name_then: z.string().nullable(),
  staff_number: z.string(),
  name: z.string().nullable(),
  /** What changed: `staff_number`, `name`, or both. */
  changed: z.array(z.enum(['staff_number', 'name'])),
});
export type PayeeChange = z.infer<typeof payeeChangeSchema>;

/** `details` of a 409 APPROVAL_PAYEE_CHANGED: every payee changed since the request. */
export const approvalPayeeChangedDetailsSchema = z.object({ changes: z.array(payeeChangeSchema) });

/**
 * POST /approvals/{id}/approve: when payees changed since the request, the approver confirms the
 * payees as it saw them now (each changed employee with its current staff number and name).
 */
export const approveApprovalBodySchema = z.strictObject({
  confirm_payees: z
    .array(
      z.strictObject({
        employee_id: z.number().int().positive(),
        staff_number: z.string().max(100),
        name: z.string().max(500).nullable(),
      }),
    )
    .max(10_000)
    .optional(),
});
export type ApproveApprovalBody = z.infer<typeof approveApprovalBodySchema>;

export const approvalSchema = z.object({
  id: z.number().int(),
  kind: z.enum(APPROVAL_KINDS),
  status: z.enum(APPROVAL_STATUSES),
  requested_by: z.number().int(),
  requested_by_username: z.string().nullable(),
  company_id: z.number().int(),
  payload: approvalPayloadSchema,
  total: z.number().int(),
  created_at: z.string(),
  expires_at: z.string(),
  decided_by: z.number().int().nullable(),
  decided_by_username: z.string().nullable(),
  decided_at: z.string().nullable(),
  reason: z.string().nullable(),
  /** Whether the caller may approve or reject it now (pending, not its own, and its power). */
  can_decide: z.boolean(),
  /**
   * A distribution's payees renumbered or renamed since the request, as they are now (empty when
   * none, and for a top-up); a pending one's approval asks to confirm them.
   */
  payee_changes: z.array(payeeChangeSchema),
});
export type Approval = z.infer<typeof approvalSchema>;

/** The 202 answer of a top-up or distribution that waits for a second person. */
export const approvalRequestedSchema = z.object({ data: z.object({ approval: approvalSchema }) });

/** GET /approvals: `status` pending, or several joined by commas (`approved,rejected,expired`). */
export const approvalListQuerySchema = pageQuerySchema.extend({
  status: z
    .string()
    .optional()
    .refine(
      (value) =>
        value === undefined ||
        value.split(',').every((s) => (APPROVAL_STATUSES as readonly string[]).includes(s)),
      'v.invalid',
    )
    .meta({
      description: `One status or several, comma-separated: ${APPROVAL_STATUSES.join(', ')}`,
      pattern: `^(${APPROVAL_STATUSES.join('|')})(,(${APPROVAL_STATUSES.join('|')}))*$`,
      example: 'pending',
    }),
  kind: z.enum(APPROVAL_KINDS).optional(),
  /** `true`: only the requests the caller may decide itself (the sidebar's count). */
  to_decide: z
    .enum(['true', 'false'], 'v.invalid')
    .optional()
    .transform((value) => value === 'true'),
});
export type ApprovalListQuery = z.infer<typeof approvalListQuerySchema>;

export const rejectApprovalBodySchema = z.strictObject({
  reason: z.string('v.required').trim().min(1, 'v.required').max(500, 'v.note_max'),
});
export type RejectApprovalBody = z.infer<typeof rejectApprovalBodySchema>;

export const approvalIdParamsSchema = z.object({ id: idSchema });
