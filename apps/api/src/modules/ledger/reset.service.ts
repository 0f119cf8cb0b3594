// The monthly reset (DESIGN 3.5: employee_expired, company_expired, monthly_tokens_added,
// monthly_tokens_reset) and the renewal of one employee left behind by it.
import { AppError } from '../../lib/app-error';
import type { Tx } from '../../db/client';
import { nextPeriod, periodStart } from '../../lib/periods';
import { recordEvent } from '../webhooks';
import {
  allowLongResetStatements,
  hasMonthlyReset,
  insertMonthlyReset,
  insertResetRows,
  lockCompany,
  lockCompanyStaff,
  lockEmployees,
  renewWithoutAmount,
  setCompanyPeriod,
  setEmployeesTokenMonth,
  takeResetLock,
  type CompanyRow,
  type EmployeeRow,
} from './ledger.repository';
import { companyWallet, employeeWallet, Postings, timeOrderedUuid } from './postings';

export type ResetStep = 'company_renewed' | 'employees_renewed' | 'ledger_written';

export interface ResetHooks {
  /** Called after each step of a reset, inside its transaction (tests inject failures here). */
  afterStep?: (step: ResetStep, companyId: number) => void | Promise<void>;
}

export interface ResetOutcome {
  companyId: number;
  period: string;
  status: 'applied' | 'already_applied';
}

/** The amount an employee receives at each reset. */
export const monthlyAmountOf = (
  employee: Pick<EmployeeRow, 'monthlyTokens'>,
  company: CompanyRow,
): number => employee.monthlyTokens ?? company.employeeMonthlyTokens;

/**
 * Applies a company's due reset, opening the next token month: every employee's balance expires,
 * then the company's; the company receives its allocation; every active employee is renewed into
 * the new month with its monthly amount. One transaction, so a failure leaves none of it. Returns
 * null when no reset is due. A second run for the same period finds the month already opened (the
 * advisory lock makes it wait for the first), and the unique (company_id, period) of
 * monthly_resets stops any path that would slip past.
 *
 * All the reset's ledger rows are written by one INSERT, in that order (`insertResetRows`): the
 * ledger trigger then writes each employee once, moving its balance and, with its renewal, its
 * token month (migration 0011). The per-employee rows are built in that statement from the locked
 * employee rows (decision 0029): what is decided here is per company (sums of the locked staff),
 * and each employee's amount is `monthlyAmountOf`, written in SQL as coalesce(monthly_tokens, …).
 */
