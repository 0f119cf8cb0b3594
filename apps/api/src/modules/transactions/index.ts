// The transactions module's door: what other modules, app.ts, plugins, seed, scripts and tests outside
// the module may import (decision 0075).
export {
  countTransactionsUpTo,
  findTransactions,
  type TransactionCursor,
} from './transactions.repository';
export { listTransactions, transactionFilterFor } from './transactions.service';
