import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import {
  TRANSACTIONS_LIMIT_DEFAULT,
  type TokenTransaction,
  type TransactionListQuery,
} from '@app/contract';
import { api } from '@/lib/api-client';
import { cleanEmptyFilters } from '@/lib/filters';

/** The filters of GET /tokens/transactions (no cursor, no limit): also what the export takes. */
export type TransactionFilters = Partial<Omit<TransactionListQuery, 'cursor' | 'limit'>>;

export interface TransactionPage {
  data: TokenTransaction[];
  next_cursor: string | null;
  /** Not sent by this endpoint today; honoured by the next-page rule when present. */
  total?: number;
}

export const transactionsKeys = {
  all: ['token-transactions'] as const,
  list: (filters: TransactionFilters) => ['token-transactions', 'list', filters] as const,
};

/** GET /tokens/transactions: one page of ledger rows, newest first. */
export async function getTransactions(
  filters: TransactionFilters,
  cursor?: string,
): Promise<TransactionPage> {
  const response = await api.get('/api/v1/tokens/transactions', {
    params: { query: cleanEmptyFilters({ ...filters, cursor, limit: TRANSACTIONS_LIMIT_DEFAULT }) },
  });
  return response.data;
}

/**
 * The spec's next-page rule: with a total, there is more while fewer rows are loaded than the
 * total; without one, a page shorter than the page size ends the list. The cursor answer also
 * ends the list when `next_cursor` is null.
 */
export function nextCursor(
  lastPage: TransactionPage,
  pages: TransactionPage[],
  pageSize = TRANSACTIONS_LIMIT_DEFAULT,
): string | undefined {
  if (lastPage.next_cursor === null) return undefined;
  if (typeof lastPage.total === 'number') {
    const loaded = pages.reduce((sum, page) => sum + page.data.length, 0);
    return loaded < lastPage.total ? lastPage.next_cursor : undefined;
  }
  return lastPage.data.length < pageSize ? undefined : lastPage.next_cursor;
}

export const transactionsQueryOptions = (filters: TransactionFilters) =>
  infiniteQueryOptions({
    queryKey: transactionsKeys.list(filters),
    queryFn: ({ pageParam }) => getTransactions(filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (lastPage, pages) => nextCursor(lastPage, pages),
    meta: { silentError: true },
  });

export const useTransactions = (filters: TransactionFilters) =>
  useInfiniteQuery(transactionsQueryOptions(filters));
