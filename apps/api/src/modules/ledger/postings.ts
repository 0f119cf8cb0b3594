// The ledger's postings: wallets as locked in a transaction, and the rows that move them, built
// against running balances so that several rows on one wallet chain (DESIGN 3.2).
import crypto from 'node:crypto';
import type { TokenEvent } from '@app/contract';
import type { Tx } from '../../db/client';
import {
  insertLedgerRows,
  type CompanyRow,
  type EmployeeRow,
  type NewLedgerRow,
} from './ledger.repository';

/** A wallet as locked in this transaction, with its running balance. */
export interface Wallet {
  companyId: number;
  employeeId: number | null;
  balance: number;
}

interface PostingContext {
  at: Date;
  actorUserId?: number | null;
  note?: string | null;
}

type Extra = Pick<
  NewLedgerRow,
  'orderId' | 'refundReason' | 'transferId' | 'terminalId' | 'merchantId'
> & { period: string };

/**
 * A version 7 UUID (RFC 9562): the 48-bit millisecond time of `at`, then 74 random bits. Transfer
 * ids of one instant sort together, so their two unique indexes take new entries in one small
 * region instead of at random pages of the whole index (a reset writes 100,000 transfers).
 */
export function timeOrderedUuid(at: Date): string {
  const time = at.getTime().toString(16).padStart(12, '0');
  // randomUUID() is xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx: keep its random bits after the version.
  return `${time.slice(0, 8)}-${time.slice(8)}-7${crypto.randomUUID().slice(15)}`;
}

/** Builds ledger rows against running balances, so several rows on one wallet chain. */
export class Postings {
  readonly rows: NewLedgerRow[] = [];
  constructor(private readonly context: PostingContext) {}

  post(
    wallet: Wallet,
    event: TokenEvent,
    direction: 'received' | 'sent',
    amount: number,
    extra: Extra,
  ) {
    const before = wallet.balance;
    const after = direction === 'received' ? before + amount : before - amount;
    // Callers check balances first; this is the last line before the database's own checks.
    if (!Number.isSafeInteger(amount) || amount <= 0 || after < 0 || !Number.isSafeInteger(after)) {
      throw new Error(`posting ${event} of ${amount} on a balance of ${before} is not allowed`);
    }
    wallet.balance = after;
    this.rows.push({
      occurredAt: this.context.at,
      event,
      companyId: wallet.companyId,
      employeeId: wallet.employeeId,
      direction,
      amount,
      balanceBefore: before,
      balanceAfter: after,
      actorUserId: this.context.actorUserId ?? null,
      note: this.context.note ?? null,
      ...extra,
    });
  }

  /** A company-to-employee transfer: two rows sharing one transfer id. */
  transfer(
    company: Wallet,
    employee: Wallet,
    event: 'employee_issued' | 'monthly_tokens_reset',
    amount: number,
    period: string,
  ): string {
    const transferId = timeOrderedUuid(this.context.at);
    this.post(company, event, 'sent', amount, { period, transferId });
    this.post(employee, event, 'received', amount, { period, transferId });
    return transferId;
  }

  async flush(tx: Tx): Promise<number[]> {
    const ids = await insertLedgerRows(tx, this.rows.splice(0));
    return ids;
  }
}

export const companyWallet = (c: CompanyRow): Wallet => ({
  companyId: c.id,
  employeeId: null,
  balance: c.tokenBalance,
});
export const employeeWallet = (e: EmployeeRow): Wallet => ({
  companyId: e.companyId,
  employeeId: e.id,
  balance: e.availableTokens,
});

export const fitsBalance = (balance: number, amount: number) =>
  Number.isSafeInteger(balance + amount) && balance + amount <= Number.MAX_SAFE_INTEGER;
