import { downloadCsv } from '@/lib/download';
import type { TransactionFilters } from './get-transactions';

/** GET /exports/transactions: the list's filters (no cursor) as a CSV download. */
export const exportTransactions = (filters: TransactionFilters): Promise<void> =>
  downloadCsv('/api/v1/exports/transactions', { query: filters }, 'transactions.csv');
