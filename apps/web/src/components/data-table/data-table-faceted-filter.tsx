import { Check, PlusCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Separator } from '@/components/ui/separator';
import type { FilterDefs, TableSearch } from './table-search';

/** A choice in a filter or a select: the value sent, the label shown. */
export interface Option {
  value: string;
  label: string;
}

const asValues = (value: unknown): string[] =>
  value === undefined || value === null
    ? []
    : Array.isArray(value)
      ? value.map(String)
      : [String(value)];

/**
 * A filter with a fixed list of options (status, type, company…), kept in the URL. A filter
 * declared with `manyOf` takes several values; any other takes one (choosing it again clears it).
 */
export function DataTableFacetedFilter<F extends FilterDefs>({
  table,
  filterKey,
  title,
  options,
}: {
  table: TableSearch<F>;
  filterKey: keyof F & string;
  title: string;
  options: Option[];
}) {
  const { t } = useTranslation();
  const multiple = table.config.filters[filterKey]?.multiple ?? false;
  const selected = asValues(table.filters[filterKey]);
  const labelOf = (value: string) =>
    options.find((option) => option.value === value)?.label ?? value;

  const toggle = (value: string) => {
    const isSelected = selected.includes(value);
    if (multiple) {
      const next = isSelected ? selected.filter((item) => item !== value) : [...selected, value];
      table.setFilter(filterKey, (next.length > 0 ? next : undefined) as never);
    } else {
      // Ids are numbers in the filter, other single values strings.
      const parsed = table.config.filters[filterKey]?.parse([value]);
      table.setFilter(filterKey, (isSelected ? undefined : parsed) as never);
    }
  };

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm" className="h-8 border-dashed">
          <PlusCircle aria-hidden />
          {title}
          {selected.length > 0 && (
            <>
              <Separator orientation="vertical" className="mx-1 data-[orientation=vertical]:h-4" />
              {selected.length > 2 ? (
                <Badge variant="secondary" className="rounded-sm px-1 font-normal">
                  {t('table.selected_count', { n: selected.length })}
                </Badge>
              ) : (
                selected.map((value) => (
                  <Badge key={value} variant="secondary" className="rounded-sm px-1 font-normal">
                    {labelOf(value)}
                  </Badge>
                ))
              )}
            </>
          )}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-56">
        <DropdownMenuLabel className="text-xs font-normal text-muted-foreground">
          {title}
        </DropdownMenuLabel>
        {options.length === 0 && (
          <p className="px-2 py-1.5 text-sm text-muted-foreground">{t('table.no_options')}</p>
        )}
        {options.map((option) => {
          const isSelected = selected.includes(option.value);
          return (
            <DropdownMenuItem
              key={option.value}
              role={multiple ? 'menuitemcheckbox' : 'menuitemradio'}
              aria-checked={isSelected}
              onSelect={(event) => {
                if (multiple) event.preventDefault();
                toggle(option.value);
              }}
            >
              <span
                aria-hidden
                className="flex size-4 items-center justify-center rounded-sm border border-primary data-[selected=false]:opacity-50 data-[selected=true]:bg-primary data-[selected=true]:text-primary-foreground"
                data-selected={isSelected}
              >
                {isSelected && <Check className="size-3 text-current" />}
              </span>
              <span className="truncate">{option.label}</span>
            </DropdownMenuItem>
          );
        })}
        {selected.length > 0 && (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuItem
              className="justify-center"
              onSelect={() => table.setFilter(filterKey, undefined)}
            >
              {t('table.clear_filter')}
            </DropdownMenuItem>
          </>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
