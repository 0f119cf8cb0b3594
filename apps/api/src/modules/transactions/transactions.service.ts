import { transactionCursor, type TokenTransaction, type TransactionListQuery } from '@app/contract';
import { AppError } from '../../lib/app-error';
import type { ServiceDeps } from '../../lib/deps';
import { dayRange } from '../../lib/periods';
import type { TenantScope } from '../../lib/scope';
import {
  lookupEmployeeIdByStaffNumber,
  findTransactions,
  type TransactionCursor,
  type TransactionFilter,
} from './transactions.repository';

/** Cursor: the contract's `transactionCursor`, `[seq]` of the last row shown. Opaque to clients. */
export const encodeCursor = (row: Pick<TokenTransaction, 'seq'>): string =>
  transactionCursor.encode([row.seq]);

/** The query schema has checked it already; a service called directly gets the same refusal. */
export function decodeCursor(cursor: string): TransactionCursor {
  const decoded = transactionCursor.decode(cursor);
  if (!decoded)
    throw new AppError('QUERY_PARAM_INVALID', { metadata: { cursor: 'v.cursor_invalid' } });
  return { seq: decoded[0] };
}

/** A transactions filter without its page: what a list and its export share. */
export type TransactionScopeFilter = Omit<TransactionFilter, 'limit' | 'cursor'>;

/**
 * Who sees which ledger rows (DESIGN 2), the one rule of GET /tokens/transactions and GET
 * /exports/transactions: a company admin its company's wallets, an employee its own wallet (never
 * the company's), a merchant the purchase and refund rows of its terminals' orders without any
 * balance, admin and Group HR everything (narrowed by `company_id`, `employee_id`). The caller's
 * tenant is part of the query. Null: nothing is in scope.
 */
export async function transactionFilterFor(
  { database, config }: Pick<ServiceDeps, 'database' | 'config'>,
  scope: TenantScope,
  query: TransactionListQuery,
): Promise<TransactionScopeFilter | null> {
  const filter: TransactionScopeFilter = {
    companyId: query.company_id,
    employeeId: query.employee_id,
    wallet: query.scope,
    events: query.event,
    direction: query.type,
    ...dayRange(query.date_from, query.date_to, config.APP_TIMEZONE),
  };
  switch (scope.kind) {
    case 'all':
      return filter;
    case 'company':
      if (query.company_id !== undefined && query.company_id !== scope.companyId) return null;
      return { ...filter, companyId: scope.companyId };
    case 'merchant':
      // A merchant has no wallet to look at: asking for the company wallet finds nothing.
      if (query.scope === 'company') return null;
      return { ...filter, merchantId: scope.merchantId, merchantView: true };
    case 'self': {
      if (query.scope === 'company') throw new AppError('PERMISSION_DENIED');
      const own = await lookupEmployeeIdByStaffNumber(
        database.db,
        scope.companyId,
        scope.employeeId,
      );
      if (own === undefined) return null;
      if (query.employee_id !== undefined && query.employee_id !== own) return null;
      return { ...filter, companyId: scope.companyId, employeeId: own, wallet: 'employee' };
    }
  }
}

/** GET /tokens/transactions: one page, newest first in the ledger's write order. */
export async function listTransactions(
  deps: ServiceDeps,
  scope: TenantScope,
  query: TransactionListQuery,
): Promise<{ data: TokenTransaction[]; next_cursor: string | null }> {
  const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
  const filter = await transactionFilterFor(deps, scope, query);
  if (!filter) return { data: [], next_cursor: null };
  const rows = await findTransactions(deps.database.db, { ...filter, cursor, limit: query.limit });
  const page = rows.slice(0, query.limit);
  const hasMore = rows.length > query.limit;
  return { data: page, next_cursor: hasMore ? encodeCursor(page[page.length - 1]!) : null };
}
