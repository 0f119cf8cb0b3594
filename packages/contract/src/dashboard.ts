import { z } from 'zod';
import { statusSchema } from './statuses';
import { idSchema } from './validation';
import { monthSchema } from './calendar';
import type { SelfUser } from './iam';

const tokens = z.number().int();

/**
 * The five totals of spec 3 for one token month (DESIGN 4), plus the two amounts behind
 * `consumed_by_employees`:
 * - `tokens_from_admin`: company_issued + monthly_tokens_added;
 * - `distributed_to_employees`: what employees received from the company (employee_issued +
 *   monthly_tokens_reset);
 * - `consumed_by_employees`: `purchased` (order_purchased) − `refunded` (order_refunded);
 * - `company_unused`, `employee_unused`: tokens of the month left unused, i.e. what expired when
 *   the month closed plus what wallets still hold in it (the live balance while it is current).
 */
export const dashboardTotalsSchema = z.object({
  tokens_from_admin: tokens,
  distributed_to_employees: tokens,
  consumed_by_employees: tokens,
  company_unused: tokens,
  employee_unused: tokens,
  purchased: tokens,
  refunded: tokens,
});
export type DashboardTotals = z.infer<typeof dashboardTotalsSchema>;

/**
 * A dashboard's totals: the unused amounts are wallet balances, so they are null for merchant
 * roles, which never learn what a company or an employee holds (DESIGN 2).
 */
export const dashboardViewTotalsSchema = dashboardTotalsSchema.extend({
  company_unused: tokens.nullable(),
  employee_unused: tokens.nullable(),
});
export type DashboardViewTotals = z.infer<typeof dashboardViewTotalsSchema>;

/** One day (programme time zone) of the month's flows, for charts. */
export const dashboardDaySchema = z.object({
  date: z.string(),
  tokens_from_admin: tokens,
  distributed_to_employees: tokens,
  consumed_by_employees: tokens,
  purchased: tokens,
  refunded: tokens,
});
export type DashboardDay = z.infer<typeof dashboardDaySchema>;

/**
 * Whose numbers a dashboard shows: every company, one company, one employee's own wallet, or one
 * merchant's orders. Totals that do not apply to a view are 0 (decision 0007).
 */
export const DASHBOARD_VIEWS = ['all', 'company', 'employee', 'merchant'] as const;
export const dashboardViewSchema = z.enum(DASHBOARD_VIEWS);
export type DashboardView = z.infer<typeof dashboardViewSchema>;

/**
 * GET /dashboard. `month` defaults to the calendar month of today in the programme's time zone;
 * each company's view of it counts the token month `counted_month` names (decision 0088).
 * `company_id` narrows admin and Group HR to one company; others may only name their own.
 */
export const dashboardQuerySchema = z.object({
  month: monthSchema.optional(),
  company_id: idSchema.optional(),
});
export type DashboardQuery = z.infer<typeof dashboardQuerySchema>;

export const dashboardSchema = z.object({
  month: z.string(),
  view: dashboardViewSchema,
  company_id: z.number().int().nullable(),
  /** Our id of the employee, for the employee's own dashboard. */
  employee_id: z.number().int().nullable(),
  merchant_id: z.number().int().nullable(),
  totals: dashboardViewTotalsSchema,
  /**
   * The days the view counts, YYYY-MM-DD, both ends included (decision 0088): the token month
   * each company counts for `month` (one company's: "2026-11-15" to "2026-12-14"; every company's:
   * from the earliest first day to the latest last one). The totals and the chart count the same
   * rows. A merchant's view, across companies, is the calendar month `month`.
   */
  window_start: z.string(),
  window_end: z.string(),
  /**
   * The token month the view counts for one company or one employee (`YYYY-MM`): `month`, or
   * while `month` is under way and the company's token month of that label has not opened yet,
   * its current one. Null for every company's view (each row of the summary names its own) and
   * for a merchant's.
   */
  counted_month: z.string().nullable(),
  /**
   * The flows of the rows written on each day of the window up to today (a day: the programme's
   * time zone), in order; every day listed, days without movement as zeros.
   */
  daily: z.array(dashboardDaySchema),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

/** A company's totals for a month, as the summary and the summary report list them. */
export const companyTotalsSchema = dashboardTotalsSchema.extend({
  company_id: z.number().int(),
  company_code: z.string(),
  company_name: z.string(),
  company_status: statusSchema,
  /** The company's current token month (which may be after the month shown). */
  token_month: z.string(),
  /**
   * The token month these totals count (decision 0088): the one labelled with the month shown,
   * or, while that month is under way and its token month has not opened yet, the current one.
   */
  counted_month: z.string(),
  /** Its first and last day, YYYY-MM-DD, both included (a reset on the 15th: 15 Nov – 14 Dec). */
  counted_from: z.string(),
  counted_to: z.string(),
});
export type CompanyTotals = z.infer<typeof companyTotalsSchema>;

/** GET /dashboard/summary (admin, Group HR): every company's totals and the grand total. */
export const dashboardSummaryQuerySchema = z.object({ month: monthSchema.optional() });
export type DashboardSummaryQuery = z.infer<typeof dashboardSummaryQuerySchema>;

export const dashboardSummarySchema = z.object({
  month: z.string(),
  totals: dashboardTotalsSchema,
  companies: z.array(companyTotalsSchema),
});
export type DashboardSummary = z.infer<typeof dashboardSummarySchema>;

/**
 * What the API gives the web build's server entry to draw a signed-in user's /dashboard
 * (apps/web/src/prerender.tsx `renderDashboard`, decision 0050): the answers the page would ask
 * for, and what of the request shapes the page.
 */
export interface DashboardRenderInput {
  lng: 'en' | 'zh';
  /** The web app's own catalogue in that language (dist/locales/{lng}/common.json). */
  common: Record<string, unknown>;
  /** The page's path and search, as requested (`/dashboard?month=2026-11`). */
  url: string;
  /** The request's Cookie header: the web app's own cookies (the sidebar's state) shape the page. */
  cookie: string;
  /** GET /iam/self-info's answer. */
  user: SelfUser;
  /** GET /dashboard's answer for the page's search parameters. */
  dashboard: Dashboard;
  /** GET /dashboard/summary's, where the page shows it (admin and Group HR, all companies). */
  summary?: DashboardSummary;
  /**
   * Whether the request came from a phone (below the app's 768 px breakpoint, as far as its
   * headers tell): the page is drawn for that width. Absent: a wide screen.
   */
  mobile?: boolean;
}

/** The drawn page: the markup of #root, the title, and the JSON of its #server-queries script. */
export interface DashboardRenderOutput {
  html: string;
  title: string;
  state: string;
}
