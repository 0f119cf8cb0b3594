import { TransactionsRoute } from './transactions-route';

/** /company-transaction: the company wallet's ledger. */
export function Component() {
  return <TransactionsRoute scope="company" />;
}
