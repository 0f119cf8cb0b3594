import {
  REWARD_CSV_COLUMNS,
  REWARD_IMPORT_MAX_ROWS,
  employeeIdSchema,
  tokenAmountSchema,
  type RewardCsvColumn,
} from '@app/contract';
import { parseCsvFile } from '../../lib/csv-file';

/** One data row of a reward file, trimmed, with the errors found in it alone. */
export interface ParsedRewardRow {
  line: number;
  employee_id: string;
  /** Null when the cell is not a valid amount. */
  amount: number | null;
  amount_text: string;
  errors: Record<string, string>;
}

/** Digits only (a thousands separator as people type it is allowed): no signs, decimals or exponents. */
const AMOUNT_TEXT = /^\d{1,3}(?:,\d{3})+$|^\d+$/;

function toRewardRow(
  values: Record<RewardCsvColumn, string>,
  extra: string[],
  line: number,
): ParsedRewardRow {
  const errors: Record<string, string> = {};
  const staffNumber = employeeIdSchema.safeParse(values.employee_id);
  if (!staffNumber.success) errors.employee_id = staffNumber.error.issues[0]!.message;
  let amount: number | null = null;
  const text = values.amount;
  if (text === '') errors.amount = 'v.required';
  else if (AMOUNT_TEXT.test(text)) {
    const parsed = tokenAmountSchema.safeParse(Number(text.replaceAll(',', '')));
    if (parsed.success) amount = parsed.data;
    else errors.amount = parsed.error.issues[0]!.message;
  } else if (/^-\d+(?:\.\d+)?$/.test(text)) errors.amount = 'v.amount_positive';
  else if (/^\d+\.\d+$/.test(text)) errors.amount = 'v.integer';
  else errors.amount = 'v.number_invalid';
  if (extra.some((value) => value !== '')) errors._row = 'v.invalid';
  // The staff number as it is stored (NFKC, trimmed: employeeIdSchema), so the lookup agrees.
  const employeeId = staffNumber.success ? staffNumber.data : values.employee_id;
  return { line, employee_id: employeeId, amount, amount_text: text, errors };
}

/**
 * Reads a reward CSV (`employee_id,amount`, decision 0025) with the employee import's file checks
 * (lib/csv-file): both columns are required, at most REWARD_IMPORT_MAX_ROWS rows.
 */
export function parseRewardCsv(buffer: Buffer): ParsedRewardRow[] {
  return parseCsvFile(buffer, {
    columns: REWARD_CSV_COLUMNS,
    required: REWARD_CSV_COLUMNS,
    maxRows: REWARD_IMPORT_MAX_ROWS,
    toRow: toRewardRow,
  });
}
