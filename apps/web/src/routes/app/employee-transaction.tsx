import { TransactionsRoute } from './transactions-route';

/** /employee-transaction: the employees' wallets' ledger. */
export function Component() {
  return <TransactionsRoute scope="employee" />;
}
