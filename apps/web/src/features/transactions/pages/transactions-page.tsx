import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DIRECTIONS, TOKEN_EVENTS, type TokenTransaction } from '@app/contract';
import {
  DataTableDateRangeFilter,
  DataTableExportButton,
  DataTableFacetedFilter,
  DataTableToolbar,
  type Option,
  type TableSearch,
} from '@/components/data-table';
import type { DayRange } from '@/components/date-picker';
import { PageHeader } from '@/components/layout/page-header';
import { cleanEmptyFilters } from '@/lib/filters';
import { exportTransactions } from '../api/export-transactions';
import { useTransactions, type TransactionFilters } from '../api/get-transactions';
import { transactionsColumns } from '../components/transactions-columns';
import { TransactionDetailDialog } from '../components/transaction-detail-dialog';
import { TransactionsList } from '../components/transactions-list';
import type { TransactionScope, transactionsSearch } from '../search';

/**
 * Token Transaction (everyone, within their scope): Company Transaction (the company wallet) and
 * Employee Transaction (employees' wallets) share this screen. Filters live in the URL; the list
 * grows page by page (cursor), and exports as CSV with the same filters. Company options come
 * from the route, only for whoever may pick a company (admin, Group HR).
 */
export function TransactionsPage({
  scope,
  table,
  companyOptions,
  onOpenOrder,
  tokenMonth,
}: {
  scope: TransactionScope;
  table: TableSearch<typeof transactionsSearch.filters>;
  companyOptions?: Option[];
  /** Whoever may read an order's detail (admin, Group HR) gets it from a row's order. */
  onOpenOrder?: (orderId: number) => void;
  /** The scope's current token month, for the date filter's preset. */
  tokenMonth?: (companyId: number | undefined) => Promise<DayRange>;
}) {
  const { t } = useTranslation();
  const { filters } = table;
  const [opened, setOpened] = useState<TokenTransaction>();
  // Admin and Group HR with no company chosen see every company's rows: name each row's company.
  const spansCompanies = companyOptions !== undefined && filters.company_id === undefined;
  const query: TransactionFilters = useMemo(
    () => cleanEmptyFilters({ scope, ...filters }),
    [scope, filters],
  );
  const transactions = useTransactions(query);
  const columns = useMemo(
    () => transactionsColumns(t, scope, { spansCompanies, onOpen: setOpened }),
    [t, scope, spansCompanies],
  );
  const rows = useMemo(
    () => transactions.data?.pages.flatMap((page) => page.data) ?? [],
    [transactions.data],
  );
  const title = scope === 'company' ? t('nav.company_transaction') : t('nav.employee_transaction');

  return (
    <>
      <PageHeader title={title} description={t(`transactions.description_${scope}`)} />
      <div className="flex flex-col gap-4">
        <DataTableToolbar
          table={table}
          actions={<DataTableExportButton onExport={() => exportTransactions(query)} />}
        >
          <DataTableFacetedFilter
            table={table}
            filterKey="event"
            title={t('transactions.event')}
            options={TOKEN_EVENTS.map((event) => ({
              value: event,
              label: t(`transactions.events.${event}`),
            }))}
          />
          <DataTableFacetedFilter
            table={table}
            filterKey="type"
            title={t('transactions.type')}
            options={DIRECTIONS.map((direction) => ({
              value: direction,
              label: t(`transactions.directions.${direction}`),
            }))}
          />
          {companyOptions && (
            <DataTableFacetedFilter
              table={table}
              filterKey="company_id"
              title={t('transactions.company')}
              options={companyOptions}
            />
          )}
          <DataTableDateRangeFilter
            table={table}
            fromKey="date_from"
            toKey="date_to"
            label={t('transactions.date')}
            tokenMonth={tokenMonth && (() => tokenMonth(filters.company_id))}
          />
        </DataTableToolbar>
        <TransactionsList
          label={t(`transactions.table_label_${scope}`)}
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
      </div>
      <TransactionDetailDialog
        row={opened}
        onClose={() => setOpened(undefined)}
        onOpenOrder={
          onOpenOrder
            ? (orderId) => {
                setOpened(undefined);
                onOpenOrder(orderId);
              }
            : undefined
        }
      />
    </>
  );
}
