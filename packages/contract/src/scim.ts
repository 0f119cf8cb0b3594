import { z } from 'zod';
import { idSchema } from './validation';

/**
 * SCIM 2.0 provisioning of a company's employees (DESIGN 9, decision 0087): the company's bearer
 * tokens, made, listed and revoked by its admins, and the log of the last SCIM requests. The
 * SCIM protocol itself (`/scim/v2`) speaks RFC 7643/7644, not this envelope.
 */
export const scimTokenSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  description: z.string(),
  /** The token's first characters, to tell tokens apart; the token itself is shown once. */
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type ScimToken = z.infer<typeof scimTokenSchema>;

/** The answer of POST /companies/{id}/scim-tokens: the only time the token is shown. */
export const scimTokenCreatedSchema = scimTokenSchema.extend({ token: z.string() });
export type ScimTokenCreated = z.infer<typeof scimTokenCreatedSchema>;

export const createScimTokenBodySchema = z.strictObject({
  description: z
    .string('v.description_required')
    .trim()
    .min(1, 'v.description_required')
    .max(200, 'v.description_max'),
});
export type CreateScimTokenBody = z.input<typeof createScimTokenBodySchema>;

/** One SCIM request as the Provisioning screen lists it (the newest 50 of a company are kept). */
export const scimRequestSchema = z.object({
  id: z.number().int(),
  token_id: z.number().int().nullable(),
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  occurred_at: z.string(),
});
export type ScimRequest = z.infer<typeof scimRequestSchema>;

/** How many SCIM requests a company's log keeps. */
export const SCIM_REQUESTS_KEPT = 50;

export const scimTokenParamsSchema = z.object({
  id: idSchema,
  token_id: idSchema,
});
