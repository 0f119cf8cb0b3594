import { z } from 'zod';
import { PAGE_SIZES, decimalInteger } from './validation';

/** Query of every paged list (DESIGN 4): page from 1, page_size 10, 20 or 50. */
export const pageQuerySchema = z.object({
  page: decimalInteger(z.number().int().min(1).default(1)),
  page_size: decimalInteger(
    z
      .number()
      .int()
      .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), 'v.invalid')
      .default(10),
  ),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

export const dataOf = <T extends z.ZodType>(item: T) => z.object({ data: item });
export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), total: z.number().int() });
export const cursorListOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), next_cursor: z.string().nullable() });

export const okSchema = z.object({ data: z.object({ ok: z.literal(true) }) });

/** The error envelope of DESIGN 4. */
export const errorEnvelopeSchema = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  code: z.string().optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  errors: z.array(z.unknown()).optional(),
  /** Structured facts about a refusal (e.g. APPROVAL_SELF's link, APPROVAL_PAYEE_CHANGED's changes). */
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;
