/**
 * The ledger service: the only code that writes token_transactions, wallets, orders' amounts and
 * monthly resets (STYLE 3). Every function runs inside the caller's transaction (`tx`), locks the
 * wallets it touches in the one fixed order (an order, then the company, then employees by id),
 * decides against the locked balances, and appends ledger rows; the database applies each row to
 * its wallet and refuses any that would break a chain or a balance (migration 0002).
 */
import crypto from 'node:crypto';
import type {
  DistributeResult,
  ErrorCode,
  OrderItem,
  RefundReason,
  RefundResult,
  TokenEvent,
  TopupCompanyResult,
} from '@app/contract';
import type { Executor, Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { TerminalIdentity } from '../../lib/principal';
import { nextPeriod, periodStart } from '../../lib/periods';
import {
  allowLongResetStatements,
  hasMonthlyReset,
  insertLedgerRows,
  insertMonthlyReset,
  insertResetRows,
  lockCompany,
  lockCompanyEmployees,
  lockEmployee,
  lockEmployees,
  lockOrder,
  placeTerminalOrderRow,
  setCompanyPeriod,
  setEmployeesTokenMonth,
  takeResetLock,
  type CompanyRow,
  type EmployeeRow,
  type NewLedgerRow,
  type ResetRows,
} from './ledger.repository';

// What the jobs and the company and token services need of the ledger's data access.
export { findCompaniesDueForReset, findOpenOrdersBefore, lockCompany } from './ledger.repository';

/** A wallet as locked in this transaction, with its running balance. */
interface Wallet {
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
class Postings {
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

const companyWallet = (c: CompanyRow): Wallet => ({
  companyId: c.id,
  employeeId: null,
  balance: c.tokenBalance,
});
const employeeWallet = (e: EmployeeRow): Wallet => ({
  companyId: e.companyId,
  employeeId: e.id,
  balance: e.availableTokens,
});

const fitsBalance = (balance: number, amount: number) =>
  Number.isSafeInteger(balance + amount) && balance + amount <= Number.MAX_SAFE_INTEGER;

// ---------------------------------------------------------------------------------------------
// Company wallet

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
    throw new AppError('BODY_INVALID', { metadata: { amount: 'v.invalid' } });
  }
  const wallet = companyWallet(company);
  const postings = new Postings({ at: input.at, actorUserId: input.actorUserId, note: input.note });
  postings.post(wallet, 'company_issued', 'received', input.amount, { period: company.tokenMonth });
  const [transactionId] = await postings.flush(tx);
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
      throw new AppError('BODY_INVALID', { metadata: { items: 'v.invalid' } });
    }
    const transferId = postings.transfer(from, to, 'employee_issued', amount, company.tokenMonth);
    items.push({ employee_id: id, amount, available_tokens: to.balance, transfer_id: transferId });
  }
  await postings.flush(tx);
  return { company_id: company.id, total, token_balance: from.balance, items };
}

// ---------------------------------------------------------------------------------------------
// Orders at terminals

/** The terminal's answer to a request: an HTTP status and the body sent. */
export interface TerminalAnswer {
  status: number;
  body: unknown;
}

const ORDER_REFUSALS = new Set<ErrorCode>([
  'NO_PAYEE_FOUND',
  'COMPANY_INACTIVE',
  'USER_INACTIVE',
  'INSUFFICIENT_TOKENS',
]);

/**
 * An order paid at a terminal (`order_purchased`), at most once per (terminal, Idempotency-Key):
 * one call of `place_terminal_order` (migration 0012, decision 0011), which finds a stored answer
 * for the key, locks the employee's wallet, checks it, claims the key, inserts the order and its
 * ledger row and stores the answer. A refusal writes nothing (the key may be retried).
 */
export async function placeOrder(
  executor: Executor,
  input: {
    terminal: TerminalIdentity;
    idempotencyKey: string;
    /** Hash of the request, to tell a retry from another request with the same key. */
    requestHash: string;
    companyCode: string;
    staffNumber: string;
    orderType: string;
    items: OrderItem[];
    at: Date;
  },
): Promise<TerminalAnswer> {
  const subtotal = input.items.reduce((sum, i) => sum + i.quantity * i.unit_tokens, 0);
  if (!Number.isSafeInteger(subtotal) || subtotal <= 0) {
    throw new AppError('BODY_INVALID', { metadata: { items: 'v.amount_positive' } });
  }
  const answer = await placeTerminalOrderRow(executor, {
    terminalId: input.terminal.id,
    merchantId: input.terminal.merchantId,
    idempotencyKey: input.idempotencyKey,
    requestHash: input.requestHash,
    companyCode: input.companyCode,
    staffNumber: input.staffNumber,
    orderType: input.orderType,
    items: input.items.map((i) => ({
      name: i.name,
      quantity: i.quantity,
      unit_tokens: i.unit_tokens,
    })),
    subtotal,
    at: input.at,
  });
  if (answer.outcome === 'placed' || answer.outcome === 'stored') {
    return { status: answer.status!, body: answer.body };
  }
  if (answer.outcome === 'reused') throw new AppError('IDEMPOTENCY_KEY_REUSED');
  if (ORDER_REFUSALS.has(answer.outcome as ErrorCode)) {
    throw new AppError(answer.outcome as ErrorCode);
  }
  throw new Error(`place_terminal_order answered ${answer.outcome}`);
}

