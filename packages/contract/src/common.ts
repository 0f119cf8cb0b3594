import { z } from 'zod';
import { PAGE_SIZES, decimalInteger } from './validation';

/** Query of every paged list (DESIGN 4): page from 1, page_size 10, 20 or 50. */
export const pageQuerySchema = z.object({
  page: decimalInteger(z.number().int().min(1).default(1)),
  page_size: decimalInteger(
    z
      .number()
      .int()
      // A type predicate: the type is `10 | 20 | 50`, as the document's enum below says, so the
      // web's queries and a generated client's are held to the same sizes (issue 44).
      .refine(
        (n): n is (typeof PAGE_SIZES)[number] => (PAGE_SIZES as readonly number[]).includes(n),
        'v.invalid',
      )
      // The rule above, said in the document: generated clients accept only these (issue 44).
      .meta({ enum: [...PAGE_SIZES] })
      .default(10),
  ),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

export const dataOf = <T extends z.ZodType>(item: T) => z.object({ data: item });
// The examples are the document's (a list of one, its last page): an answer's example is made of
// its parts' (apps/api/src/openapi.ts).
export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), total: z.number().int().meta({ example: 1 }) });
export const cursorListOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), next_cursor: z.string().nullable().meta({ example: null }) });

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
