import type { Readable } from 'node:stream';
import {
  DIRECTION_LABELS,
  ORDER_STATUS_LABELS,
  REFUND_REASON_LABELS,
  REFUND_STATE_LABELS,
  TOKEN_EVENT_LABELS,
  orderTypeLabel,
} from '@app/contract';
import type {
  AuditEntry,
  AuditExportQuery,
  CompanyReportFilter,
  Lang,
  CompanyTotals,
  EmployeeExportQuery,
  EmployeeReportRow,
  OrderHistoryFilter,
  ReportSummaryFilter,
  SettlementExportQuery,
  SettlementOrder,
  SettlementPeriod,
  TokenTransaction,
  TransactionListQuery,
} from '@app/contract';
import { AppError } from '../../lib/app-error';
import type { ServiceDeps } from '../../lib/deps';
import type { AuthUser } from '../../lib/principal';
import { auditExportFilterFor, countAuditRows, findAuditRows } from '../audit';
import type { TenantScope } from '../../lib/scope';
import {
  countOrdersUpTo,
  findOrderHistory,
  type OrderCursor,
  type OrderHistoryRow,
} from '../order-history';
import { toOrderFilter } from '../order-history';
import { findAllStatementOrders, findSettlementsForExport, getStatementHead } from '../settlements';
import { countEmployeeRowsUpTo, findEmployeeMonthBatch } from '../reports';
import { findSummaryRows, getCompanyMonth } from '../reports';
import {
  countTransactionsUpTo,
  findTransactions,
  transactionFilterFor,
  type TransactionCursor,
} from '../transactions';
import { localTime } from '../../lib/periods';
import { csvStream, inBatches, localDate, type CsvColumn } from './csv';
import { countEmployeesUpTo, findEmployeeBatch, type EmployeeExportRow } from '../employees';

/** A CSV download: its file name and its body, streamed as the client reads. */
export interface CsvExport {
  filename: string;
  body: Readable;
}

/** Refuses, before any byte is sent, an export larger than the server's cap (decision 0007). */
function assertWithinCap(counted: number, maxRows: number): void {
  if (counted > maxRows) throw new AppError('EXPORT_TOO_LARGE');
}

// ---------------------------------------------------------------------------------------------
// Token transactions

/**
 * The columns of a transactions export; a merchant's has no balances (DESIGN 2). Headers are
 * English field names (stable for scripts); enum cells speak the caller's language (decision 0022).
 */
const transactionColumns = (
  timeZone: string,
  lang: Lang,
  { withBalances }: { withBalances: boolean },
): CsvColumn<TokenTransaction>[] => [
  { header: 'id', value: (t) => t.id },
  { header: 'occurred_at', value: (t) => localTime(t.occurred_at, timeZone) },
  { header: 'event', value: (t) => TOKEN_EVENT_LABELS[t.event][lang] },
  { header: 'direction', value: (t) => DIRECTION_LABELS[t.direction][lang] },
  { header: 'token_change', value: (t) => (t.direction === 'received' ? t.amount : -t.amount) },
  ...(withBalances
    ? [
        { header: 'balance_before', value: (t: TokenTransaction) => t.balance_before },
        { header: 'balance_after', value: (t: TokenTransaction) => t.balance_after },
      ]
    : []),
  { header: 'period', value: (t) => t.period },
  { header: 'company_id', value: (t) => t.company_id },
  { header: 'company_code', value: (t) => t.company_code },
  { header: 'company_name', value: (t) => t.company_name },
  { header: 'employee_id', value: (t) => t.employee_number ?? t.counterparty_employee_number },
  { header: 'employee_name', value: (t) => t.employee_name ?? t.counterparty_employee_name },
  { header: 'merchant_code', value: (t) => t.merchant_code },
  { header: 'merchant_name', value: (t) => t.merchant_name },
  { header: 'order_no', value: (t) => t.order_no },
  { header: 'order_time', value: (t) => localTime(t.ordered_at, timeZone) },
  {
    header: 'order_type',
    value: (t) => (t.order_type ? orderTypeLabel(t.order_type, lang) : null),
  },
  {
    header: 'order_status',
    value: (t) => (t.order_status ? ORDER_STATUS_LABELS[t.order_status][lang] : null),
  },
  {
    header: 'refund_state',
    value: (t) => (t.order_refund_state ? REFUND_STATE_LABELS[t.order_refund_state][lang] : null),
  },
  { header: 'subtotal', value: (t) => t.order_subtotal },
  {
    header: 'refund_reason',
    value: (t) => (t.refund_reason ? REFUND_REASON_LABELS[t.refund_reason][lang] : null),
  },
  { header: 'note', value: (t) => t.note },
];

