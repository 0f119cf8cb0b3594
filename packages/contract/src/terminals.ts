import { z } from 'zod';
import { pageQuerySchema } from './common';
import { statusSchema } from './statuses';
import { codeSchema, idSchema, nameSchema, numberError, wholeNumber } from './validation';

/** A terminal (DESIGN 4). `api_key_prefix` tells keys apart; the key itself is never shown again. */
export const terminalSchema = z.object({
  id: z.number().int(),
  merchant_id: z.number().int(),
  code: z.string(),
  name: z.string(),
  status: statusSchema,
  api_key_prefix: z.string(),
  key_rotated_at: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Terminal = z.infer<typeof terminalSchema>;

/** On creation and rotation only: the terminal with its API key, shown this once. */
export const terminalWithKeySchema = terminalSchema.extend({ api_key: z.string() });
export type TerminalWithKey = z.infer<typeof terminalWithKeySchema>;

export const createTerminalBodySchema = z.strictObject({
  merchant_id: z
    .number({ error: numberError('v.merchant_required') })
    .int(wholeNumber())
    .positive('v.merchant_required'),
  code: codeSchema,
  name: nameSchema,
  status: statusSchema.default('active'),
});
export type CreateTerminalBody = z.input<typeof createTerminalBodySchema>;

export const terminalListQuerySchema = pageQuerySchema.extend({
  merchant_id: idSchema.optional(),
  status: statusSchema.optional(),
  /** Matches code or name, case-insensitively. */
  search: z.string().trim().max(100).optional(),
});
/** PUT /terminals/{id}: code and merchant are immutable (unknown fields here). */
export const updateTerminalBodySchema = z.strictObject({
  name: nameSchema,
  status: statusSchema,
});
export type UpdateTerminalBody = z.infer<typeof updateTerminalBodySchema>;

export type TerminalListQuery = z.infer<typeof terminalListQuerySchema>;

export const terminalIdParamsSchema = z.object({ id: idSchema });
