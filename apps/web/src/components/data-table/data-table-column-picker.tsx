import { Check, Columns3 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';

export interface PickableColumn {
  id: string;
  title: string;
}

/** The "Columns" menu: which of a table's columns show; at least one always does. */
export function DataTableColumnPicker({
  columns,
  hidden,
  onChange,
}: {
  columns: PickableColumn[];
  hidden: string[];
  onChange: (hidden: string[]) => void;
}) {
  const { t } = useTranslation();
  const shownCount = columns.filter((column) => !hidden.includes(column.id)).length;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm" className="h-8" data-testid="column-picker">
          <Columns3 aria-hidden />
          {t('table.columns')}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-56">
        <DropdownMenuLabel className="text-xs font-normal text-muted-foreground">
          {t('table.columns_shown')}
        </DropdownMenuLabel>
        {columns.map((column) => {
          const isShown = !hidden.includes(column.id);
          return (
            <DropdownMenuItem
              key={column.id}
              role="menuitemcheckbox"
              aria-checked={isShown}
              disabled={isShown && shownCount <= 1}
              onSelect={(event) => {
                event.preventDefault();
                onChange(
                  isShown ? [...hidden, column.id] : hidden.filter((id) => id !== column.id),
                );
              }}
            >
              <span
                aria-hidden
                className="flex size-4 items-center justify-center rounded-sm border border-primary data-[shown=false]:opacity-50 data-[shown=true]:bg-primary data-[shown=true]:text-primary-foreground"
                data-shown={isShown}
              >
                {isShown && <Check className="size-3 text-current" />}
              </span>
              <span className="truncate">{column.title}</span>
            </DropdownMenuItem>
          );
        })}
        {hidden.length > 0 && (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuItem className="justify-center" onSelect={() => onChange([])}>
              {t('table.show_all_columns')}
            </DropdownMenuItem>
          </>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
