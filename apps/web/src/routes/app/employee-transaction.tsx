import { Navigate } from 'react-router';
import { can } from '@app/contract';
import { paths } from '@/config/paths';
import { useAuthStore } from '@/lib/auth-store';
import { TransactionsRoute } from './transactions-route';

/** /employee-transaction: the employees' wallets' ledger. */
export function Component() {
  return <TransactionsRoute scope="employee" />;
}

/**
 * /token-transaction, the group's own address: its first entry the role may open (issue 43,
 * decision 0079: a merchant role or an employee has no company wallet to look at).
 */
export function TokenTransactionIndex() {
  const role = useAuthStore((state) => state.user?.type);
  const to = can(role, 'company_transaction.view')
    ? paths.companyTransaction.getHref()
    : paths.employeeTransaction.getHref();
  return <Navigate to={to} replace />;
}
