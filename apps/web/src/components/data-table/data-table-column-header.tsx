import type { Column } from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ChevronsUpDown } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';

/**
 * A column title; when the column sorts on the server, a button that cycles ascending →
 * descending → unsorted (the header cell carries aria-sort).
 */
export function DataTableColumnHeader<TData, TValue>({
  column,
  title,
  className,
}: {
  column: Column<TData, TValue>;
  title: string;
  className?: string;
}) {
  const { t } = useTranslation();
  if (!column.getCanSort()) return <span className={className}>{title}</span>;
  const sorted = column.getIsSorted();
  const next = sorted === false ? 'asc' : sorted === 'asc' ? 'desc' : false;
  const hint =
    next === 'asc'
      ? t('table.sort_asc')
      : next === 'desc'
        ? t('table.sort_desc')
        : t('table.sort_clear');
  return (
    <Button
      variant="ghost"
      size="sm"
      // A long title takes two lines rather than its column's width (the cell's own alignment).
      className={cn('-ml-3 h-auto min-h-8 py-1 whitespace-normal [text-align:inherit]', className)}
      onClick={() => {
        if (next === false) column.clearSorting();
        else column.toggleSorting(next === 'desc');
      }}
    >
      <span>{title}</span>
      <span className="sr-only">{hint}</span>
      {sorted === 'desc' ? (
        <ArrowDown aria-hidden />
      ) : sorted === 'asc' ? (
        <ArrowUp aria-hidden />
      ) : (
        <ChevronsUpDown aria-hidden className="opacity-50" />
      )}
    </Button>
  );
}
