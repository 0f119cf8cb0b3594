import { z } from 'zod';

/**
 * One company's reset as a job run saw it: applied now, found already applied, or failed (nothing
 * of it applied; the next run tries again).
 */
export const monthlyResetRunSchema = z.object({
  company_id: z.number().int(),
  period: z.string(),
  status: z.enum(['applied', 'already_applied', 'failed']),
});
export type MonthlyResetRun = z.infer<typeof monthlyResetRunSchema>;

/** POST /jobs/monthly-reset: applies every reset that is due now. */
export const monthlyResetJobResultSchema = z.object({ runs: z.array(monthlyResetRunSchema) });
export type MonthlyResetJobResult = z.infer<typeof monthlyResetJobResultSchema>;

/** POST /jobs/auto-archive: refunds orders still `ordered` after the configured age. */
export const autoArchiveJobResultSchema = z.object({
  archived_order_ids: z.array(z.number().int()),
  older_than_hours: z.number().int(),
});
export type AutoArchiveJobResult = z.infer<typeof autoArchiveJobResultSchema>;

/** POST /jobs/auto-archive body (may be absent): an age to use instead of the configured one. */
export const autoArchiveJobBodySchema = z
  .strictObject({
    older_than_hours: z
      .number()
      .int('v.integer')
      .min(1, 'v.invalid')
      .max(24 * 366)
      .optional(),
  })
  .nullish();
export type AutoArchiveJobBody = z.infer<typeof autoArchiveJobBodySchema>;
