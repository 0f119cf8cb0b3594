// Factories for ledger tests: a programme built through the services, as the API would build it.
import crypto from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import type { Company, Employee, PlacedOrder, RefundReason, RefundResult } from '@app/contract';
import { loadConfig, type Config } from '../src/config';
import type { Executor } from '../src/db/client';
import { tokenTransactions } from '../src/db/schema';
import { ManualClock } from '../src/lib/clock';
import type { ServiceDeps } from '../src/lib/deps';
import { AppState } from '../src/lib/app-state';
import { createCompany } from '../src/modules/companies';
import { createEmployee } from '../src/modules/employees';
import { createMerchant } from '../src/modules/merchants';
import { placeTerminalOrder, refundTerminalOrder } from '../src/modules/orders';
import { createTerminal } from '../src/modules/terminals';
import type { TerminalIdentity } from '../src/lib/principal';
import type { TestDatabase } from './databases';

export interface LedgerTestDeps extends ServiceDeps {
  clock: ManualClock;
}

export function ledgerDeps(
  db: TestDatabase,
  env: Record<string, string> = {},
  clock = new ManualClock('2026-01-15T08:00:00Z'),
): LedgerTestDeps {
  const config: Config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SERVE_WEB: 'false',
    DEMO_DATA: 'false',
    // Apps built on these deps sign admins in without an authenticator (decision 0015).
    MFA_REQUIRED_ROLES: 'none',
    ...env,
  });
  return { config, database: db.database, clock, state: new AppState() };
}

let sequence = 0;
const next = () => {
  sequence += 1;
  return `${sequence}${crypto.randomBytes(2).toString('hex')}`.toUpperCase();
};

export function newCompany(
  deps: ServiceDeps,
  options: {
    code?: string;
    resetDay?: number;
    initToken?: number;
    employeeMonthlyTokens?: number;
    status?: 'active' | 'inactive';
  } = {},
): Promise<Company> {
  return createCompany(deps, null, {
    code: options.code ?? `C${next()}`.slice(0, 12),
    name: 'Test company',
    status: options.status ?? 'active',
    monthly_reset_day: options.resetDay ?? 1,
    init_token: options.initToken ?? 0,
    employee_monthly_tokens: options.employeeMonthlyTokens ?? 0,
  });
}

export function newEmployee(
  deps: ServiceDeps,
  companyId: number,
  options: { staffNumber?: string; status?: 'active' | 'inactive'; monthlyTokens?: number } = {},
): Promise<Employee> {
  return createEmployee(
    deps,
    { kind: 'company', companyId },
    {
      employee_id: options.staffNumber ?? `E${next()}`,
      status: options.status ?? 'active',
      monthly_tokens: options.monthlyTokens ?? null,
    },
  );
}

export interface TestTerminal {
  identity: TerminalIdentity;
  key: string;
  merchantId: number;
}

export async function newTerminal(deps: ServiceDeps, merchantId?: number): Promise<TestTerminal> {
  const merchant =
    merchantId ??
    (await createMerchant(deps, { code: `M${next()}`.slice(0, 12), name: 'Shop' })).id;
  const terminal = await createTerminal(deps, {
    merchant_id: merchant,
    code: `T${next()}`.slice(0, 12),
    name: 'Till',
  });
  return {
    identity: { id: terminal.id, merchantId: merchant },
    key: terminal.api_key,
    merchantId: merchant,
  };
}

/** Places an order of `amount` tokens (one item) through the terminal service; throws on refusal. */
export async function order(
  deps: ServiceDeps,
  terminal: TestTerminal,
  company: Pick<Company, 'code'>,
  employee: Pick<Employee, 'employee_id'>,
  amount: number,
  key: string = crypto.randomUUID(),
): Promise<PlacedOrder> {
  const answer = await placeTerminalOrder(deps, terminal.identity, key, {
    company_code: company.code,
    employee_id: employee.employee_id,
    order_type: 'dine_in',
    items: [{ name: 'Meal', quantity: 1, unit_tokens: amount }],
  });
  return (answer.body as { data: PlacedOrder }).data;
}

export async function refund(
  deps: ServiceDeps,
  terminal: TestTerminal,
  orderId: number,
  reason: RefundReason,
  amount?: number,
  key: string = crypto.randomUUID(),
): Promise<RefundResult> {
  const answer = await refundTerminalOrder(deps, terminal.identity, key, orderId, {
    reason,
    ...(amount !== undefined ? { amount } : {}),
  });
  return (answer.body as { data: RefundResult }).data;
}

/** Every ledger row of a wallet (company wallet when `employeeId` is null), in write order. */
export async function walletRows(executor: Executor, companyId: number, employeeId: number | null) {
  const rows = await executor
    .select()
    .from(tokenTransactions)
    .where(
      employeeId === null
        ? eq(tokenTransactions.companyId, companyId)
        : eq(tokenTransactions.employeeId, employeeId),
    )
    .orderBy(asc(tokenTransactions.id));
  return employeeId === null ? rows.filter((r) => r.employeeId === null) : rows;
}

/** Resolves to the AppError code a promise rejects with, or fails if it resolves. */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    throw error;
  }
  throw new Error('expected a refusal, got success');
}
