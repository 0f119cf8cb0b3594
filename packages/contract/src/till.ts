import { z } from 'zod';
import { idSchema } from './validation';

/**
 * The till (DESIGN 8): the merchant roles' point of sale in the web app. The signed-in session
 * stands in for the terminal key; the till charges through one of its merchant's active terminals.
 */
export const tillTerminalSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  merchant_id: z.number().int(),
  merchant_name: z.string(),
});
export type TillTerminal = z.infer<typeof tillTerminalSchema>;

export const tillTerminalParamsSchema = z.object({ id: idSchema });

/** GET /till/orders: a local day's orders (today by default) of one terminal, or of all (supervisors). */
export const tillOrdersQuerySchema = z.object({
  terminal_id: idSchema.optional(),
  date: z.iso.date('v.date_invalid').optional(),
});
export type TillOrdersQuery = z.infer<typeof tillOrdersQuerySchema>;
