import { z } from 'zod';
import { pageQuerySchema } from './common';
import { idSchema } from './validation';
import { datesInOrder, daySchema } from './calendar';

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
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

const nameSchema = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9_.]{0,63}$/, 'v.invalid');

/**
 * GET /audit-log, newest first. Dates are days in the programme's time zone, both ends included.
 */
export const auditListQuerySchema = pageQuerySchema
  .extend({
    entity_type: nameSchema.optional(),
    entity_id: z.string().trim().min(1).max(100).optional(),
    actor_user_id: idSchema.optional(),
    action: nameSchema.optional(),
    date_from: daySchema.optional(),
    date_to: daySchema.optional(),
  })
  .refine(...datesInOrder);
export type AuditListQuery = z.infer<typeof auditListQuerySchema>;
