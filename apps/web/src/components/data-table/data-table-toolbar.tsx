import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Search, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import type { FilterDefs, TableSearch } from './table-search';

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

/** A day filter (YYYY-MM-DD) as a native date input, labelled. */
export function DataTableDateFilter<F extends FilterDefs>({
  table,
  filterKey,
  label,
  min,
  max,
}: {
  table: TableSearch<F>;
  filterKey: keyof F & string;
  label: string;
  min?: string;
  max?: string;
}) {
  const id = useId();
  const value = (table.filters[filterKey] as string | undefined) ?? '';
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm whitespace-nowrap text-muted-foreground">
        {label}
      </label>
      <Input
        id={id}
        type="date"
        className="h-8 w-auto"
        value={value}
        min={min}
        max={max}
        onChange={(event) => table.setFilter(filterKey, (event.target.value || undefined) as never)}
      />
    </div>
  );
}

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
