import { z } from 'zod';
import { DISTRIBUTE_MAX_ITEMS } from './tokens';

/**
 * Rewards from a file (issue 19 item 4, decision 0025): a CSV like the employee import's (UTF-8,
 * a BOM allowed, a header naming these columns in any order and case), one row per employee:
 * `employee_id` is the staff number (E0001), `amount` a whole number of tokens.
 */
export const REWARD_CSV_COLUMNS = ['employee_id', 'amount'] as const;
export type RewardCsvColumn = (typeof REWARD_CSV_COLUMNS)[number];

/** The largest reward file, in bytes; one distribution holds at most DISTRIBUTE_MAX_ITEMS rows. */
export const REWARD_IMPORT_MAX_BYTES = 1024 * 1024;
export const REWARD_IMPORT_MAX_ROWS = DISTRIBUTE_MAX_ITEMS;

export const REWARD_IMPORT_ACTIONS = ['reward', 'invalid'] as const;
export const rewardImportActionSchema = z.enum(REWARD_IMPORT_ACTIONS);
export type RewardImportAction = z.infer<typeof rewardImportActionSchema>;

/**
 * One line of the reward file. `id` is the employee it names (null when invalid), `amount` the
 * tokens it gets (null when the cell is not a valid amount; `amount_text` is the cell as written).
 * `errors` maps a field (or `_row`) to a `v.*` key, as in the employee import's preview.
 */
export const rewardImportRowSchema = z.object({
  line: z.number().int(),
  id: z.number().int().nullable(),
  employee_id: z.string(),
  name: z.string().nullable(),
  amount: z.number().int().nullable(),
  amount_text: z.string(),
  action: rewardImportActionSchema,
  errors: z.record(z.string(), z.string()).optional(),
});
export type RewardImportRow = z.infer<typeof rewardImportRowSchema>;

/**
 * What the valid rows add up to against the company's balance now: `balance_after` is what the
 * company would hold after rewarding them (negative when the file asks for more than it holds).
 */
export const rewardImportSummarySchema = z.object({
  people: z.number().int(),
  invalid: z.number().int(),
  total: z.number().int(),
  balance: z.number().int(),
  balance_after: z.number().int(),
});
export type RewardImportSummary = z.infer<typeof rewardImportSummarySchema>;

/** POST /tokens/topup-token/employees/preview: the file read and checked; nothing is written. */
export const rewardImportPreviewSchema = z.object({
  rows: z.array(rewardImportRowSchema),
  summary: rewardImportSummarySchema,
});
export type RewardImportPreview = z.infer<typeof rewardImportPreviewSchema>;
