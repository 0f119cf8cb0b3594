import { tokenAmountSchema, validationErrorMap, type Employee } from '@app/contract';
import { numberField } from '@/lib/forms';
import { employeeName } from './employees-columns';

/** The amount box of the dialog: the contract's token amount, typed as text. */
export const rewardAmountField = numberField(tokenAmountSchema);

/** A `v.*` key for a typed amount, or the amount. */
export function readAmount(text: string): { amount: number } | { error: string } {
  const parsed = rewardAmountField.safeParse(text, { error: validationErrorMap });
  return parsed.success ? { amount: parsed.data } : { error: parsed.error.issues[0]!.message };
}

/** One employee's reward as the review shows it and the distribution receives it. */
export interface RewardLine {
  employee_id: number;
  label: string;
  amount: number;
}

/** What the admin is about to confirm. */
export interface RewardPlan {
  lines: RewardLine[];
  total: number;
  note: string;
}

/**
 * What the selected employees get: the common amount, unless a row overrides it. Returns the
 * lines, or the problems by row (`common` for the common box) when a box does not hold an amount.
 */
export function planFromSelection(
  employees: Employee[],
  common: string,
  overrides: ReadonlyMap<number, string>,
): { lines: RewardLine[]; total: number } | { errors: Map<number | 'common', string> } {
  const errors = new Map<number | 'common', string>();
  const commonAmount = readAmount(common);
  const lines: RewardLine[] = [];
  let total = 0;
  for (const employee of employees) {
    const override = overrides.get(employee.id);
    const read = override === undefined ? commonAmount : readAmount(override);
    if ('error' in read) {
      errors.set(override === undefined ? 'common' : employee.id, read.error);
      continue;
    }
    lines.push({ employee_id: employee.id, label: employeeName(employee), amount: read.amount });
    total += read.amount;
  }
  return errors.size > 0 ? { errors } : { lines, total };
}

/** What the boxes add up to so far (a box that is not an amount counts as 0). */
export function runningTotal(
  employees: Employee[],
  common: string,
  overrides: ReadonlyMap<number, string>,
): number {
  const commonAmount = readAmount(common);
  return employees.reduce((sum, employee) => {
    const override = overrides.get(employee.id);
    const read = override === undefined ? commonAmount : readAmount(override);
    return 'amount' in read ? sum + read.amount : sum;
  }, 0);
}
