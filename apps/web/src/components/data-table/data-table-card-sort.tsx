import { useId } from 'react';
import type { SortingState } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';

/** The list's own order, with no sort in the URL. */
const UNSORTED = '-';

/**
 * The sort of a list shown as cards (below 768 px there are no headers to click): a column and
 * a direction, driving the same sort state (the URL's `sort` and `order`) as the headers do.
 */
export function DataTableCardSort({
  columns,
  sorting,
  onSortingChange,
}: {
  /** The columns the list's API sorts by, with their names. */
  columns: { id: string; title: string }[];
  sorting: SortingState;
  onSortingChange: (sorting: SortingState) => void;
}) {
  const { t } = useTranslation();
  const labelId = useId();
  const [sort] = sorting;
  return (
    <div
      role="group"
      aria-labelledby={labelId}
      className="flex min-w-0 items-center gap-2 text-sm"
      data-testid="card-sort"
    >
      <span id={labelId} className="shrink-0 text-muted-foreground">
        {t('table.sort_by')}
      </span>
      <Select
        value={sort?.id ?? UNSORTED}
        onValueChange={(id) =>
          onSortingChange(id === UNSORTED ? [] : [{ id, desc: sort?.desc ?? false }])
        }
      >
        <SelectTrigger
          aria-label={t('table.sort_column')}
          className="h-8 min-w-0 flex-1 [&>span]:truncate"
        >
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={UNSORTED}>{t('table.sort_default')}</SelectItem>
          {columns.map((column) => (
            <SelectItem key={column.id} value={column.id}>
              {column.title}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <Select
        value={sort?.desc ? 'desc' : 'asc'}
        disabled={!sort}
        onValueChange={(order) =>
          sort && onSortingChange([{ id: sort.id, desc: order === 'desc' }])
        }
      >
        <SelectTrigger aria-label={t('table.sort_order')} className="h-8 shrink-0">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value="asc">{t('table.ascending')}</SelectItem>
          <SelectItem value="desc">{t('table.descending')}</SelectItem>
        </SelectContent>
      </Select>
    </div>
  );
}
