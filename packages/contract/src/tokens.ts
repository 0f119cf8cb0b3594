import { z } from 'zod';
import {
  idSchema,
  initialTokenSchema,
  noteSchema,
  numberError,
  resetDaySchema,
  tokenAmountSchema,
  wholeNumber,
} from './validation';

const tokens = z.number().int();

/** POST /tokens/topup-token: an admin issues tokens to a company (`company_issued`). */
export const topupCompanyBodySchema = z.strictObject({
  company_id: z
    .number({ error: numberError('v.company_required') })
    .int(wholeNumber())
    .positive('v.company_required'),
  amount: tokenAmountSchema,
  note: noteSchema.optional(),
});
export type TopupCompanyBody = z.infer<typeof topupCompanyBodySchema>;

export const topupCompanyResultSchema = z.object({
  company_id: z.number().int(),
  amount: tokens,
  token_balance: tokens,
  transaction_id: z.number().int(),
  period: z.string(),
});
export type TopupCompanyResult = z.infer<typeof topupCompanyResultSchema>;

/** The most employees one distribution rewards. */
export const DISTRIBUTE_MAX_ITEMS = 1000;

/**
 * POST /tokens/topup-token/employees: a company admin distributes to many employees at once,
 * all or nothing. `employee_id` is our employee id (not the staff number).
 */
export const distributeBodySchema = z.strictObject({
  company_id: z.number().int().positive().optional(),
  items: z
    .array(
      z.strictObject({
        employee_id: z.number({ error: numberError() }).int(wholeNumber()).positive(),
        amount: tokenAmountSchema,
      }),
      'v.tokens_min_one',
    )
    .min(1, 'v.tokens_min_one')
    .max(DISTRIBUTE_MAX_ITEMS, 'v.invalid')
    .refine((items) => new Set(items.map((i) => i.employee_id)).size === items.length, 'v.invalid'),
  note: noteSchema.optional(),
});
export type DistributeBody = z.infer<typeof distributeBodySchema>;

export const distributeResultSchema = z.object({
  company_id: z.number().int(),
  total: tokens,
  token_balance: tokens,
  items: z.array(
    z.object({
      employee_id: z.number().int(),
      amount: tokens,
      available_tokens: tokens,
      transfer_id: z.string(),
    }),
  ),
});
export type DistributeResult = z.infer<typeof distributeResultSchema>;

/** GET/PUT /tokens/configuration: a company's monthly plan (DESIGN 3.5). */
export const tokenConfigurationSchema = z.object({
  company_id: z.number().int(),
  monthly_reset_day: z.number().int(),
  init_token: tokens,
  init_token_next_month: tokens.nullable(),
  employee_monthly_tokens: tokens,
  token_month: z.string(),
  next_reset_at: z.string(),
});
export type TokenConfiguration = z.infer<typeof tokenConfigurationSchema>;

/** Whose configuration: a platform role names the company; a company admin's is its own. */
const configurationCompanySchema = idSchema.meta({
  description:
    'The company: required for the platform roles (admin, super_hr), left out by a company admin (its own company)',
});
export const tokenConfigurationQuerySchema = z.object({
  company_id: configurationCompanySchema.optional(),
});
export type TokenConfigurationQuery = z.infer<typeof tokenConfigurationQuerySchema>;

/**
 * PUT /tokens/configuration. Only admin and Group HR change what the company receives
 * (`monthly_reset_day`, `init_token`, `init_token_next_month`); a company admin sets the
 * employees' monthly amount.
 */
export const updateTokenConfigurationBodySchema = z.strictObject({
  company_id: z
    .number()
    .int()
    .positive()
    .meta({
      description:
        'The company: required for the platform roles (admin, super_hr), left out by a company admin (its own company)',
    })
    .optional(),
  monthly_reset_day: resetDaySchema.optional(),
  init_token: initialTokenSchema.optional(),
  init_token_next_month: initialTokenSchema.nullable().optional(),
  employee_monthly_tokens: initialTokenSchema.optional(),
});
export type UpdateTokenConfigurationBody = z.infer<typeof updateTokenConfigurationBodySchema>;
