import { DIRECTIONS, TOKEN_EVENTS, type TRANSACTION_SCOPES } from '@app/contract';
import { dateFilter, defineTableSearch, idFilter, manyOf, oneOf } from '@/components/data-table';

/**
 * Token Transaction's state in the URL: GET /tokens/transactions filters by event (repeated
 * keys), direction (received / sent), a range of days and, for admin and Group HR, a company;
 * `employee_id` narrows Employee Transaction to one employee's wallet (with its declined orders).
 */
export const transactionsSearch = defineTableSearch({
  filters: {
    event: manyOf(TOKEN_EVENTS),
    type: oneOf(DIRECTIONS),
    date_from: dateFilter(),
    date_to: dateFilter(),
    company_id: idFilter(),
    employee_id: idFilter(),
  },
});

/** Company Transaction shows the company wallet, Employee Transaction the employees' wallets. */
export type TransactionScope = (typeof TRANSACTION_SCOPES)[number];
