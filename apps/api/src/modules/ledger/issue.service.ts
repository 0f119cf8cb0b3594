// Tokens issued to a company and distributed to its employees (DESIGN 3.2: company_issued,
// employee_issued, and a new company's opening monthly_tokens_added).
import type { DistributeResult, ErrorCode, TopupCompanyResult } from '@app/contract';
import type { Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { auditIp } from '../../lib/audit';
import { recordEvent } from '../webhooks';
import { distributeTokensRow, lockCompany, type CompanyRow } from './ledger.repository';
import { companyWallet, fitsBalance, Postings, timeOrderedUuid } from './postings';

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

/** The audit row a distribution writes with its ledger rows (`distribute` on the company). */
export interface DistributionAudit {
  ip: string | null;
  /** The approval this distribution applies, named in the audit row. */
  approvalId?: number;
}

const DISTRIBUTION_REFUSALS = new Set<ErrorCode>([
  'RECORD_NOT_FOUND',
  'COMPANY_INACTIVE',
  'USER_INACTIVE',
  'TOKEN_MONTH_NOT_MATCH',
  'TOTAL_EXCEEDS_AVAILABLE',
  'AMOUNT_TOO_LARGE',
]);

/**
 * A company admin distributes tokens to many employees (`employee_issued`), all or nothing: one
 * call of `distribute_tokens` (sql/distribution.sql, decision 0061) locks the company and then
 * every employee, checks every rule, writes the transfers, the event and, given `audit`, the
 * audit row, so the company's wallet is held for one statement and the commit.
 */
export async function distributeTokens(
  tx: Tx,
  input: {
    companyId: number;
    items: { employee_id: number; amount: number }[];
    note?: string;
    actorUserId: number | null;
    at: Date;
    audit?: DistributionAudit;
  },
): Promise<DistributeResult> {
  // By employee id, each once (the body refuses repeats), the order the wallets are locked in.
  const amounts = new Map(input.items.map((i) => [i.employee_id, i.amount]));
  const ids = [...amounts.keys()].sort((a, b) => a - b);
  const total = ids.reduce((sum, id) => sum + amounts.get(id)!, 0);
  if (!Number.isSafeInteger(total)) throw new AppError('TOTAL_EXCEEDS_AVAILABLE');
  const outcome = await distributeTokensRow(tx, {
    companyId: input.companyId,
    transfers: ids.map((id) => ({
      employeeId: id,
      amount: amounts.get(id)!,
      transferId: timeOrderedUuid(input.at),
    })),
    note: input.note ?? null,
    actorUserId: input.actorUserId,
    at: input.at,
    audit: input.audit
      ? {
          ip: auditIp(input.audit.ip),
          ...(input.audit.approvalId !== undefined ? { approval_id: input.audit.approvalId } : {}),
        }
      : null,
  });
  if (outcome.outcome !== 'distributed') {
    const code = outcome.outcome as ErrorCode;
    if (!DISTRIBUTION_REFUSALS.has(code)) {
      throw new Error(`distribute_tokens answered ${outcome.outcome}`);
    }
    throw new AppError(
      code,
      code === 'AMOUNT_TOO_LARGE' ? { metadata: { items: 'v.balance_cap' } } : undefined,
    );
  }
  return {
    company_id: input.companyId,
    total: outcome.total,
    token_balance: outcome.tokenBalance,
    items: outcome.items,
  };
}
