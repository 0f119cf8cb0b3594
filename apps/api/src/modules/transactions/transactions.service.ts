import type { TokenTransaction, TransactionListQuery } from '@app/contract';
import { AppError } from '../../lib/app-error';
import type { ServiceDeps } from '../../lib/deps';
import { dayEnd, dayStart } from '../../lib/periods';
import type { TenantScope } from '../../lib/scope';
import {
  findEmployeeIdByStaffNumber,
  findTransactions,
  type TransactionCursor,
  type TransactionFilter,
} from './transactions.repository';

/** Cursor: base64url of `[occurred_at ISO, id]`, the last row shown. Opaque to clients. */
export function encodeCursor(row: Pick<TokenTransaction, 'occurred_at' | 'id'>): string {
  return Buffer.from(JSON.stringify([row.occurred_at, row.id])).toString('base64url');
}

export function decodeCursor(cursor: string): TransactionCursor {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const occurredAt = new Date(String(at));
    if (typeof at !== 'string' || Number.isNaN(occurredAt.getTime())) throw new Error('at');
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) throw new Error('id');
    return { occurredAt, id };
  } catch {
    throw new AppError('QUERY_PARAM_INVALID', { metadata: { cursor: 'v.invalid' } });
  }
}

/**
 * GET /tokens/transactions. The caller's tenant is part of the query: a company admin sees its
 * company's wallets, an employee its own wallet, a merchant the rows of its terminals' orders,
 * admin and Group HR everything (narrowed by `company_id`, `employee_id`).
 */
export async function listTransactions(
  { database, config }: ServiceDeps,
  scope: TenantScope,
  query: TransactionListQuery,
): Promise<{ data: TokenTransaction[]; next_cursor: string | null }> {
  const filter: TransactionFilter = {
    companyId: query.company_id,
    employeeId: query.employee_id,
    wallet: query.scope,
    events: query.event,
    direction: query.type,
    from: query.date_from ? dayStart(query.date_from, config.APP_TIMEZONE) : undefined,
    to: query.date_to ? dayEnd(query.date_to, config.APP_TIMEZONE) : undefined,
    cursor: query.cursor ? decodeCursor(query.cursor) : undefined,
    limit: query.limit,
  };
  const empty = { data: [], next_cursor: null };
  switch (scope.kind) {
    case 'all':
      break;
    case 'company':
      if (query.company_id !== undefined && query.company_id !== scope.companyId) return empty;
      filter.companyId = scope.companyId;
      break;
    case 'merchant':
      filter.merchantId = scope.merchantId;
      break;
    case 'self': {
      if (query.scope === 'company') throw new AppError('PERMISSION_DENIED');
      const own = await findEmployeeIdByStaffNumber(database.db, scope.companyId, scope.employeeId);
      if (own === undefined) return empty;
      if (query.employee_id !== undefined && query.employee_id !== own) return empty;
      filter.companyId = scope.companyId;
      filter.employeeId = own;
      filter.wallet = 'employee';
      break;
    }
  }
  const rows = await findTransactions(database.db, filter);
  const page = rows.slice(0, query.limit);
  const hasMore = rows.length > query.limit;
  return { data: page, next_cursor: hasMore ? encodeCursor(page[page.length - 1]!) : null };
}
