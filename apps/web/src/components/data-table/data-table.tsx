import { useMemo, type MouseEvent, type ReactNode } from 'react';
import {
  functionalUpdate,
  getCoreRowModel,
  useReactTable,
  type Cell,
  type Column,
  type ColumnDef,
  type Header,
  type Row,
  type RowData,
} from '@tanstack/react-table';
import { AlertCircle, Inbox, RotateCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useIsMobile } from '@/hooks/use-is-mobile';
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
import { useHiddenColumns } from './column-preferences';
import { DataTableCardSort } from './data-table-card-sort';
import { DataTableColumnHeader } from './data-table-column-header';
import { DataTableColumnPicker } from './data-table-column-picker';
import { DataTablePagination } from './data-table-pagination';
import type { PagingController } from './table-search';

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the generics must match
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Classes for the column's header and cells (e.g. `text-right` for amounts). */
    className?: string;
    /** The column's name in the column picker and on phone cards, when its header is not text. */
    title?: string;
    /**
     * Pinned to the right edge while the rest scrolls (row actions, a status), `pinOffset` px
     * from it: the widths of the pinned columns to its right.
     */
    pinned?: 'right';
    pinOffset?: number;
    /** On a phone card: the card's title, or left out. */
    mobile?: 'title' | 'hidden';
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
  /** The columns the list's API sorts by: their text headers become sort buttons. */
  sortable?: readonly string[] | undefined;
  /** Names the table for the column picker, which remembers its choice per user; none without. */
  tableId?: string;
  /** Where a row leads (its detail page): a click anywhere on the row but its controls goes there. */
  rowHref?: (row: TData) => string;
}

/** Columns that are controls, not data: never hidden, never a card's field. */
const CONTROL_COLUMNS = new Set(['select', 'actions']);

/** A column's name as people read it: its meta title, else its text header. */
function titleOf<TData>(column: Column<TData, unknown>): string {
  const header = column.columnDef.header;
  return column.columnDef.meta?.title ?? (typeof header === 'string' ? header : column.id);
}

/** A click on the row itself, not on a control inside it (a menu, a checkbox, a link). */
const isOnControl = (event: MouseEvent) =>
  (event.target as HTMLElement).closest('a,button,input,label,[role=checkbox],[role=menuitem]') !==
  null;

