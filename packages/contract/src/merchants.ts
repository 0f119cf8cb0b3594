import { z } from 'zod';
import { pageQuerySchema } from './common';
import { MERCHANT_SORTS, sortQueryShape } from './sorting';
import { merchantCategorySchema } from './spending-rules';
import { statusSchema } from './statuses';
import { codeSchema, idSchema, nameSchema } from './validation';

export const merchantSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  status: statusSchema,
  /** DESIGN 7: what a rule set's merchant_categories allow; existing merchants are `other`. */
  category: merchantCategorySchema,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Merchant = z.infer<typeof merchantSchema>;

export const createMerchantBodySchema = z.strictObject({
  code: codeSchema,
  name: nameSchema,
  status: statusSchema.default('active'),
  category: merchantCategorySchema.default('other'),
});
export type CreateMerchantBody = z.input<typeof createMerchantBodySchema>;

export const merchantListQuerySchema = pageQuerySchema.extend({
  status: statusSchema.optional(),
  category: merchantCategorySchema.optional(),
  /** Matches code or name, case-insensitively. */
  search: z.string().trim().max(100).optional(),
  ...sortQueryShape(MERCHANT_SORTS),
});
/** PUT /merchants/{id}: the code is immutable (an unknown field here). */
export const updateMerchantBodySchema = z.strictObject({
  name: nameSchema,
  status: statusSchema,
  /** Optional so that a client written before categories still updates; absent = unchanged. */
  category: merchantCategorySchema.optional(),
});
export type UpdateMerchantBody = z.infer<typeof updateMerchantBodySchema>;

export type MerchantListQuery = z.infer<typeof merchantListQuerySchema>;

export const merchantIdParamsSchema = z.object({ id: idSchema });
