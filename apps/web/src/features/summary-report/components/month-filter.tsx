import { useId } from 'react';
import { MonthPicker } from '@/components/date-picker';
import type { FilterDefs, TableSearch } from '@/components/data-table';

/**
 * The report's token month (YYYY-MM) as the app's month picker, in words. Without one in the URL
 * it shows the month the server answered for (its default).
 */
export function MonthFilter<F extends FilterDefs>({
  table,
  label,
  shownMonth,
}: {
  table: TableSearch<F>;
  label: string;
  shownMonth?: string;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm whitespace-nowrap text-muted-foreground">
        {label}
      </label>
      <MonthPicker
        id={id}
        label={label}
        size="sm"
        value={table.filters.month as string | undefined}
        shownMonth={shownMonth ?? ''}
        onChange={(month) => table.setFilter('month', month as never)}
      />
    </div>
  );
}
