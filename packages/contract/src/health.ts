import { z } from 'zod';

export const healthResponseSchema = z.object({ status: z.literal('ok') });
export const readyResponseSchema = z.object({
  status: z.enum(['ready', 'unavailable']),
  database: z.enum(['up', 'down']),
  /** Present (true) once the instance began shutting down: it finishes what it has, takes no more. */
  shutting_down: z.boolean().optional(),
});
