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

/** GET /till/takings: a local day's takings (today by default) of the merchant's terminals. */
export const tillTakingsQuerySchema = z.object({
  date: z.iso.date('v.date_invalid').optional(),
});
export type TillTakingsQuery = z.infer<typeof tillTakingsQuerySchema>;

const takingsFiguresSchema = z.object({
  /** Orders placed that day. */
  orders: z.number().int(),
  /** What the wallets paid for them (a partial order counts what was paid). */
  tokens: z.number().int(),
  /** How much of those orders has been refunded since. */
  refunded: z.number().int(),
  /** tokens − refunded: what the day's orders still bring in. */
  net: z.number().int(),
});

export const tillTakingsSchema = z.object({
  date: z.iso.date(),
  /** Every active terminal of the merchant, and any other one that took orders that day. */
  terminals: z.array(
    takingsFiguresSchema.extend({
      terminal_id: z.number().int(),
      code: z.string(),
      name: z.string(),
    }),
  ),
  totals: takingsFiguresSchema,
});
export type TillTakings = z.infer<typeof tillTakingsSchema>;
