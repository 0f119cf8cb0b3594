import { z } from 'zod';
import { pageQuerySchema } from './common';
import { daySchema } from './calendar';

/** A calendar day, YYYY-MM-DD, that exists (no 30 February): the one `daySchema`. */
export const calendarDaySchema = daySchema;

/**
 * A system period: the platform's reporting month (DESIGN 3.5), named YYYY-MM, running from
 * `starts_at` up to `ends_at` (for the current one, the next reset as now scheduled).
 */
export const systemPeriodSchema = z.object({
  period: z.string(),
  starts_at: z.string(),
  ends_at: z.string(),
  is_current: z.boolean(),
});
export type SystemPeriod = z.infer<typeof systemPeriodSchema>;

/** GET /sys/current-period */
export const currentPeriodSchema = z.object({
  period: z.string(),
  starts_at: z.string(),
  ends_at: z.string(),
  /** The day (programme time zone) the next period opens, at 00:00. */
  next_reset_date: z.string(),
});
export type CurrentPeriod = z.infer<typeof currentPeriodSchema>;

/** GET /sys/system-periods, newest first. */
export const systemPeriodListQuerySchema = pageQuerySchema;
export type SystemPeriodListQuery = z.infer<typeof systemPeriodListQuerySchema>;

/** GET /sys/reset-date */
export const systemResetDateSchema = z.object({
  reset_date: z.string(),
  updated_at: z.string().nullable(),
  updated_by: z.number().int().nullable(),
});
export type SystemResetDate = z.infer<typeof systemResetDateSchema>;

/** PUT /sys/reset-date: a day after today in the programme's time zone. */
export const systemResetDateBodySchema = z.strictObject({ reset_date: calendarDaySchema }).meta({
  description: 'The next reset, a day after today',
  example: { reset_date: '2027-02-01' },
});
export type SystemResetDateBody = z.infer<typeof systemResetDateBodySchema>;