function pinnedStyle(meta: { pinned?: 'right'; pinOffset?: number } | undefined) {
  return meta?.pinned === 'right' ? { right: meta.pinOffset ?? 0 } : undefined;
}
const PINNED_CLASSES =
  'sticky z-10 bg-background shadow-[-1px_0_0_var(--color-border)] group-hover/row:bg-muted';

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
  sortable,
  tableId,
  rowHref,
}: DataTableProps<TData>) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const isMobile = useIsMobile();
  const rows = query.data?.data ?? [];
  const total = query.data?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / paging.pageSize));
  const { hidden, setHidden, isRemembered } = useHiddenColumns(tableId);
  const hiddenKey = hidden.join(',');

  // Text headers of sortable columns become sort buttons (aria-sort on the cell, below).
  const shownColumns = useMemo(
    () =>
      columns.map((column) => {
        const id = column.id ?? ('accessorKey' in column ? String(column.accessorKey) : undefined);
        const header = column.header;
        if (!id || !sortable?.includes(id) || typeof header !== 'string') return column;
        return {
          ...column,
          enableSorting: true,
          meta: { title: header, ...column.meta },
          header: ({ column: sorted }: { column: Column<TData, unknown> }) => (
            <DataTableColumnHeader column={sorted} title={header} />
          ),
        } as ColumnDef<TData, unknown>;
      }),
    [columns, sortable],
  );
  const columnVisibility = useMemo(
    () =>
      Object.fromEntries(
        hiddenKey
          .split(',')
          .filter(Boolean)
          .map((id) => [id, false]),
      ),
    [hiddenKey],
  );

  // eslint-disable-next-line react-hooks/incompatible-library -- the table is rebuilt from props on every render
  const table = useReactTable({
    data: rows,
    columns: shownColumns,
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
      columnVisibility,
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
    body = table.getRowModel().rows.map((row) => {
      const href = rowHref?.(row.original);
      return (
        <TableRow
          key={row.id}
          className={cn('group/row', href && 'cursor-pointer')}
          data-href={href}
          onClick={
            href
              ? (event) => {
                  if (!isOnControl(event)) void navigate(href);
                }
              : undefined
          }
        >
          {row.getVisibleCells().map((cell) => (
            <TableCell
              key={cell.id}
              className={cn(
                cell.column.columnDef.meta?.className,
                cell.column.columnDef.meta?.pinned && PINNED_CLASSES,
              )}
              style={pinnedStyle(cell.column.columnDef.meta)}
              data-column={cell.column.id}
            >
              {renderSlot(cell.column.columnDef.cell, cell.getContext())}
            </TableCell>
          ))}
        </TableRow>
      );
    });
  }

  const pickable = table
    .getAllLeafColumns()
    .filter((column) => !CONTROL_COLUMNS.has(column.id))
    .map((column) => ({ id: column.id, title: titleOf(column) }));
  // On cards there are no headers to click: the sortable columns go to a sort control instead.
  const sortColumns = table
    .getAllLeafColumns()
    .filter((column) => column.getCanSort())
    .map((column) => ({ id: column.id, title: titleOf(column) }));
  const picker =
    tableId && isRemembered && !isMobile ? (
      <DataTableColumnPicker columns={pickable} hidden={hidden} onChange={setHidden} />
    ) : null;

  return (
    <div className="flex flex-col gap-4">
      {picker ? (
        <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
          <div className="min-w-0 flex-1">{toolbar}</div>
          {picker}
        </div>
      ) : (
        toolbar
      )}
      {isMobile && !query.isPending && !query.isError && rows.length > 0 ? (
        <DataTableCards
          label={label}
          selectAll={selectAllOf(table.getFlatHeaders())}
          sort={
            sortColumns.length > 0 ? (
              <DataTableCardSort
                columns={sortColumns}
                sorting={paging.sorting}
                onSortingChange={paging.setSorting}
              />
            ) : null
          }
          rows={table.getRowModel().rows}
          rowHref={rowHref}
          onOpen={(href) => void navigate(href)}
          isRefreshing={isRefreshing}
        />
      ) : (
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
                        className={cn(
                          header.column.columnDef.meta?.className,
                          header.column.columnDef.meta?.pinned && PINNED_CLASSES,
                          header.column.columnDef.meta?.pinned && 'bg-muted',
                        )}
                        style={pinnedStyle(header.column.columnDef.meta)}
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
      )}
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

/** The select column's header (select every row of the page), rendered on its own. */
function selectAllOf<TData>(headers: Header<TData, unknown>[]): ReactNode {
  const header = headers.find((h) => h.column.id === 'select');
  return header ? renderSlot(header.column.columnDef.header, header.getContext()) : null;
}

/** A cell rendered on its own, outside a table row. */
const cellOf = <TData,>(cell: Cell<TData, unknown>) =>
  renderSlot(cell.column.columnDef.cell, cell.getContext());

/**
 * Below 768 px a list is a stack of cards (issue 19): the title column and the row's controls
 * on top, every other shown column as a label and its value, nothing wider than the screen. A
 * card with a detail page opens it on a click outside its controls.
 */
function DataTableCards<TData>({
  label,
  selectAll,
  sort,
  rows,
  rowHref,
  onOpen,
  isRefreshing,
}: {
  label: string;
  /** The page's select-all control, above the cards, when the list selects rows. */
  selectAll: ReactNode;
  /** The sort control, above the cards, when the list sorts (the headers are not shown). */
  sort: ReactNode;
  rows: Row<TData>[];
  rowHref?: ((row: TData) => string) | undefined;
  onOpen: (href: string) => void;
  isRefreshing: boolean;
}) {
  const cards = (
    <ul
      aria-label={label}
      className={cn('flex flex-col gap-2', isRefreshing && 'opacity-60 transition-opacity')}
      data-testid="table-cards"
    >
      {rows.map((row) => {
        const cells = row.getVisibleCells();
        const select = cells.find((cell) => cell.column.id === 'select');
        const actions = cells.find((cell) => cell.column.id === 'actions');
        const fields = cells.filter(
          (cell) =>
            !CONTROL_COLUMNS.has(cell.column.id) && cell.column.columnDef.meta?.mobile !== 'hidden',
        );
        const title =
          fields.find((cell) => cell.column.columnDef.meta?.mobile === 'title') ?? fields[0];
        const href = rowHref?.(row.original);
        return (
          <li
            key={row.id}
            className={cn('rounded-md border p-3 text-sm', href && 'cursor-pointer')}
            data-href={href}
            onClick={
              href
                ? (event) => {
                    if (!isOnControl(event)) onOpen(href);
                  }
                : undefined
            }
          >
            <div className="flex items-start gap-2">
              {select && <div className="pt-0.5">{cellOf(select)}</div>}
              <div className="min-w-0 flex-1 font-medium break-words">{title && cellOf(title)}</div>
              {actions && <div className="-my-1 shrink-0">{cellOf(actions)}</div>}
            </div>
            <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1">
              {fields
                .filter((cell) => cell !== title)
                .map((cell) => (
                  <div key={cell.id} className="contents">
                    <dt className="text-muted-foreground">{titleOf(cell.column)}</dt>
                    <dd className="min-w-0 text-right break-words" data-column={cell.column.id}>
                      {cellOf(cell)}
                    </dd>
                  </div>
                ))}
            </dl>
          </li>
        );
      })}
    </ul>
  );
  if (!selectAll && !sort) return cards;
  return (
    <div className="flex flex-col gap-2">
      {sort}
      {selectAll && <div className="flex items-center px-3">{selectAll}</div>}
      {cards}
    </div>
  );
}