export async function resetCompany(
  tx: Tx,
  input: { companyId: number; at: Date; timeZone: string; hooks?: ResetHooks },
): Promise<ResetOutcome | null> {
  await allowLongResetStatements(tx);
  await takeResetLock(tx, input.companyId);
  const company = await lockCompany(tx, input.companyId);
  if (!company || company.nextResetAt > input.at) return null;
  const period = nextPeriod(company.tokenMonth);
  if (await hasMonthlyReset(tx, company.id, period)) {
    return { companyId: company.id, period, status: 'already_applied' };
  }
  const staff = await lockCompanyStaff(tx, company.id, company.employeeMonthlyTokens);
  const hooks = input.hooks ?? {};

  // 1. Every employee's remaining balance expires, in the month it was held.
  const expiredEmployeeTokens = staff.expiringTokens;

  // 2. The company's balance expires; its allocation for the new month arrives.
  const postings = new Postings({ at: input.at });
  const from = companyWallet(company);
  const expiredCompanyTokens = from.balance;
  if (from.balance > 0) {
    postings.post(from, 'company_expired', 'sent', from.balance, { period: company.tokenMonth });
  }
  const initToken = company.initTokenNextMonth ?? company.initToken;
  const isActive = company.status === 'active';
  const addedTokens = isActive ? initToken : 0;
  if (addedTokens > 0) {
    postings.post(from, 'monthly_tokens_added', 'received', addedTokens, { period });
  }
  await setCompanyPeriod(tx, company.id, {
    tokenMonth: period,
    nextResetAt: periodStart(nextPeriod(period), company.monthlyResetDay, input.timeZone),
    initToken,
    initTokenNextMonth: null,
    updatedAt: input.at,
  });
  await hooks.afterStep?.('company_renewed', company.id);

  // 3. Active employees enter the new month with their monthly amount. When the company cannot
  //    cover every amount, nobody gets one (no first-come share), and the run records 0 allocated.
  //    A renewal row takes its employee into the new month; the others are moved after the rows
  //    (before, their expiries would read the new month).
  const isAllocated = isActive && staff.wanted > 0 && staff.wanted <= from.balance;
  const allocatedTokens = isAllocated ? staff.wanted : 0;
  const reset = {
    companyId: company.id,
    at: input.at,
    isAllocated,
    defaultMonthlyTokens: company.employeeMonthlyTokens,
    period,
  };
  await insertResetRows(tx, {
    ...reset,
    companyRows: postings.rows,
    renewalsFrom: from.balance,
    transferIdPrefix: timeOrderedUuid(input.at).slice(0, 15),
  });
  await hooks.afterStep?.('ledger_written', company.id);
  await renewWithoutAmount(tx, reset);
  await hooks.afterStep?.('employees_renewed', company.id);

  await insertMonthlyReset(tx, {
    companyId: company.id,
    period,
    previousPeriod: company.tokenMonth,
    scheduledAt: company.nextResetAt,
    appliedAt: input.at,
    expiredEmployeeTokens,
    expiredCompanyTokens,
    addedTokens,
    renewedEmployees: staff.active,
    allocatedTokens,
  });
  await recordEvent(tx, {
    type: 'reset.completed',
    companyId: company.id,
    data: {
      period,
      previous_period: company.tokenMonth,
      expired_employee_tokens: expiredEmployeeTokens,
      expired_company_tokens: expiredCompanyTokens,
      added_tokens: addedTokens,
      allocated_tokens: allocatedTokens,
      renewed_employees: staff.active,
      completed_at: input.at.toISOString(),
    },
    at: input.at,
  });
  return { companyId: company.id, period, status: 'applied' };
}

/**
 * Renews one employee left behind by a reset (inactive then, or added back): whatever it still
 * holds from its old month expires, it joins the company's month and receives its monthly amount.
 */
export async function renewEmployee(
  tx: Tx,
  input: { companyId: number; employeeId: number; actorUserId: number | null; at: Date },
): Promise<void> {
  const company = await lockCompany(tx, input.companyId);
  if (!company) throw new AppError('RECORD_NOT_FOUND');
  if (company.status !== 'active') throw new AppError('COMPANY_INACTIVE');
  const [employee] = await lockEmployees(tx, company.id, [input.employeeId]);
  if (!employee) throw new AppError('RECORD_NOT_FOUND');
  if (employee.status !== 'active') throw new AppError('USER_INACTIVE');
  if (employee.tokenMonth === company.tokenMonth) return;

  const postings = new Postings({ at: input.at, actorUserId: input.actorUserId });
  const wallet = employeeWallet(employee);
  if (wallet.balance > 0) {
    postings.post(wallet, 'employee_expired', 'sent', wallet.balance, {
      period: employee.tokenMonth,
    });
  }
  const amount = monthlyAmountOf(employee, company);
  if (amount > company.tokenBalance) throw new AppError('TOTAL_EXCEEDS_AVAILABLE');
  // The renewal row takes the employee into the company's month (migration 0011), in the same
  // write as its expiry; without an amount there is no row, so the month is set here.
  if (amount > 0) {
    postings.transfer(
      companyWallet(company),
      wallet,
      'monthly_tokens_reset',
      amount,
      company.tokenMonth,
    );
  } else {
    await setEmployeesTokenMonth(tx, [employee.id], company.tokenMonth, input.at);
  }
  await postings.flush(tx);
}
