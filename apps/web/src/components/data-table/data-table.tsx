import type { ReactNode } from 'react';
import {
  functionalUpdate,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type RowData,
} from '@tanstack/react-table';
import { AlertCircle, Inbox, RotateCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import {
  Table,
  TableBody,
  TableCell,
  TableFooter,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { cn } from '@/lib/cn';
import { errorMessageLines } from '@/lib/error-display';
import { DataTablePagination } from './data-table-pagination';
import type { PagingController } from './table-search';

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the generics must match
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Classes for the column's header and cells (e.g. `text-right` for amounts). */
    className?: string;
  }
}

/**
 * Renders a header or cell definition by calling it, not mounting it as a component (as
 * flexRender does): columns rebuilt on a re-render (new handlers, options that arrived) then keep
 * every cell mounted, so an open row menu stays open. Renderers must not call hooks themselves;
 * they return components that do.
 */
function renderSlot<TContext>(slot: unknown, context: TContext): ReactNode {
  return typeof slot === 'function'
    ? (slot as (context: TContext) => ReactNode)(context)
    : (slot as ReactNode);
}

/** A server-paged list answer (DESIGN 4): `{ data, total }`. */
export interface ListResult<TData> {
  data: TData[];
  total: number;
  /** False when the server stopped counting (the total is a lower bound). */
  total_is_exact?: boolean;
}

/** The parts of a list query the table reads. */
export interface ListQueryState<TData> {
  data: ListResult<TData> | undefined;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  isFetching: boolean;
  refetch: () => unknown;
}

export interface DataTableProps<TData> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- columns of any value type
  columns: ColumnDef<TData, any>[];
  query: ListQueryState<TData>;
  paging: PagingController;
  /** The table's accessible name. */
  label: string;
  toolbar?: ReactNode;
  getRowId?: (row: TData) => string;
  /** Shown instead of the generic 'No results.' when the list is empty. */
  emptyMessage?: string;
  /** Rows of skeleton while the first page loads. */
  skeletonRows?: number;
  /** Rows under the body (e.g. a grand total), shown once the list has rows. */
  footer?: ReactNode;
}

/**
 * The one list table (STYLE): TanStack Table over a server-paged list, with skeleton rows while
 * loading, an error row with retry, an empty state, sortable headers and the pagination bar.
 * Paging and sorting live in `paging` (the URL, through useTableSearch).
 */
export function DataTable<TData>({
  columns,
  query,
  paging,
  label,
  toolbar,
  getRowId,
  emptyMessage,
  skeletonRows,
  footer,
}: DataTableProps<TData>) {
  const { t } = useTranslation();
  const rows = query.data?.data ?? [];
  const total = query.data?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / paging.pageSize));

  // eslint-disable-next-line react-hooks/incompatible-library -- the table is rebuilt from props on every render
  const table = useReactTable({
    data: rows,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: getRowId ? (row) => getRowId(row) : undefined,
    manualPagination: true,
    manualSorting: true,
    manualFiltering: true,
    enableMultiSort: false,
    defaultColumn: { enableSorting: false },
    pageCount,
    rowCount: total,
    state: {
      pagination: { pageIndex: paging.page - 1, pageSize: paging.pageSize },
      sorting: paging.sorting,
    },
    onSortingChange: (updater) => paging.setSorting(functionalUpdate(updater, paging.sorting)),
  });

  const columnCount = table.getVisibleLeafColumns().length;
  const isRefreshing = query.isFetching && !query.isPending;

  let body: ReactNode;
  if (query.isPending) {
    body = Array.from({ length: skeletonRows ?? Math.min(paging.pageSize, 10) }, (_, index) => (
      <TableRow key={`skeleton-${index}`} data-testid="skeleton-row">
        {table.getVisibleLeafColumns().map((column) => (
          <TableCell key={column.id}>
            <Skeleton className="h-5 w-full min-w-12" />
          </TableCell>
        ))}
      </TableRow>
    ));
  } else if (query.isError) {
    body = (
      <TableRow className="hover:bg-transparent">
        <TableCell colSpan={columnCount} className="h-32 text-center whitespace-normal">
          <div role="alert" className="flex flex-col items-center gap-3">
            <AlertCircle className="size-6 text-destructive" aria-hidden />
            <p className="font-medium">{t('table.load_failed')}</p>
            <p className="text-sm whitespace-pre-line text-muted-foreground">
              {errorMessageLines(query.error).join('\n')}
            </p>
            <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
              <RotateCw aria-hidden />
              {t('table.retry')}
            </Button>
          </div>
        </TableCell>
      </TableRow>
    );
  } else if (rows.length === 0) {
    body = (
      <TableRow className="hover:bg-transparent">
        <TableCell colSpan={columnCount} className="h-32 text-center whitespace-normal">
          <div className="flex flex-col items-center gap-2 text-muted-foreground">
            <Inbox className="size-6" aria-hidden />
            <p>{emptyMessage ?? t('table.no_results')}</p>
          </div>
        </TableCell>
      </TableRow>
    );
  } else {
    body = table.getRowModel().rows.map((row) => (
      <TableRow key={row.id}>
        {row.getVisibleCells().map((cell) => (
          <TableCell key={cell.id} className={cell.column.columnDef.meta?.className}>
            {renderSlot(cell.column.columnDef.cell, cell.getContext())}
          </TableCell>
        ))}
      </TableRow>
    ));
  }

  return (
    <div className="flex flex-col gap-4">
      {toolbar}
      <div className="rounded-md border">
        <Table
          aria-label={label}
          aria-busy={query.isFetching}
          className={cn(isRefreshing && 'opacity-60 transition-opacity')}
        >
          <TableHeader className="bg-muted/40">
            {table.getHeaderGroups().map((group) => (
              <TableRow key={group.id} className="hover:bg-transparent">
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  return (
                    <TableHead
                      key={header.id}
                      colSpan={header.colSpan}
                      className={header.column.columnDef.meta?.className}
                      aria-sort={
                        header.column.getCanSort()
                          ? sorted === 'asc'
                            ? 'ascending'
                            : sorted === 'desc'
                              ? 'descending'
                              : 'none'
                          : undefined
                      }
                    >
                      {header.isPlaceholder
                        ? null
                        : renderSlot(header.column.columnDef.header, header.getContext())}
                    </TableHead>
                  );
                })}
              </TableRow>
            ))}
          </TableHeader>
          <TableBody>{body}</TableBody>
          {footer && !query.isPending && !query.isError && rows.length > 0 && (
            <TableFooter>{footer}</TableFooter>
          )}
        </Table>
      </div>
      <DataTablePagination
        paging={paging}
        total={total}
        totalIsExact={query.data?.total_is_exact ?? true}
        pageCount={pageCount}
        disabled={query.isPending}
      />
    </div>
  );
}
