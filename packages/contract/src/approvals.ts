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
    ),
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
