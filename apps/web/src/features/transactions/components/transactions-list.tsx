import { useEffect, useRef } from 'react';
import { AlertCircle, Inbox, LoaderCircle, RotateCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { TokenTransaction } from '@app/contract';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { useIsMobile } from '@/hooks/use-is-mobile';
import { cn } from '@/lib/cn';
import { errorMessageLines } from '@/lib/error-display';
import type { TransactionColumn } from './transactions-columns';

export interface InfiniteListState {
  rows: TokenTransaction[];
  isPending: boolean;
  isError: boolean;
  error: unknown;
  isFetching: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
  refetch: () => unknown;
}

/**
 * The ledger as one growing table: skeleton rows while the first page loads, an error row with
 * retry, an empty state, then rows; the next page loads when the sentinel below the table scrolls
 * into view, or on the 'Load more' button (keyboard users, browsers without IntersectionObserver).
 */
export function TransactionsList({
  label,
  columns,
  list,
  onOpen,
}: {
  label: string;
  columns: TransactionColumn[];
  list: InfiniteListState;
  /** Opens a row (its order or transfer); keyboard users reach it by the event's button. */
  onOpen?: (row: TokenTransaction) => void;
}) {
  const { t } = useTranslation();
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage, isError } = list;
  const canLoadMore = hasNextPage && !isFetchingNextPage && !isError;
  const isMobile = useIsMobile();
  const showCards = isMobile && !list.isPending && list.rows.length > 0;

  useEffect(() => {
    const element = sentinel.current;
    if (!element || !canLoadMore || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) void fetchNextPage();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [canLoadMore, fetchNextPage]);

  let body;
  if (list.isPending) {
    body = Array.from({ length: 8 }, (_, index) => (
      <TableRow key={`skeleton-${index}`} data-testid="skeleton-row">
        {columns.map((column) => (
          <TableCell key={column.id}>
            <Skeleton className="h-5 w-full min-w-12" />
          </TableCell>
        ))}
      </TableRow>
    ));
  } else if (list.isError && list.rows.length === 0) {
    body = (
      <TableRow className="hover:bg-transparent">
        <TableCell colSpan={columns.length} className="h-32 text-center whitespace-normal">
          <div role="alert" className="flex flex-col items-center gap-3">
            <AlertCircle className="size-6 text-destructive" aria-hidden />
            <p className="font-medium">{t('table.load_failed')}</p>
            <p className="text-sm whitespace-pre-line text-muted-foreground">
              {errorMessageLines(list.error).join('\n')}
            </p>
            <Button variant="outline" size="sm" onClick={() => void list.refetch()}>
              <RotateCw aria-hidden />
              {t('table.retry')}
            </Button>
          </div>
        </TableCell>
      </TableRow>
    );
  } else if (list.rows.length === 0) {
    body = (
      <TableRow className="hover:bg-transparent">
        <TableCell colSpan={columns.length} className="h-32 text-center whitespace-normal">
          <div className="flex flex-col items-center gap-2 text-muted-foreground">
            <Inbox className="size-6" aria-hidden />
            <p>{t('transactions.empty')}</p>
          </div>
        </TableCell>
      </TableRow>
    );
  } else if (isMobile) {
    body = null;
  } else {
    body = list.rows.map((row) => (
      <TableRow
        key={row.id}
        data-transaction-id={row.id}
        className={onOpen ? 'cursor-pointer' : undefined}
        onClick={onOpen ? () => onOpen(row) : undefined}
      >
        {columns.map((column) => (
          <TableCell key={column.id} className={column.className}>
            {column.cell(row)}
          </TableCell>
        ))}
      </TableRow>
    ));
  }

  return (
    <div className="flex flex-col gap-4">
      {showCards ? (
        <TransactionCards label={label} columns={columns} rows={list.rows} onOpen={onOpen} />
      ) : (
        <div className="rounded-md border">
          <Table aria-label={label} aria-busy={list.isFetching}>
            <TableHeader className="bg-muted/40">
              <TableRow className="hover:bg-transparent">
                {columns.map((column) => (
                  <TableHead key={column.id} className={column.className}>
                    {column.header}
                  </TableHead>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>{body}</TableBody>
          </Table>
        </div>
      )}
      {list.isError && list.rows.length > 0 && (
        <div role="alert" className="flex flex-col items-center gap-2 text-sm">
          <p className="text-destructive">{errorMessageLines(list.error).join('\n')}</p>
          <Button variant="outline" size="sm" onClick={() => void fetchNextPage()}>
            <RotateCw aria-hidden />
            {t('table.retry')}
          </Button>
        </div>
      )}
      <div ref={sentinel} aria-hidden className="h-px" />
      {!list.isPending && list.rows.length > 0 && (
        <div className="flex justify-center">
          {hasNextPage ? (
            <Button
              variant="outline"
              size="sm"
              disabled={!canLoadMore}
              onClick={() => void fetchNextPage()}
            >
              {isFetchingNextPage && <LoaderCircle className="animate-spin" aria-hidden />}
              {isFetchingNextPage ? t('transactions.loading_more') : t('transactions.load_more')}
            </Button>
          ) : (
            <p className="text-sm text-muted-foreground">{t('transactions.end_of_list')}</p>
          )}
        </div>
      )}
    </div>
  );
}

/**
 * Below 768 px the ledger is a stack of cards (issue 19): the signed amount first, in large
 * type, then the event and every other column as a label and its value.
 */
function TransactionCards({
  label,
  columns,
  rows,
  onOpen,
}: {
  label: string;
  columns: TransactionColumn[];
  rows: TokenTransaction[];
  onOpen?: ((row: TokenTransaction) => void) | undefined;
}) {
  const amount = columns.find((column) => column.id === 'amount');
  const rest = columns.filter((column) => column !== amount);
  return (
    <ul aria-label={label} className="flex flex-col gap-2" data-testid="transaction-cards">
      {rows.map((row) => (
        <li
          key={row.id}
          data-transaction-id={row.id}
          className={cn('rounded-md border p-3 text-sm', onOpen && 'cursor-pointer')}
          onClick={onOpen ? () => onOpen(row) : undefined}
        >
          {amount && (
            <p className="text-lg font-semibold tabular-nums" data-testid="card-amount">
              {amount.cell(row)}
            </p>
          )}
          <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1">
            {rest.map((column) => (
              <div key={column.id} className="contents">
                <dt className="text-muted-foreground">{column.header}</dt>
                <dd className="min-w-0 text-right break-words">{column.cell(row)}</dd>
              </div>
            ))}
          </dl>
        </li>
      ))}
    </ul>
  );
}
