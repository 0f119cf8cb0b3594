import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TokenTransaction } from '@app/contract';
import { useTransactions, type TransactionFilters } from '../api/get-transactions';
import type { TransactionScope } from '../search';
import { TransactionDetailDialog } from './transaction-detail-dialog';
import { transactionsColumns } from './transactions-columns';
import { TransactionsList } from './transactions-list';

/**
 * One wallet's ledger on a detail page (a company's, an employee's): the Token Transaction list,
 * its rows opening their order or transfer, with no filters of its own.
 */
export function TransactionsLedger({
  scope,
  companyId,
  employeeId,
  label,
}: {
  scope: TransactionScope;
  companyId?: number;
  employeeId?: number;
  label: string;
}) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState<TokenTransaction>();
  const filters: TransactionFilters = useMemo(
    () => ({
      scope,
      ...(companyId !== undefined ? { company_id: companyId } : {}),
      ...(employeeId !== undefined ? { employee_id: employeeId } : {}),
    }),
    [scope, companyId, employeeId],
  );
  const transactions = useTransactions(filters);
  const columns = useMemo(() => transactionsColumns(t, scope, { onOpen: setOpened }), [t, scope]);
  const rows = useMemo(
    () => transactions.data?.pages.flatMap((page) => page.data) ?? [],
    [transactions.data],
  );
  return (
    <>
      <TransactionsList
        label={label}
        columns={columns}
        onOpen={setOpened}
        list={{
          rows,
          isPending: transactions.isPending,
          isError: transactions.isError,
          error: transactions.error,
          isFetching: transactions.isFetching,
          hasNextPage: transactions.hasNextPage,
          isFetchingNextPage: transactions.isFetchingNextPage,
          fetchNextPage: transactions.fetchNextPage,
          refetch: transactions.refetch,
        }}
      />
      <TransactionDetailDialog row={opened} onClose={() => setOpened(undefined)} />
    </>
  );
}
