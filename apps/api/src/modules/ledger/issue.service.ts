// Tokens issued to a company and distributed to its employees (DESIGN 3.2: company_issued,
// employee_issued, and a new company's opening monthly_tokens_added).
import type { DistributeResult, TopupCompanyResult } from '@app/contract';
import type { Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { recordEvent } from '../../lib/outbox';
import { lockCompany, lockEmployees, type CompanyRow } from './ledger.repository';
import { companyWallet, employeeWallet, fitsBalance, Postings } from './postings';

/** The allocation a new company starts with: its `init_token`, for its opening token month. */
export async function openCompanyWallet(
  tx: Tx,
  input: { company: CompanyRow; at: Date; actorUserId?: number | null },
): Promise<void> {
  const { company } = input;
  if (company.initToken <= 0) return;
  const postings = new Postings({
    at: input.at,
    actorUserId: input.actorUserId,
    note: 'opening allocation',
  });
  postings.post(companyWallet(company), 'monthly_tokens_added', 'received', company.initToken, {
    period: company.tokenMonth,
  });
  await postings.flush(tx);
}

/** An admin issues tokens to a company (`company_issued`). */
export async function issueCompanyTokens(
  tx: Tx,
  input: { companyId: number; amount: number; note?: string; actorUserId: number | null; at: Date },
): Promise<TopupCompanyResult> {
  const company = await lockCompany(tx, input.companyId);
  if (!company) throw new AppError('RECORD_NOT_FOUND');
  if (company.status !== 'active') throw new AppError('COMPANY_INACTIVE');
  if (!fitsBalance(company.tokenBalance, input.amount)) {
    throw new AppError('AMOUNT_TOO_LARGE', { metadata: { amount: 'v.balance_cap' } });
  }
  const wallet = companyWallet(company);
  const postings = new Postings({ at: input.at, actorUserId: input.actorUserId, note: input.note });
  postings.post(wallet, 'company_issued', 'received', input.amount, { period: company.tokenMonth });
  const [transactionId] = await postings.flush(tx);
  await recordEvent(tx, {
    type: 'tokens.issued',
    companyId: company.id,
    data: {
      transaction_id: transactionId!,
      amount: input.amount,
      period: company.tokenMonth,
      issued_at: input.at.toISOString(),
    },
    at: input.at,
  });
  return {
    company_id: company.id,
    amount: input.amount,
    token_balance: wallet.balance,
    transaction_id: transactionId!,
    period: company.tokenMonth,
  };
}

/**
 * A company admin distributes tokens to many employees (`employee_issued`), all or nothing: the
 * company and every employee are locked first, every rule is checked, then the rows are written.
 */
export async function distributeTokens(
  tx: Tx,
  input: {
    companyId: number;
    items: { employee_id: number; amount: number }[];
    note?: string;
    actorUserId: number | null;
    at: Date;
  },
): Promise<DistributeResult> {
  const company = await lockCompany(tx, input.companyId);
  if (!company) throw new AppError('RECORD_NOT_FOUND');
  if (company.status !== 'active') throw new AppError('COMPANY_INACTIVE');

  const ids = [...new Set(input.items.map((i) => i.employee_id))].sort((a, b) => a - b);
  const staff = await lockEmployees(tx, company.id, ids);
  if (staff.length !== ids.length) throw new AppError('RECORD_NOT_FOUND');
  const byId = new Map(staff.map((e) => [e.id, e]));
  for (const e of staff) {
    if (e.status !== 'active') throw new AppError('USER_INACTIVE');
    if (e.tokenMonth !== company.tokenMonth) throw new AppError('TOKEN_MONTH_NOT_MATCH');
  }
  const total = input.items.reduce((sum, i) => sum + i.amount, 0);
  if (!Number.isSafeInteger(total) || total > company.tokenBalance) {
    throw new AppError('TOTAL_EXCEEDS_AVAILABLE');
  }

  const from = companyWallet(company);
  const postings = new Postings({ at: input.at, actorUserId: input.actorUserId, note: input.note });
  const items: DistributeResult['items'] = [];
  // Rows follow employee id order, the order the wallets were locked in.
  const amounts = new Map(input.items.map((i) => [i.employee_id, i.amount]));
  for (const id of ids) {
    const employee = byId.get(id)!;
    const amount = amounts.get(id)!;
    const to = employeeWallet(employee);
    if (!fitsBalance(to.balance, amount)) {
      throw new AppError('AMOUNT_TOO_LARGE', { metadata: { items: 'v.balance_cap' } });
    }
    const transferId = postings.transfer(from, to, 'employee_issued', amount, company.tokenMonth);
    items.push({ employee_id: id, amount, available_tokens: to.balance, transfer_id: transferId });
  }
  await postings.flush(tx);
  await recordEvent(tx, {
    type: 'tokens.distributed',
    companyId: company.id,
    data: {
      total,
      employees: items.length,
      period: company.tokenMonth,
      distributed_at: input.at.toISOString(),
    },
    at: input.at,
  });
  return { company_id: company.id, total, token_balance: from.balance, items };
}
