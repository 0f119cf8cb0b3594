import { cloneElement, lazy, Suspense, useState } from 'react';
import { CalendarDays, ChevronLeft, ChevronRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { formatMonthWords, formatShortMonth } from '@/lib/format';

// The contract's year range (calendar.ts), not imported: the dashboard's first load has no zod.
const YEAR_MIN = 1970;
const YEAR_MAX = 9999;
// Fetched on the first opening (decision 0037): the dashboard's first load leaves Radix's
// popover, popper and floating-ui out.
const MonthPickerPopover = lazy(() =>
  import('./month-picker-popover').then(({ MonthPickerPopover }) => ({
    default: MonthPickerPopover,
  })),
);

const pad = (n: number) => String(n).padStart(2, '0');
const monthOf = (year: number, month: number) => `${year}-${pad(month)}`;

/** The month before `month` (YYYY-MM). */
export function previousMonth(month: string): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return number === 1 ? monthOf(year - 1, 12) : monthOf(year, number - 1);
}

/**
 * A token month (YYYY-MM) picked in words (issue 19): the button says "November 2026" /
 * "2026年11月", the same words as the text under it; the popover has the presets (this token
 * month, last month) and a year of month buttons. `value` undefined means the server's default
 * (the current token month), which `shownMonth` names once known.
 */
export function MonthPicker({
  id,
  label,
  value,
  shownMonth,
  onChange,
  className,
  size = 'default',
}: {
  id?: string;
  /** What the month is for ("Month"): the button's name says it with the month. */
  label?: string;
  value: string | undefined;
  shownMonth: string;
  /** Undefined asks for the current token month (the default). */
  onChange: (month: string | undefined) => void;
  className?: string;
  size?: 'sm' | 'default';
}) {
  const { t, i18n } = useTranslation();
  const current = value ?? shownMonth;
  const [isOpen, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const words = current ? formatMonthWords(current, i18n.language) : t('date_picker.choose_month');
  const currentYear = Number(current.slice(0, 4)) || new Date().getFullYear();
  const [year, setYear] = useState(currentYear);
  const monthName = (month: number) => formatShortMonth(month, i18n.language);

  const pick = (month: string | undefined) => {
    onChange(month);
    setOpen(false);
  };

  const openChange = (open: boolean) => {
    setOpen(open);
    if (open) setYear(currentYear);
  };
  const trigger = (
    <Button
      id={id}
      type="button"
      variant="outline"
      size={size}
      layout="field"
      className={cn('min-w-44', className)}
      data-testid="month-picker-trigger"
      data-month={current}
      aria-label={label ? `${label}: ${words}` : undefined}
    >
      <CalendarDays aria-hidden />
      {words}
    </Button>
  );
  if (!wanted) {
    // The button alone until the first click, which fetches the popover and opens it.
    return cloneElement(trigger, {
      onClick: () => {
        setWanted(true);
        openChange(true);
      },
    });
  }

  return (
    <Suspense fallback={trigger}>
      <MonthPickerPopover open={isOpen} onOpenChange={openChange} trigger={trigger}>
        <div className="flex flex-col gap-3">
          <div role="group" aria-label={t('date_picker.presets')} className="flex flex-wrap gap-1">
            <Button type="button" variant="secondary" size="sm" onClick={() => pick(undefined)}>
              {t('date_picker.preset_this_token_month')}
            </Button>
            {shownMonth && (
              <Button
                type="button"
                variant="secondary"
                size="sm"
                onClick={() => pick(previousMonth(value ?? shownMonth))}
              >
                {t('date_picker.preset_last_month')}
              </Button>
            )}
          </div>
          <div className="flex items-center justify-between">
            <Button
              type="button"
              variant="ghost"
              size="icon"
              className="size-8"
              aria-label={t('date_picker.previous_year')}
              disabled={year <= YEAR_MIN}
              onClick={() => setYear(year - 1)}
            >
              <ChevronLeft aria-hidden />
            </Button>
            <span className="text-sm font-medium tabular-nums" aria-live="polite">
              {year}
            </span>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              className="size-8"
              aria-label={t('date_picker.next_year')}
              disabled={year >= YEAR_MAX}
              onClick={() => setYear(year + 1)}
            >
              <ChevronRight aria-hidden />
            </Button>
          </div>
          <div className="grid grid-cols-3 gap-1">
            {Array.from({ length: 12 }, (_, index) => {
              const month = monthOf(year, index + 1);
              const isSelected = month === current;
              return (
                <Button
                  key={month}
                  type="button"
                  variant={isSelected ? 'default' : 'ghost'}
                  size="sm"
                  aria-pressed={isSelected}
                  aria-label={formatMonthWords(month, i18n.language)}
                  onClick={() => pick(month)}
                >
                  {monthName(index + 1)}
                </Button>
              );
            })}
          </div>
        </div>
      </MonthPickerPopover>
    </Suspense>
  );
}