/** GET /exports/transactions: the transactions list (same filters, same order) as CSV. */
export async function exportTransactions(
  deps: ServiceDeps,
  scope: TenantScope,
  query: TransactionListQuery,
  lang: Lang = 'en',
): Promise<CsvExport> {
  const { database, config, clock } = deps;
  const filter = await transactionFilterFor(deps, scope, query);
  const batch = config.EXPORT_BATCH_SIZE;
  let rows: AsyncIterable<TokenTransaction> | TokenTransaction[] = [];
  if (filter) {
    assertWithinCap(
      await countTransactionsUpTo(database.read, filter, config.EXPORT_MAX_ROWS + 1),
      config.EXPORT_MAX_ROWS,
    );
    rows = inBatches<TokenTransaction, TransactionCursor>(async (cursor) => {
      // findTransactions answers up to limit + 1 rows; the extra one says there is more.
      const found = await findTransactions(database.read, { ...filter, cursor, limit: batch });
      const page = found.slice(0, batch);
      const last = page[page.length - 1];
      return {
        rows: page,
        next: found.length > batch && last ? { seq: last.seq } : undefined,
      };
    }, config.EXPORT_MAX_ROWS);
  }
  return {
    filename: `transactions-${localDate(clock.now(), config.APP_TIMEZONE)}.csv`,
    body: csvStream(
      transactionColumns(config.APP_TIMEZONE, lang, { withBalances: scope.kind !== 'merchant' }),
      rows,
    ),
  };
}

// ---------------------------------------------------------------------------------------------
// Order history

const orderColumns = (timeZone: string, lang: Lang): CsvColumn<OrderHistoryRow>[] => [
  { header: 'id', value: (o) => o.id },
  { header: 'order_no', value: (o) => o.order_no },
  { header: 'ordered_at', value: (o) => localTime(o.ordered_at, timeZone) },
  { header: 'status', value: (o) => ORDER_STATUS_LABELS[o.status][lang] },
  { header: 'refund_state', value: (o) => REFUND_STATE_LABELS[o.refund_state][lang] },
  { header: 'subtotal', value: (o) => o.subtotal },
  { header: 'refunded_amount', value: (o) => o.refunded_amount },
  { header: 'company_code', value: (o) => o.company_code },
  { header: 'company_name', value: (o) => o.company_name },
  { header: 'employee_id', value: (o) => o.employee_id },
  { header: 'employee_name', value: (o) => o.employee_name },
  { header: 'merchant_code', value: (o) => o.merchant_code },
  { header: 'merchant_name', value: (o) => o.merchant_name },
  { header: 'terminal_code', value: (o) => o.terminal_code },
  { header: 'terminal_name', value: (o) => o.terminal_name },
  { header: 'order_type', value: (o) => orderTypeLabel(o.order_type, lang) },
  {
    header: 'items',
    value: (o) => o.items.map((i) => `${i.name} x${i.quantity} @${i.unit_tokens}`).join('; '),
  },
  { header: 'last_refunded_at', value: (o) => localTime(o.last_refunded_at, timeZone) },
];

/** GET /exports/orders: the order history (same filters, same order) as CSV. */
export async function exportOrders(
  { database, config, clock }: ServiceDeps,
  scope: TenantScope,
  query: OrderHistoryFilter,
  lang: Lang = 'en',
): Promise<CsvExport> {
  const filter = toOrderFilter(query, config.APP_TIMEZONE);
  const batch = config.EXPORT_BATCH_SIZE;
  assertWithinCap(
    await countOrdersUpTo(database.read, scope, filter, config.EXPORT_MAX_ROWS + 1),
    config.EXPORT_MAX_ROWS,
  );
  const rows = inBatches<OrderHistoryRow, OrderCursor>(async (cursor) => {
    const found = await findOrderHistory(database.read, scope, filter, {
      cursor,
      limit: batch + 1,
    });
    const page = found.slice(0, batch);
    return {
      rows: page,
      next: found.length > batch ? page[page.length - 1]?.cursor : undefined,
    };
  }, config.EXPORT_MAX_ROWS);
  return {
    filename: `orders-${localDate(clock.now(), config.APP_TIMEZONE)}.csv`,
    body: csvStream(orderColumns(config.APP_TIMEZONE, lang), rows),
  };
}

