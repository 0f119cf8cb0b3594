import type { RewardImportPreview, RewardImportRow } from '@app/contract';
import { AppError } from '../../lib/app-error';
import type { ServiceDeps } from '../../lib/deps';
import type { TenantScope } from '../../lib/scope';
import { lookupCompany } from '../companies';
import { parseRewardCsv, type ParsedRewardRow } from './reward-import.csv';
import { findEmployeesByStaffNumbers, type RewardableEmployee } from './reward-import.repository';

/** Rewards act on the company admin's own company (only company admins hold tokens.distribute). */
function rewardCompany(scope: TenantScope): number {
  if (scope.kind !== 'company') throw new AppError('PERMISSION_DENIED');
  return scope.companyId;
}

/**
 * What each row of a reward file does: `reward` the employee its staff number names, or
 * `invalid` with the reasons: a staff number of no live employee of this company
 * (`v.employee_not_found`), an inactive employee (`v.employee_inactive`, the distribution would
 * refuse them), or one already named on an earlier line (`v.duplicate_in_file`).
 */
export function classifyRewardRows(
  parsed: ParsedRewardRow[],
  employees: RewardableEmployee[],
): RewardImportRow[] {
  const byStaffNumber = new Map(employees.map((e) => [e.employee_id, e]));
  const seen = new Set<string>();
  return parsed.map((row) => {
    const errors = { ...row.errors };
    const employee = byStaffNumber.get(row.employee_id);
    if (!errors.employee_id) {
      if (seen.has(row.employee_id)) errors.employee_id = 'v.duplicate_in_file';
      else if (!employee) errors.employee_id = 'v.employee_not_found';
      else if (employee.status !== 'active') errors.employee_id = 'v.employee_inactive';
      seen.add(row.employee_id);
    }
    const isInvalid = Object.keys(errors).length > 0;
    return {
      line: row.line,
      id: isInvalid ? null : employee!.id,
      employee_id: row.employee_id,
      name: employee?.name ?? null,
      amount: row.amount,
      amount_text: row.amount_text,
      action: isInvalid ? 'invalid' : 'reward',
      ...(isInvalid ? { errors } : {}),
    };
  });
}

/**
 * POST /tokens/topup-token/employees/preview: reads a reward file and says, row by row, who gets
 * what, and what the valid rows come to against the company's balance. Nothing is written: the
 * web app sends the valid rows to the distribution (all or nothing) after its review step.
 */
export async function previewRewardImport(
  { database }: ServiceDeps,
  scope: TenantScope,
  file: Buffer,
): Promise<RewardImportPreview> {
  const companyId = rewardCompany(scope);
  const parsed = parseRewardCsv(file);
  const staffNumbers = [...new Set(parsed.map((row) => row.employee_id).filter(Boolean))];
  const [company, employees] = await Promise.all([
    lookupCompany(database.db, scope, companyId),
    findEmployeesByStaffNumbers(database.db, companyId, staffNumbers),
  ]);
  if (!company) throw new AppError('RECORD_NOT_FOUND');
  const rows = classifyRewardRows(parsed, employees);
  let total = 0;
  let people = 0;
  for (const row of rows) {
    if (row.action !== 'reward') continue;
    people += 1;
    total += row.amount!;
  }
  if (!Number.isSafeInteger(total)) {
    // The distribution would refuse it too; a preview cannot even count it exactly.
    throw new AppError('AMOUNT_TOO_LARGE', { metadata: { amount: 'v.amount_too_large' } });
  }
  return {
    rows,
    summary: {
      people,
      invalid: rows.length - people,
      total,
      balance: company.tokenBalance,
      balance_after: company.tokenBalance - total,
    },
  };
}
