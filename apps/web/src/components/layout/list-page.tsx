import type { ReactNode } from 'react';
import {
  DataTable,
  DataTableSearch,
  DataTableStatusFilter,
  DataTableToolbar,
  type DataTableProps,
  type FilterDefs,
  type TableSearch,
} from '@/components/data-table';
import { PageHeader } from './page-header';

/**
 * A list screen: the title row, the toolbar (search, the Status filter, the list's own filters,
 * its actions such as export), the one list table over the URL's state, and the screen's dialogs
 * after it. A list with nothing to filter gets no toolbar.
 */
export function ListPage<TData, F extends FilterDefs>({
  title,
  description,
  actions,
  table,
  search,
  statuses,
  filters,
  toolbarActions,
  beforeTable,
  children,
  ...list
}: {
  title: string;
  description?: ReactNode;
  /** Buttons on the title row's right (e.g. 'Add user'). */
  actions?: ReactNode;
  table: TableSearch<F>;
  /** The search box, bound to a text filter. */
  search?: { filterKey: keyof F & string; placeholder: string };
  /** The Status filter after the search: `true` for a record's statuses, or the list's own. */
  statuses?: true | readonly string[];
  /** The list's other filters, after search and status. */
  filters?: ReactNode;
  /** On the toolbar's right (export). */
  toolbarActions?: ReactNode;
  /** Between the title row and the table (a selection bar, the range's totals). */
  beforeTable?: ReactNode;
  /** The screen's dialogs. */
  children?: ReactNode;
} & Omit<DataTableProps<TData>, 'paging' | 'sortable' | 'toolbar'>) {
  const hasToolbar = Boolean(search || statuses || filters || toolbarActions);
  return (
    <>
      <PageHeader title={title} description={description} actions={actions} />
      {beforeTable}
      <DataTable
        {...list}
        paging={table}
        sortable={table.config.sortable}
        toolbar={
          hasToolbar ? (
            <DataTableToolbar table={table} actions={toolbarActions}>
              {search && (
                <DataTableSearch
                  table={table}
                  filterKey={search.filterKey}
                  placeholder={search.placeholder}
                />
              )}
              {statuses && (
                <DataTableStatusFilter
                  table={table}
                  statuses={statuses === true ? undefined : statuses}
                />
              )}
              {filters}
            </DataTableToolbar>
          ) : undefined
        }
      />
      {children}
    </>
  );
}
