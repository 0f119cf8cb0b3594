// Drizzle view of migration 0002 (the ledger). The SQL file is the truth; keep the two in step.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

const id = () => bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();
const ts = () => timestamp({ withTimezone: true, mode: 'date' });
const tokens = () => bigint({ mode: 'number' });

export const companies = pgTable('companies', {
  id: id(),
  code: text().notNull(),
  name: text().notNull(),
  status: text().notNull(),
  monthlyResetDay: integer().notNull(),
  initToken: tokens().notNull(),
  initTokenNextMonth: tokens(),
  employeeMonthlyTokens: tokens().notNull(),
  tokenBalance: tokens().notNull().default(0),
  tokenMonth: text().notNull(),
  nextResetAt: ts().notNull(),
  createdAt: ts().notNull(),
  updatedAt: ts().notNull(),
  /** DESIGN 8 (migration 0035): orders by pay code only. */
  payCodeRequired: boolean().notNull().default(false),
});

export const employees = pgTable('employees', {
  id: id(),
  companyId: bigint({ mode: 'number' }).notNull(),
  /** The company's own staff number. */
  employeeId: text().notNull(),
  name: text(),
  email: text(),
  status: text().notNull(),
  availableTokens: tokens().notNull().default(0),
  monthlyTokens: tokens(),
  tokenMonth: text().notNull(),
  createdAt: ts().notNull(),
  updatedAt: ts().notNull(),
});

export const merchants = pgTable('merchants', {
  id: id(),
  code: text().notNull(),
  name: text().notNull(),
  status: text().notNull(),
  /** DESIGN 7 (migration 0034): what a company's spending rules may allow. */
  category: text().notNull().default('other'),
  createdAt: ts().notNull(),
  updatedAt: ts().notNull(),
  /** Soft delete (migration 0008). */
  deletedAt: ts(),
});

export const terminals = pgTable('terminals', {
  id: id(),
  merchantId: bigint({ mode: 'number' }).notNull(),
  code: text().notNull(),
  name: text().notNull(),
  status: text().notNull(),
  apiKeyHash: text().notNull(),
  apiKeyPrefix: text().notNull(),
  keyRotatedAt: ts().notNull(),
  createdAt: ts().notNull(),
  updatedAt: ts().notNull(),
  /** Soft delete (migration 0008). */
  deletedAt: ts(),
});

export interface OrderItemRow {
  name: string;
  quantity: number;
  unit_tokens: number;
}

export const orders = pgTable('orders', {
  id: id(),
  orderNo: text()
    .notNull()
    .default(sql`('ORD' || lpad(nextval('order_no_seq')::text, 10, '0'))`),
  companyId: bigint({ mode: 'number' }).notNull(),
  employeeId: bigint({ mode: 'number' }).notNull(),
  merchantId: bigint({ mode: 'number' }).notNull(),
  terminalId: bigint({ mode: 'number' }).notNull(),
  orderType: text().notNull(),
  items: jsonb().$type<OrderItemRow[]>().notNull(),
  subtotal: tokens().notNull(),
  refundedAmount: tokens().notNull().default(0),
  status: text()
    .notNull()
    .generatedAlwaysAs(
      sql`CASE WHEN refunded_amount = subtotal THEN 'refunded' ELSE 'ordered' END`,
    ),
  orderedAt: ts().notNull(),
  lastRefundedAt: ts(),
});

export const terminalIdempotencyKeys = pgTable(
  'terminal_idempotency_keys',
  {
    terminalId: bigint({ mode: 'number' }).notNull(),
    idempotencyKey: text().notNull(),
    requestHash: text().notNull(),
    responseStatus: integer(),
    responseBody: jsonb(),
    orderId: bigint({ mode: 'number' }),
    createdAt: ts().notNull(),
  },
  (t) => [primaryKey({ columns: [t.terminalId, t.idempotencyKey] })],
);

/** The back-office's money requests by Idempotency-Key, per user (migration 0032, decision 0068). */
export const backOfficeIdempotencyKeys = pgTable(
  'back_office_idempotency_keys',
  {
    userId: bigint({ mode: 'number' }).notNull(),
    idempotencyKey: text().notNull(),
    requestHash: text().notNull(),
    responseStatus: integer(),
    responseBody: jsonb(),
    createdAt: ts().notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.idempotencyKey] })],
);

export const tokenTransactions = pgTable('token_transactions', {
  id: id(),
  /** The ledger's write order (migration 0013): taken at insert, under the wallet lock. */
  seq: bigint({ mode: 'number' })
    .notNull()
    .default(sql`nextval('token_transactions_seq')`),
  occurredAt: ts().notNull(),
  event: text().notNull(),
  companyId: bigint({ mode: 'number' }).notNull(),
  employeeId: bigint({ mode: 'number' }),
  direction: text().notNull(),
  amount: tokens().notNull(),
  balanceBefore: tokens().notNull(),
  balanceAfter: tokens().notNull(),
  period: text().notNull(),
  orderId: bigint({ mode: 'number' }),
  refundReason: text(),
  transferId: uuid(),
  actorUserId: bigint({ mode: 'number' }),
  terminalId: bigint({ mode: 'number' }),
  merchantId: bigint({ mode: 'number' }),
  note: text(),
});

export const monthlyResets = pgTable(
  'monthly_resets',
  {
    companyId: bigint({ mode: 'number' }).notNull(),
    period: text().notNull(),
    previousPeriod: text().notNull(),
    scheduledAt: ts().notNull(),
    appliedAt: ts().notNull(),
    expiredEmployeeTokens: tokens().notNull(),
    expiredCompanyTokens: tokens().notNull(),
    addedTokens: tokens().notNull(),
    renewedEmployees: integer().notNull(),
    allocatedTokens: tokens().notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.period] })],
);

/** Rows as selected: what repositories of several modules read of the wallets' tables. */
export type CompanyRow = typeof companies.$inferSelect;
export type EmployeeRow = typeof employees.$inferSelect;