// ---------------------------------------------------------------------------------------------
// Employees

const employeeColumns = (timeZone: string): CsvColumn<EmployeeExportRow>[] => [
  { header: 'id', value: (e) => e.id },
  { header: 'company_code', value: (e) => e.company_code },
  { header: 'employee_id', value: (e) => e.employee_id },
  { header: 'name', value: (e) => e.name },
  { header: 'email', value: (e) => e.email },
  { header: 'status', value: (e) => e.status },
  { header: 'token_month', value: (e) => e.token_month },
  { header: 'available_tokens', value: (e) => e.available_tokens },
  { header: 'issued_tokens', value: (e) => e.issued_tokens },
  { header: 'consumed_tokens', value: (e) => e.consumed_tokens },
  { header: 'monthly_tokens', value: (e) => e.monthly_tokens },
  { header: 'created_at', value: (e) => localTime(e.created_at, timeZone) },
];

/** GET /exports/employees: the employees list (same scope and filters, by id) as CSV. */
export async function exportEmployees(
  { database, config, clock }: ServiceDeps,
  scope: TenantScope,
  query: EmployeeExportQuery,
): Promise<CsvExport> {
  const filter = {
    companyId: query.company_id,
    status: query.status,
    search: query.search || undefined,
  };
  const batch = config.EXPORT_BATCH_SIZE;
  assertWithinCap(
    await countEmployeesUpTo(database.read, scope, filter, config.EXPORT_MAX_ROWS + 1),
    config.EXPORT_MAX_ROWS,
  );
  const rows = inBatches<EmployeeExportRow, number>(async (afterId) => {
    const found = await findEmployeeBatch(database.read, scope, filter, afterId, batch);
    return {
      rows: found,
      next: found.length === batch ? found[found.length - 1]?.id : undefined,
    };
  }, config.EXPORT_MAX_ROWS);
  return {
    filename: `employees-${localDate(clock.now(), config.APP_TIMEZONE)}.csv`,
    body: csvStream(employeeColumns(config.APP_TIMEZONE), rows),
  };
}

// ---------------------------------------------------------------------------------------------
// Summary report

/** The columns of a summary export; a merchant's has no unused amounts (wallet balances, DESIGN 2). */
const summaryColumns = (month: string, scope: TenantScope): CsvColumn<CompanyTotals>[] => [
  { header: 'month', value: () => month },
  { header: 'company_id', value: (c) => c.company_id },
  { header: 'company_code', value: (c) => c.company_code },
  { header: 'company_name', value: (c) => c.company_name },
  { header: 'company_status', value: (c) => c.company_status },
  { header: 'token_month', value: (c) => c.token_month },
  // The token month counted and its days (decision 0088).
  { header: 'counted_month', value: (c) => c.counted_month },
  { header: 'counted_from', value: (c) => c.counted_from },
  { header: 'counted_to', value: (c) => c.counted_to },
  { header: 'tokens_from_admin', value: (c) => c.tokens_from_admin },
  { header: 'distributed_to_employees', value: (c) => c.distributed_to_employees },
  { header: 'consumed_by_employees', value: (c) => c.consumed_by_employees },
  ...(scope.kind === 'merchant'
    ? []
    : [
        { header: 'company_unused', value: (c: CompanyTotals) => c.company_unused },
        { header: 'employee_unused', value: (c: CompanyTotals) => c.employee_unused },
      ]),
  { header: 'purchased', value: (c) => c.purchased },
  { header: 'refunded', value: (c) => c.refunded },
];

/**
 * GET /exports/summary: the summary report's rows (every company in scope) as CSV. One row per
 * company, so it is built from one query; companies number in the thousands at most.
 */
