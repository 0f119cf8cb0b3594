import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import dayjs from 'dayjs';
import { Search, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { calendarPresets, DateRangePicker, type DayRange } from '@/components/date-picker';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import type { FilterDefs, FilterValues, TableSearch } from './table-search';

/** How long typing pauses before the search reaches the URL and the server. */
export const SEARCH_DEBOUNCE_MS = 350;

/**
 * A search box bound to a text filter: the URL (and the request) follow once typing pauses, or
 * at once on Enter. The box follows the URL when it changes elsewhere (reset, back button).
 */
export function DataTableSearch<F extends FilterDefs>({
  table,
  filterKey,
  placeholder,
  label,
}: {
  table: TableSearch<F>;
  filterKey: keyof F & string;
  placeholder: string;
  label?: string;
}) {
  const fromUrl = (table.filters[filterKey] as string | undefined) ?? '';
  const [text, setText] = useState(fromUrl);
  const [lastUrlValue, setLastUrlValue] = useState(fromUrl);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const { setFilter } = table;

  // The URL changed elsewhere: show its value (state derived during render, not in an effect).
  if (fromUrl !== lastUrlValue) {
    setLastUrlValue(fromUrl);
    setText(fromUrl);
  }

  useEffect(() => () => clearTimeout(timer.current), []);

  const commit = (value: string) => {
    clearTimeout(timer.current);
    if (value.trim() !== fromUrl) setFilter(filterKey, (value.trim() || undefined) as never);
  };

  return (
    <div className="relative w-full sm:w-64">
      <Search
        className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
        aria-hidden
      />
      <Input
        type="search"
        value={text}
        placeholder={placeholder}
        aria-label={label ?? placeholder}
        className="h-8 pl-8"
        maxLength={100}
        onChange={(event) => {
          const value = event.target.value;
          setText(value);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => commit(value), SEARCH_DEBOUNCE_MS);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            commit(text);
          }
        }}
      />
    </div>
  );
}

/**
 * A date-range filter (two YYYY-MM-DD keys in the URL) as the app's range picker: presets (this
 * token month, last month, last 7 days), typed days in the language's format, a calendar.
 * `tokenMonth` gives the caller's token month (asked of the server when the preset is used);
 * without it the preset is the calendar month.
 */
export function DataTableDateRangeFilter<F extends FilterDefs>({
  table,
  fromKey,
  toKey,
  label,
  tokenMonth,
}: {
  table: TableSearch<F>;
  fromKey: keyof F & string;
  toKey: keyof F & string;
  label: string;
  tokenMonth?: () => Promise<DayRange>;
}) {
  const { t } = useTranslation();
  const { setFilters } = table;
  const presets = useMemo(
    () => [
      {
        id: 'this_token_month',
        label: t('date_picker.preset_this_token_month'),
        range: tokenMonth ?? calendarMonthRange,
      },
      ...calendarPresets(t),
    ],
    [t, tokenMonth],
  );
  return (
    <DateRangePicker
      label={label}
      value={{
        from: table.filters[fromKey] as string | undefined,
        to: table.filters[toKey] as string | undefined,
      }}
      presets={presets}
      onChange={(range) =>
        setFilters({ [fromKey]: range.from, [toKey]: range.to } as Partial<FilterValues<F>>)
      }
    />
  );
}

/** This calendar month, by the browser's calendar. */
const calendarMonthRange = (): DayRange => ({
  from: dayjs().startOf('month').format('YYYY-MM-DD'),
  to: dayjs().endOf('month').format('YYYY-MM-DD'),
});

/**
 * The row above a list: search and filters on the left, a reset when anything is filtered, and
 * actions (export) on the right.
 */
export function DataTableToolbar<F extends FilterDefs>({
  table,
  children,
  actions,
}: {
  table: TableSearch<F>;
  children?: ReactNode;
  actions?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
      <div
        role="search"
        aria-label={t('table.filters')}
        className="flex flex-1 flex-wrap items-center gap-2"
      >
        {children}
        {table.isFiltered && (
          <Button variant="ghost" size="sm" className="h-8 px-2" onClick={table.resetFilters}>
            {t('table.reset_filters')}
            <X aria-hidden />
          </Button>
        )}
      </div>
      {actions && <div className="flex items-center gap-2">{actions}</div>}
    </div>
  );
}
