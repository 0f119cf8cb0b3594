import { useId } from 'react';
import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES } from '@app/contract/constants';
import { Button } from '@/components/ui/button';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { withThousands } from '@/lib/format';
import { isPageSize, type PagingController } from './table-search';

export interface DataTablePaginationProps {
  paging: PagingController;
  total: number;
  totalIsExact?: boolean;
  pageCount: number;
  disabled?: boolean;
}

/** Total, rows per page (10, 20, 50) and page buttons under a list. */
export function DataTablePagination({
  paging,
  total,
  totalIsExact = true,
  pageCount,
  disabled,
}: DataTablePaginationProps) {
  const { t } = useTranslation();
  const sizeLabelId = useId();
  const { page } = paging;
  const canGoBack = !disabled && page > 1;
  const canGoOn = !disabled && page < pageCount;

  return (
    <nav
      aria-label={t('table.pagination')}
      className="flex flex-col-reverse items-center justify-between gap-3 text-sm sm:flex-row"
    >
      <p className="text-muted-foreground" data-testid="table-total">
        {t('table.total', { total: `${withThousands(total)}${totalIsExact ? '' : '+'}` })}
      </p>
      <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
        <div className="flex items-center gap-2">
          <span id={sizeLabelId} className="whitespace-nowrap">
            {t('table.rows_per_page')}
          </span>
          <Select
            value={String(paging.pageSize)}
            onValueChange={(value) => {
              const size = Number(value);
              if (isPageSize(size)) paging.setPageSize(size);
            }}
          >
            <SelectTrigger aria-labelledby={sizeLabelId} className="h-8 w-[4.5rem]">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {PAGE_SIZES.map((size) => (
                <SelectItem key={size} value={String(size)}>
                  {size}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <span className="whitespace-nowrap" aria-live="polite">
          {t('table.page_of', {
            page: withThousands(Math.min(page, pageCount)),
            pages: withThousands(pageCount),
          })}
        </span>
        <div className="flex items-center gap-1">
          <Button
            variant="outline"
            size="icon"
            className="size-8"
            aria-label={t('table.first_page')}
            disabled={!canGoBack}
            onClick={() => paging.setPage(1)}
          >
            <ChevronsLeft aria-hidden />
          </Button>
          <Button
            variant="outline"
            size="icon"
            className="size-8"
            aria-label={t('table.previous_page')}
            disabled={!canGoBack}
            onClick={() => paging.setPage(Math.min(page, pageCount) - 1)}
          >
            <ChevronLeft aria-hidden />
          </Button>
          <Button
            variant="outline"
            size="icon"
            className="size-8"
            aria-label={t('table.next_page')}
            disabled={!canGoOn}
            onClick={() => paging.setPage(page + 1)}
          >
            <ChevronRight aria-hidden />
          </Button>
          <Button
            variant="outline"
            size="icon"
            className="size-8"
            aria-label={t('table.last_page')}
            disabled={!canGoOn}
            onClick={() => paging.setPage(pageCount)}
          >
            <ChevronsRight aria-hidden />
          </Button>
        </div>
      </div>
    </nav>
  );
}