export async function exportSummary(
  deps: ServiceDeps,
  scope: TenantScope,
  query: ReportSummaryFilter,
): Promise<CsvExport> {
  const { month, rows } = await findSummaryRows(deps, scope, query);
  assertWithinCap(rows.length, deps.config.EXPORT_MAX_ROWS);
  return { filename: `summary-${month}.csv`, body: csvStream(summaryColumns(month, scope), rows) };
}

const companyReportColumns = (
  month: string,
  company: CompanyTotals,
): CsvColumn<EmployeeReportRow>[] => [
  { header: 'month', value: () => month },
  // The token month counted and its days (decision 0088).
  { header: 'counted_month', value: () => company.counted_month },
  { header: 'counted_from', value: () => company.counted_from },
  { header: 'counted_to', value: () => company.counted_to },
  { header: 'id', value: (e) => e.id },
  { header: 'employee_id', value: (e) => e.employee_id },
  { header: 'name', value: (e) => e.name },
  { header: 'email', value: (e) => e.email },
  { header: 'status', value: (e) => e.status },
  { header: 'token_month', value: (e) => e.token_month },
  { header: 'received', value: (e) => e.received },
  { header: 'purchased', value: (e) => e.purchased },
  { header: 'refunded', value: (e) => e.refunded },
  { header: 'consumed', value: (e) => e.consumed },
  { header: 'expired', value: (e) => e.expired },
  { header: 'unused', value: (e) => e.unused },
  { header: 'available_tokens', value: (e) => e.available_tokens },
];

/** GET /exports/summary/{companyId}: a company's per-employee report rows as CSV. */
export async function exportCompanyReport(
  deps: ServiceDeps,
  scope: TenantScope,
  companyId: number,
  query: CompanyReportFilter,
): Promise<CsvExport> {
  const { database, config } = deps;
  const { month, company } = await getCompanyMonth(deps, scope, companyId, query.month);
  const filter = { status: query.status, search: query.search };
  const batch = config.EXPORT_BATCH_SIZE;
  assertWithinCap(
    await countEmployeeRowsUpTo(database.read, companyId, filter, config.EXPORT_MAX_ROWS + 1),
    config.EXPORT_MAX_ROWS,
  );
  const rows = inBatches<EmployeeReportRow, string>(async (after) => {
    const found = await findEmployeeMonthBatch(
      database.read,
      companyId,
      company.counted_month,
      filter,
      after,
      batch,
    );
    return {
      rows: found,
      next: found.length === batch ? found[found.length - 1]?.employee_id : undefined,
    };
  }, config.EXPORT_MAX_ROWS);
  return {
    filename: `summary-${company.company_code}-${month}.csv`,
    body: csvStream(companyReportColumns(month, company), rows),
  };
}

// ---------------------------------------------------------------------------------------------
// Audit log

/** A record as one CSV cell: its JSON, or empty. */
const jsonCell = (value: Record<string, unknown> | null): string | null =>
  value === null ? null : JSON.stringify(value);

const auditColumns = (timeZone: string): CsvColumn<AuditEntry>[] => [
  { header: 'id', value: (a) => a.id },
  { header: 'occurred_at', value: (a) => localTime(a.occurred_at, timeZone) },
  { header: 'actor_user_id', value: (a) => a.actor_user_id },
  { header: 'actor_username', value: (a) => a.actor_username },
  { header: 'action', value: (a) => a.action },
  { header: 'entity_type', value: (a) => a.entity_type },
  { header: 'entity_id', value: (a) => a.entity_id },
  { header: 'before', value: (a) => jsonCell(a.before) },
  { header: 'after', value: (a) => jsonCell(a.after) },
  { header: 'ip', value: (a) => a.ip },
  // Last, so a reader of the earlier columns by position still finds them where they were.
  { header: 'entity_name', value: (a) => a.entity_name },
];

/**
 * GET /exports/audit-log: the audit log (same scope, filters and order as GET /audit-log, through
 * the same filter) as CSV, the rows written before the export began.
 */
