import { z } from 'zod';
import { pageQuerySchema } from './common';
import { EMPLOYEE_SORTS, sortQueryShape } from './sorting';
import { statusSchema } from './statuses';
import {
  emailSchema,
  employeeIdSchema,
  idSchema,
  initialTokenSchema,
  optionalNameSchema,
} from './validation';

const tokens = z.number().int();

/**
 * An employee and its wallet (DESIGN 4). `id` is ours; `employee_id` is the company's staff number.
 * `issued_tokens` and `consumed_tokens` count the employee's current token month.
 */
export const employeeSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  employee_id: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  status: statusSchema,
  available_tokens: tokens,
  consumed_tokens: tokens,
  issued_tokens: tokens,
  token_month: z.string(),
  /** The employee's own monthly amount; null means the company's default. */
  monthly_tokens: tokens.nullable(),
  /** Whether the employee has a sign-in of its own (self-service, decision 0033). */
  has_account: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Employee = z.infer<typeof employeeSchema>;

/** POST /employees: the company comes from the session; admin and Group HR pass `company_id`. */
export const createEmployeeBodySchema = z.strictObject({
  company_id: z.number().int().positive().optional(),
  employee_id: employeeIdSchema,
  email: z.union([emailSchema, z.literal('').transform(() => undefined)]).optional(),
  name: optionalNameSchema.optional(),
  // Spec 5: status is required (a missing or unknown value reads 'v.status_required').
  status: statusSchema,
  monthly_tokens: initialTokenSchema.nullable().optional(),
});
export type CreateEmployeeBody = z.input<typeof createEmployeeBodySchema>;

/**
 * PUT /employees/{id}: the fields given change, the others stay. The staff number may be corrected
 * (unique per company); an empty or null email or name clears it. Balances and the company are not
 * editable here: `available_tokens`, `company_id` and any other field are BODY_INVALID.
 */
export const updateEmployeeBodySchema = z.strictObject({
  employee_id: employeeIdSchema.optional(),
  email: z.union([emailSchema, z.literal('').transform(() => null), z.null()]).optional(),
  name: optionalNameSchema
    .transform((v) => v || null)
    .nullable()
    .optional(),
  status: statusSchema.optional(),
  monthly_tokens: initialTokenSchema.nullable().optional(),
});
export type UpdateEmployeeBody = z.input<typeof updateEmployeeBodySchema>;

export const employeeListQuerySchema = pageQuerySchema.extend({
  company_id: idSchema.optional(),
  status: statusSchema.optional(),
  /** Matches part of the staff number, name or email, ignoring case. */
  search: z.string().trim().max(200).optional(),
  ...sortQueryShape(EMPLOYEE_SORTS),
});
export type EmployeeListQuery = z.infer<typeof employeeListQuerySchema>;

export const employeeIdParamsSchema = z.object({ id: idSchema });
