// Spending rules at the till (DESIGN 7, issue 42, decision 0077): which orders a company's
// employees' tokens may pay beyond the balance. Rules are data: a versioned, effective-dated rule
// set per company, exceptions per employee, a holiday calendar and a category on every merchant.
import { z } from 'zod';
import { pageQuerySchema } from './common';
import { idSchema } from './validation';

/** The merchant categories a rule set may allow (DESIGN 7); existing merchants are `other`. */
export const MERCHANT_CATEGORIES = [
  'restaurant',
  'canteen',
  'cafe',
  'bakery',
  'grocery',
  'other',
] as const;
export const merchantCategorySchema = z.enum(MERCHANT_CATEGORIES, 'v.invalid');
export type MerchantCategory = z.infer<typeof merchantCategorySchema>;

/** The five refusals of a rule (409, each with its `details`). */
export const SPENDING_RULE_CODES = [
  'DAILY_LIMIT_EXCEEDED',
  'ORDER_LIMIT_EXCEEDED',
  'OUTSIDE_ALLOWED_HOURS',
  'NOT_ALLOWED_TODAY',
  'MERCHANT_NOT_ALLOWED',
] as const;
export type SpendingRuleCode = (typeof SPENDING_RULE_CODES)[number];
/** What a decline is kept for: a rule's refusal or the balance's. */
export const DECLINE_CODES = [...SPENDING_RULE_CODES, 'INSUFFICIENT_TOKENS'] as const;
export const declineCodeSchema = z.enum(DECLINE_CODES);
export type DeclineCode = z.infer<typeof declineCodeSchema>;

const dateSchema = z.iso.date('v.date_invalid');
const timeOfDay = z.string('v.required').regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'v.time_format');
const limit = z
  .number({ error: 'v.invalid' })
  .int('v.integer')
  .min(1, 'v.amount_positive')
  .max(1_000_000_000, 'v.amount_too_large');
const weekdays = z
  .array(z.number().int('v.invalid').min(1, 'v.invalid').max(7, 'v.invalid'), 'v.invalid')
  .min(1, 'v.required')
  .max(7, 'v.invalid')
  .refine((days) => new Set(days).size === days.length, 'v.invalid');

/** A time window of the local day: `from` inclusive, `to` exclusive, `from` before `to`. */
export const hoursWindowSchema = z
  .strictObject({ from: timeOfDay, to: timeOfDay })
  .refine((w) => w.from < w.to, { message: 'v.time_order', path: ['to'] });
export type HoursWindow = z.infer<typeof hoursWindowSchema>;

/** The rules themselves (DESIGN 7): null = no limit of that kind. */
export const spendingRulesSchema = z.strictObject({
  daily_limit: limit.nullable().default(null),
  order_limit: limit.nullable().default(null),
  /** ISO weekdays, 1 = Monday; null = every day. */
  weekdays: weekdays.nullable().default(null),
  /** Null = any time. */
  hours: z.array(hoursWindowSchema, 'v.invalid').min(1).max(6).nullable().default(null),
  closed_on_holidays: z.boolean('v.invalid').default(false),
  /** Null = every category. */
  merchant_categories: z
    .array(merchantCategorySchema, 'v.invalid')
    .min(1, 'v.required')
    .nullable()
    .default(null),
  partial_payment: z.boolean('v.invalid').default(false),
});
export type SpendingRules = z.infer<typeof spendingRulesSchema>;

/** PUT /companies/{id}/spending-rules: a version taking effect at 00:00 of `effective_from`. */
export const putSpendingRulesBodySchema = spendingRulesSchema.extend({
  effective_from: dateSchema,
});
export type PutSpendingRulesBody = z.input<typeof putSpendingRulesBodySchema>;

export const spendingRuleVersionSchema = z.object({
  effective_from: z.string(),
  daily_limit: z.number().int().nullable(),
  order_limit: z.number().int().nullable(),
  weekdays: z.array(z.number().int()).nullable(),
  hours: z.array(z.object({ from: z.string(), to: z.string() })).nullable(),
  closed_on_holidays: z.boolean(),
  merchant_categories: z.array(merchantCategorySchema).nullable(),
  partial_payment: z.boolean(),
  created_at: z.string(),
  created_by: z.number().int().nullable(),
});
export type SpendingRuleVersion = z.infer<typeof spendingRuleVersionSchema>;

/** GET /companies/{id}/spending-rules: the version in force today, the later ones, the earlier ones. */
export const spendingRulesViewSchema = z.object({
  current: spendingRuleVersionSchema.nullable(),
  scheduled: z.array(spendingRuleVersionSchema),
  history: z.array(spendingRuleVersionSchema),
});
export type SpendingRulesView = z.infer<typeof spendingRulesViewSchema>;

