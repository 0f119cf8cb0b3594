import { z } from 'zod';
import { pageQuerySchema } from './common';
import { daySchema } from './calendar';
import { idSchema } from './validation';

/**
 * Merchant settlement statements (DESIGN 6, decision 0040). A statement covers one merchant and one
 * half-month period, 1st–15th or 16th–last day, in the programme's time zone. Its figures are the
 * sums of the merchant's ledger rows that occurred in the period: a purchase counts in the period
 * of its order, a refund in the period it was made, so a closed period never changes.
 */

/** The longest range of days `GET /settlements` reads (24 months, 48 periods). */
export const SETTLEMENT_MAX_DAYS = 731;

export const SETTLEMENT_PERIOD_STATUSES = ['open', 'closed'] as const;
export type SettlementPeriodStatus = (typeof SETTLEMENT_PERIOD_STATUSES)[number];

const tokens = z.number().int();

/** Orders and tokens of a statement, or of one company's share of it. */
const figuresShape = {
  /** Orders placed in the period (purchases). */
  orders: z.number().int(),
  /** Refunds made in the period, whichever period their order was in. */
  refunds: z.number().int(),
  purchased_tokens: tokens,
  refunded_tokens: tokens,
  /** purchased_tokens − refunded_tokens: what the programme owes the merchant for the period. */
  net_tokens: tokens,
};

export const settlementCompanySchema = z.object({
  company_id: z.number().int(),
  company_code: z.string(),
  company_name: z.string(),
  ...figuresShape,
});
export type SettlementCompany = z.infer<typeof settlementCompanySchema>;

/** One merchant's period: its totals and the split by company (never any wallet balance). */
export const settlementPeriodSchema = z.object({
  merchant_id: z.number().int(),
  merchant_code: z.string(),
  merchant_name: z.string(),
  /** YYYY-MM-DD, the 1st or the 16th. */
  period_start: z.string(),
  /** YYYY-MM-DD, the 15th or the month's last day (included). */
  period_end: z.string(),
  /** `closed` once the period's last day is over in the programme's time zone. */
  status: z.enum(SETTLEMENT_PERIOD_STATUSES),
  ...figuresShape,
  companies: z.array(settlementCompanySchema),
});
export type SettlementPeriod = z.infer<typeof settlementPeriodSchema>;

/** One order of a statement: bought in the period, refunded in it, or both. */
export const settlementOrderSchema = z.object({
  order_id: z.number().int(),
  order_no: z.string(),
  ordered_at: z.string(),
  terminal_id: z.number().int(),
  terminal_code: z.string(),
  terminal_name: z.string(),
  company_id: z.number().int(),
  company_code: z.string(),
  company_name: z.string(),
  /** The company's staff number. */
  employee_id: z.string(),
  employee_name: z.string().nullable(),
  subtotal: tokens,
  /** The subtotal when the order was placed in the period, else 0 (an earlier period's order). */
  purchased_tokens: tokens,
  refunded_tokens: tokens,
  net_tokens: tokens,
});
export type SettlementOrder = z.infer<typeof settlementOrderSchema>;

/** The range of `GET /settlements` and its export: days in the programme's time zone. */
const rangeShape = {
  merchant_id: idSchema.optional(),
  /** The first day of the range; the periods that overlap it are listed whole. */
  from: daySchema.optional(),
  to: daySchema.optional(),
};

const dayNumber = (day: string) =>
  Date.UTC(+day.slice(0, 4), +day.slice(5, 7) - 1, +day.slice(8, 10));

const rangeRules = <T extends { from?: string | undefined; to?: string | undefined }>(
  schema: z.ZodType<T>,
) =>
  schema
    .refine((q) => !q.from || !q.to || q.from <= q.to, {
      path: ['to'],
      message: 'v.date_order',
    })
    .refine(
      (q) =>
        !q.from ||
        !q.to ||
        (dayNumber(q.to) - dayNumber(q.from)) / 86_400_000 < SETTLEMENT_MAX_DAYS,
      { path: ['to'], message: 'v.settlement_range' },
    );

/**
 * GET /settlements: each merchant's periods overlapping `from`–`to` that have any order or refund,
 * newest period first, then by merchant code. Without `from`/`to`: this month and the last, to today.
 */
export const settlementListQuerySchema = rangeRules(pageQuerySchema.extend(rangeShape));
export type SettlementListQuery = z.infer<typeof settlementListQuerySchema>;

export const settlementFiguresSchema = z.object(figuresShape);
export type SettlementFigures = z.infer<typeof settlementFiguresSchema>;

export const settlementListSchema = z.object({
  data: z.array(settlementPeriodSchema),
  total: z.number().int(),
  /** The sums over every statement listed (all pages). */
  totals: settlementFiguresSchema,
  /** The range read, after defaults: what the screen shows as its filter. */
  from: z.string(),
  to: z.string(),
});
export type SettlementList = z.infer<typeof settlementListSchema>;

/** GET /exports/settlements: the list's range, one CSV line per merchant, period and company. */
export const settlementExportQuerySchema = rangeRules(z.object(rangeShape));
export type SettlementExportQuery = z.infer<typeof settlementExportQuerySchema>;

/** The 1st or the 16th of a month. */
export const settlementPeriodStartSchema = daySchema
  .refine((day) => day.endsWith('-01') || day.endsWith('-16'), 'v.settlement_period_start')
  .meta({ description: 'The 1st or the 16th of a month', example: '2025-03-01' });

export const settlementParamsSchema = z.object({
  merchant_id: idSchema,
  period_start: settlementPeriodStartSchema,
});
export type SettlementParams = z.infer<typeof settlementParamsSchema>;

/** GET /settlements/{merchant_id}/{period_start}: the statement and a page of its orders. */
export const settlementStatementQuerySchema = pageQuerySchema;

export const settlementStatementSchema = z.object({
  data: z.object({
    statement: settlementPeriodSchema,
    /** Oldest first (order time, then order id). */
    orders: z.array(settlementOrderSchema),
  }),
  /** How many orders the statement holds. */
  total: z.number().int(),
});
export type SettlementStatement = z.infer<typeof settlementStatementSchema>;

export const SETTLEMENT_PDF_LANGS = ['en', 'zh'] as const;

/** GET /settlements/{merchant_id}/{period_start}/pdf: the statement as a PDF document. */
export const settlementPdfQuerySchema = z.object({
  lang: z.enum(SETTLEMENT_PDF_LANGS).optional(),
});
export type SettlementPdfQuery = z.infer<typeof settlementPdfQuerySchema>;

/** GET /settlements/merchants: the merchants whose statements the caller may read (its filter). */
export const settlementMerchantSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
});
export type SettlementMerchant = z.infer<typeof settlementMerchantSchema>;
export const settlementMerchantListSchema = z.object({ data: z.array(settlementMerchantSchema) });
