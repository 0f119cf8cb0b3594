import { z } from 'zod';
import { pageQuerySchema } from './common';
import { COMPANY_SORTS, sortQueryShape } from './sorting';
import { statusSchema } from './statuses';
import { codeSchema, idSchema, initialTokenSchema, nameSchema, resetDaySchema } from './validation';

const tokens = z.number().int();

/** A company and its wallet (DESIGN 4). `token_month` is the YYYY-MM of its current token month. */
export const companySchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  status: statusSchema,
  monthly_reset_day: z.number().int(),
  init_token: tokens,
  init_token_next_month: tokens.nullable(),
  employee_monthly_tokens: tokens,
  token_balance: tokens,
  token_month: z.string(),
  next_reset_at: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Orders by pay code only (DESIGN 8): a staff number alone is refused. */
  pay_code_required: z.boolean().optional(),
  /** GET /companies rows only: how many company admins it has (0 is flagged on screen). */
  admin_count: z.number().int().optional(),
});
export type Company = z.infer<typeof companySchema>;

/** POST /companies. `init_token` is credited at once and again at every reset. */
export const createCompanyBodySchema = z.strictObject({
  code: codeSchema,
  name: nameSchema,
  status: statusSchema.default('active'),
  monthly_reset_day: resetDaySchema,
  init_token: initialTokenSchema,
  employee_monthly_tokens: initialTokenSchema.optional(),
});
export type CreateCompanyBody = z.input<typeof createCompanyBodySchema>;

/** Matches code or name, case-insensitively. */
const listSearchSchema = z.string().trim().max(100).optional();

export const companyListQuerySchema = pageQuerySchema.extend({
  status: statusSchema.optional(),
  search: listSearchSchema,
  ...sortQueryShape(COMPANY_SORTS),
});
/**
 * PUT /companies/{id} (spec 7). `code` is immutable and `token_balance` moves only through the
 * ledger: both are unknown fields here. A new reset day never resets on the spot.
 */
export const updateCompanyBodySchema = z.strictObject({
  name: nameSchema,
  status: statusSchema,
  monthly_reset_day: resetDaySchema,
  init_token: initialTokenSchema,
  init_token_next_month: initialTokenSchema.nullable().optional(),
  employee_monthly_tokens: initialTokenSchema.optional(),
  pay_code_required: z.boolean('v.invalid').optional(),
});
export type UpdateCompanyBody = z.infer<typeof updateCompanyBodySchema>;

export type CompanyListQuery = z.infer<typeof companyListQuerySchema>;

export const companyIdParamsSchema = z.object({ id: idSchema });