export const spendingRulesParamsSchema = z.object({ id: idSchema });
export const spendingRuleVersionParamsSchema = z.object({
  id: idSchema,
  effective_from: dateSchema,
});

/** POST /companies/{id}/spending-rules/preview: a candidate replayed over the last 30 days. */
export const previewSpendingRulesBodySchema = z.strictObject({ rules: spendingRulesSchema });
export const spendingRulesPreviewSchema = z.object({
  /** The company's orders of the last 30 days. */
  orders: z.number().int(),
  /** Per refusal code: the orders it would have declined and their tokens. */
  declined: z.record(z.string(), z.object({ orders: z.number().int(), tokens: z.number().int() })),
  employees_affected: z.number().int(),
  examples: z.array(
    z.object({
      order_id: z.number().int(),
      ordered_at: z.string(),
      employee_id: z.number().int(),
      subtotal: z.number().int(),
      code: z.string(),
    }),
  ),
});
export type SpendingRulesPreview = z.infer<typeof spendingRulesPreviewSchema>;

/** PUT /employees/{id}/spending-exception: what differs for this employee, until a date. */
export const spendingExceptionBodySchema = z.strictObject({
  weekdays: weekdays.nullable().optional(),
  closed_on_holidays: z.boolean('v.invalid').nullable().optional(),
  daily_limit: limit.nullable().optional(),
  until: dateSchema.nullable().optional(),
});
export type SpendingExceptionBody = z.infer<typeof spendingExceptionBodySchema>;
export const spendingExceptionSchema = z.object({
  employee_id: z.number().int(),
  weekdays: z.array(z.number().int()).nullable(),
  closed_on_holidays: z.boolean().nullable(),
  daily_limit: z.number().int().nullable(),
  until: z.string().nullable(),
  updated_at: z.string(),
});
export type SpendingException = z.infer<typeof spendingExceptionSchema>;

/** GET /sys/holidays?year= and PUT /sys/holidays { year, days }. */
export const holidaySchema = z.strictObject({
  date: dateSchema,
  name: z.string('v.required').trim().min(1, 'v.required').max(100, 'v.holiday_name_max'),
});
export type Holiday = z.infer<typeof holidaySchema>;
export const holidaysQuerySchema = z.object({
  year: z.coerce.number().int().min(2000).max(2100),
});
export const putHolidaysBodySchema = z
  .strictObject({
    year: z.number().int().min(2000).max(2100),
    days: z.array(holidaySchema).max(366),
  })
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.days.forEach((day, i) => {
      if (!day.date.startsWith(`${body.year}-`)) {
        ctx.addIssue({ code: 'custom', path: ['days', i, 'date'], message: 'v.date_invalid' });
      }
      if (seen.has(day.date)) {
        ctx.addIssue({ code: 'custom', path: ['days', i, 'date'], message: 'v.holiday_duplicate' });
      }
      seen.add(day.date);
    });
  })
  // Each day of the year the body names, once.
  .meta({ example: { year: 2025, days: [{ date: '2025-05-01', name: 'Labour Day' }] } });
export type PutHolidaysBody = z.infer<typeof putHolidaysBodySchema>;
export const holidaysViewSchema = z.object({
  year: z.number().int(),
  days: z.array(holidaySchema),
});

/** A decline kept (DESIGN 7): an order refused by a rule or by the balance. */
export const orderDeclineSchema = z.object({
  id: z.number().int(),
  declined_at: z.string(),
  company_id: z.number().int(),
  employee_id: z.number().int(),
  merchant_id: z.number().int(),
  terminal_id: z.number().int(),
  subtotal: z.number().int(),
  code: declineCodeSchema,
  details: z.record(z.string(), z.unknown()).nullable(),
  company_name: z.string().optional(),
  employee_name: z.string().optional(),
  staff_number: z.string().optional(),
  merchant_name: z.string().optional(),
});
export type OrderDecline = z.infer<typeof orderDeclineSchema>;
export const orderDeclinesQuerySchema = pageQuerySchema.extend({
  company_id: z.coerce.number().int().positive().optional(),
  merchant_id: z.coerce.number().int().positive().optional(),
  employee_id: z.coerce.number().int().positive().optional(),
  code: declineCodeSchema.optional(),
  date_from: dateSchema.optional(),
  date_to: dateSchema.optional(),
});
export type OrderDeclinesQuery = z.infer<typeof orderDeclinesQuerySchema>;

/** POST /orders/check (terminal): what an order would get, writing nothing. */
export const orderCheckSchema = z.object({
  allowed: z.boolean(),
  code: z.string().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
  payable_tokens: z.number().int(),
  remaining_today: z.number().int().nullable(),
  available_tokens: z.number().int().nullable(),
});
export type OrderCheck = z.infer<typeof orderCheckSchema>;