export async function exportAuditLog(
  deps: ServiceDeps,
  user: AuthUser,
  query: AuditExportQuery,
): Promise<CsvExport> {
  const { database, config, clock } = deps;
  const filter = await auditExportFilterFor(deps, user, query);
  const batch = config.EXPORT_BATCH_SIZE;
  assertWithinCap(
    await countAuditRows(database.read, filter, config.EXPORT_MAX_ROWS + 1),
    config.EXPORT_MAX_ROWS,
  );
  const rows = inBatches<AuditEntry, number>(async (offset = 0) => {
    const found = await findAuditRows(database.read, filter, { limit: batch, offset });
    return { rows: found, next: found.length === batch ? offset + batch : undefined };
  }, config.EXPORT_MAX_ROWS);
  return {
    filename: `audit-log-${localDate(clock.now(), config.APP_TIMEZONE)}.csv`,
    body: csvStream(auditColumns(config.APP_TIMEZONE), rows),
  };
}

// ---------------------------------------------------------------------------------------------
// Settlement statements (decision 0040)

interface SettlementCsvLine {
  period: SettlementPeriod;
  company: SettlementPeriod['companies'][number];
}

const settlementColumns: CsvColumn<SettlementCsvLine>[] = [
  { header: 'merchant_code', value: (l) => l.period.merchant_code },
  { header: 'merchant_name', value: (l) => l.period.merchant_name },
  { header: 'period_start', value: (l) => l.period.period_start },
  { header: 'period_end', value: (l) => l.period.period_end },
  { header: 'status', value: (l) => l.period.status },
  { header: 'company_code', value: (l) => l.company.company_code },
  { header: 'company_name', value: (l) => l.company.company_name },
  { header: 'orders', value: (l) => l.company.orders },
  { header: 'refunds', value: (l) => l.company.refunds },
  { header: 'purchased_tokens', value: (l) => l.company.purchased_tokens },
  { header: 'refunded_tokens', value: (l) => l.company.refunded_tokens },
  { header: 'net_tokens', value: (l) => l.company.net_tokens },
];

/**
 * GET /exports/settlements: the statements of GET /settlements (same range, same order, unpaged),
 * one line per merchant, period and company; a statement's totals are the sum of its lines.
 */
export async function exportSettlements(
  deps: ServiceDeps,
  scope: TenantScope,
  query: SettlementExportQuery,
): Promise<CsvExport> {
  const periods = await findSettlementsForExport(deps, scope, query);
  const lines = periods.flatMap((period) =>
    period.companies.map((company) => ({ period, company })),
  );
  assertWithinCap(lines.length, deps.config.EXPORT_MAX_ROWS);
  return {
    filename: `settlements-${localDate(deps.clock.now(), deps.config.APP_TIMEZONE)}.csv`,
    body: csvStream(settlementColumns, lines),
  };
}

const statementColumns = (timeZone: string): CsvColumn<SettlementOrder>[] => [
  { header: 'order_no', value: (o) => o.order_no },
  { header: 'order_time', value: (o) => localTime(o.ordered_at, timeZone) },
  { header: 'terminal_code', value: (o) => o.terminal_code },
  { header: 'terminal_name', value: (o) => o.terminal_name },
  { header: 'company_code', value: (o) => o.company_code },
  { header: 'company_name', value: (o) => o.company_name },
  { header: 'employee_id', value: (o) => o.employee_id },
  { header: 'employee_name', value: (o) => o.employee_name },
  { header: 'subtotal', value: (o) => o.subtotal },
  { header: 'purchased_tokens', value: (o) => o.purchased_tokens },
  { header: 'refunded_tokens', value: (o) => o.refunded_tokens },
  { header: 'net_tokens', value: (o) => o.net_tokens },
];

/** GET /exports/settlements/{merchant_id}/{period_start}: every order of one statement. */
export async function exportSettlementStatement(
  deps: ServiceDeps,
  scope: TenantScope,
  merchantId: number,
  periodStart: string,
): Promise<CsvExport> {
  const { statement, period } = await getStatementHead(deps, scope, merchantId, periodStart);
  const orders = await findAllStatementOrders(deps, merchantId, period);
  // The cap of every export (a half-month of a busy merchant is thousands of orders, not more).
  assertWithinCap(orders.length, deps.config.EXPORT_MAX_ROWS);
  return {
    filename: `settlement-${statement.merchant_code}-${statement.period_start}.csv`,
    body: csvStream(statementColumns(deps.config.APP_TIMEZONE), orders),
  };
}