/**
 * A refund (`order_refunded`): what is left of the order for `cancelled`, `rejected` and
 * `auto_archived`; `amount` for `item_removed`. A terminal may refund only its merchant's orders
 * (`merchantId`); the auto-archive job passes null.
 */
export async function refundOrder(
  tx: Tx,
  input: {
    orderId: number;
    merchantId: number | null;
    terminalId: number;
    reason: RefundReason;
    amount?: number;
    actorUserId?: number | null;
    at: Date;
  },
): Promise<{ orderId: number; refund: RefundResult['refund'] }> {
  const order = await lockOrder(tx, input.orderId, input.merchantId);
  if (!order) throw new AppError('ORDER_NOT_FOUND');
  const remaining = order.subtotal - order.refundedAmount;
  if (remaining <= 0) throw new AppError('ORDER_ALREADY_REFUNDED');
  const amount = input.reason === 'item_removed' ? input.amount : remaining;
  if (amount === undefined || amount <= 0) {
    throw new AppError('BODY_INVALID', { metadata: { amount: 'v.required' } });
  }
  if (amount > remaining) throw new AppError('REFUND_EXCEEDS_SUBTOTAL');

  const employee = await lockEmployee(tx, order.employeeId);
  if (!employee) throw new Error(`employee ${order.employeeId} of order ${order.id} vanished`);
  const wallet = employeeWallet(employee);
  const postings = new Postings({ at: input.at, actorUserId: input.actorUserId });
  postings.post(wallet, 'order_refunded', 'received', amount, {
    period: employee.tokenMonth,
    orderId: order.id,
    refundReason: input.reason,
    terminalId: input.terminalId,
    merchantId: order.merchantId,
  });
  const [transactionId] = await postings.flush(tx);
  // The caller reads the order back (orders service): the ledger imports nothing from orders.
  return {
    orderId: order.id,
    refund: {
      amount,
      reason: input.reason,
      transaction_id: transactionId!,
      available_tokens: wallet.balance,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Monthly reset (DESIGN 3.5)

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
 * token month (migration 0011).
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
  const staff = await lockCompanyEmployees(tx, company.id);
  const hooks = input.hooks ?? {};

  // 1. Every employee's remaining balance expires, in the month it was held.
  const expiries = staff
    .filter((e) => e.availableTokens > 0)
    .map((e) => ({ employeeId: e.id, amount: e.availableTokens, period: e.tokenMonth }));
  const expiredEmployeeTokens = expiries.reduce((sum, e) => sum + e.amount, 0);

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
  //    A renewal row takes its employee into the new month; the others are moved here.
  const renewed = staff.filter((e) => e.status === 'active');
  const wanted = renewed.reduce((sum, e) => sum + monthlyAmountOf(e, company), 0);
  const isAllocated = isActive && wanted > 0 && wanted <= from.balance;
  const renewals: ResetRows['renewals'] = [];
  const renewedWithoutAmount: number[] = [];
  for (const e of renewed) {
    const amount = isAllocated ? monthlyAmountOf(e, company) : 0;
    if (amount > 0) {
      renewals.push({ employeeId: e.id, amount, transferId: timeOrderedUuid(input.at) });
    } else {
      renewedWithoutAmount.push(e.id);
    }
  }
  const allocatedTokens = isAllocated ? wanted : 0;
  await setEmployeesTokenMonth(tx, renewedWithoutAmount, period, input.at);
  await hooks.afterStep?.('employees_renewed', company.id);

  await insertResetRows(tx, {
    companyId: company.id,
    at: input.at,
    expiries,
    companyRows: postings.rows,
    renewalsFrom: from.balance,
    renewals,
    period,
  });
  await hooks.afterStep?.('ledger_written', company.id);

  await insertMonthlyReset(tx, {
    companyId: company.id,
    period,
    previousPeriod: company.tokenMonth,
    scheduledAt: company.nextResetAt,
    appliedAt: input.at,
    expiredEmployeeTokens,
    expiredCompanyTokens,
    addedTokens,
    renewedEmployees: renewed.length,
    allocatedTokens,
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
