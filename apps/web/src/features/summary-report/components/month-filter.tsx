import { useId } from 'react';
import { Input } from '@/components/ui/input';
import type { FilterDefs, TableSearch } from '@/components/data-table';

/**
 * The report's token month (YYYY-MM) as a native month input. Without one in the URL it shows
 * the month the server answered for (its default).
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
  const value = (table.filters.month as string | undefined) ?? shownMonth ?? '';
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm whitespace-nowrap text-muted-foreground">
        {label}
      </label>
      <Input
        id={id}
        type="month"
        className="h-8 w-auto"
        value={value}
        onChange={(event) => table.setFilter('month', (event.target.value || undefined) as never)}
      />
    </div>
  );
}
