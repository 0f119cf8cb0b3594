import { z } from 'zod';
import { pageQuerySchema } from './common';
import { MERCHANT_SORTS, sortQueryShape } from './sorting';
import { statusSchema } from './statuses';
import { codeSchema, idSchema, nameSchema } from './validation';

export const merchantSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  status: statusSchema,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Merchant = z.infer<typeof merchantSchema>;

export const createMerchantBodySchema = z.strictObject({
  code: codeSchema,
  name: nameSchema,
  status: statusSchema.default('active'),
});
export type CreateMerchantBody = z.input<typeof createMerchantBodySchema>;

export const merchantListQuerySchema = pageQuerySchema.extend({
  status: statusSchema.optional(),
  /** Matches code or name, case-insensitively. */
  search: z.string().trim().max(100).optional(),
  ...sortQueryShape(MERCHANT_SORTS),
});
/** PUT /merchants/{id}: the code is immutable (an unknown field here). */
export const updateMerchantBodySchema = z.strictObject({
  name: nameSchema,
  status: statusSchema,
});
export type UpdateMerchantBody = z.infer<typeof updateMerchantBodySchema>;

export type MerchantListQuery = z.infer<typeof merchantListQuerySchema>;

export const merchantIdParamsSchema = z.object({ id: idSchema });
