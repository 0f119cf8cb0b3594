import { z } from 'zod';
import { pageQuerySchema } from './common';
import { monthSchema } from './calendar';
import { companyTotalsSchema, dashboardViewTotalsSchema } from './dashboard';
import { statusSchema } from './statuses';
import { idSchema } from './validation';

const tokens = z.number().int();
const searchSchema = z.string().trim().max(100).optional();

/**
 * GET /reports/summary: one row per company in the caller's scope for a token month, paged by
 * company name, with the grand total of every row in scope (not only the page). Admin and Group
 * HR see every company; a company admin its own; employees and merchants no rows (decision 0007).
 * `month` defaults to the calendar month of today in the programme's time zone; each row counts
 * the token month its `counted_month` names (decision 0088).
 */
export const reportSummaryFilterSchema = z.object({
  month: monthSchema.optional(),
  company_id: idSchema.optional(),
  /** Part of the company code or name, case-insensitive. */
  search: searchSchema,
});
export type ReportSummaryFilter = z.infer<typeof reportSummaryFilterSchema>;
export const reportSummaryQuerySchema = reportSummaryFilterSchema.extend(pageQuerySchema.shape);
export type ReportSummaryQuery = z.infer<typeof reportSummaryQuerySchema>;

export const reportSummarySchema = z.object({
  data: z.array(companyTotalsSchema),
  total: z.number().int(),
  month: z.string(),
  /** Merchants see no rows and null unused amounts (DESIGN 2). */
  grand_total: dashboardViewTotalsSchema,
});
export type ReportSummary = z.infer<typeof reportSummarySchema>;

/** One employee's month in a company's summary report. */
export const employeeReportRowSchema = z.object({
  /** Our id of the employee. */
  id: z.number().int(),
  /** The company's staff number. */
  employee_id: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  status: statusSchema,
  token_month: z.string(),
  /** What the employee received from the company in the month (employee_issued + monthly_tokens_reset). */
  received: tokens,
  purchased: tokens,
  refunded: tokens,
  /** purchased − refunded */
  consumed: tokens,
  /** What expired at the month's close. */
  expired: tokens,
  /** expired + the balance still held in the month (the live balance while it is current). */
  unused: tokens,
  /** The balance now, whatever the month shown. */
  available_tokens: tokens,
});
export type EmployeeReportRow = z.infer<typeof employeeReportRowSchema>;

/** GET /reports/summary/{companyId} (admin, Group HR): the company's employees, paged by staff number. */
export const companyReportFilterSchema = z.object({
  month: monthSchema.optional(),
  status: statusSchema.optional(),
  /** Part of the staff number, name or email, case-insensitive. */
  search: searchSchema,
});
export type CompanyReportFilter = z.infer<typeof companyReportFilterSchema>;
export const companyReportQuerySchema = companyReportFilterSchema.extend(pageQuerySchema.shape);
export type CompanyReportQuery = z.infer<typeof companyReportQuerySchema>;

export const companyReportParamsSchema = z.object({ companyId: idSchema });

export const companyReportSchema = z.object({
  data: z.array(employeeReportRowSchema),
  total: z.number().int(),
  month: z.string(),
  company: companyTotalsSchema,
});
export type CompanyReport = z.infer<typeof companyReportSchema>;
