import { Suspense, useId, useState } from 'react';
import dayjs from 'dayjs';
import { CalendarRange, LoaderCircle, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { useIsMobile } from '@/hooks/use-is-mobile';
import { cn } from '@/lib/cn';
import { dateLanguage, formatDate, formatIsoDate } from '@/lib/format';
import { CalendarFallback, DateField, LazyCalendar, toPickerDate } from './date-field';

/** A range of days, YYYY-MM-DD each; either end may be open. */
export interface DayRange {
  from?: string | undefined;
  to?: string | undefined;
}

/** A named range a click applies; `range` may ask the server (the token month of the scope). */
export interface RangePreset {
  id: string;
  label: string;
  range: () => DayRange | Promise<DayRange>;
}

const today = () => dayjs();

/** Last month and the last 7 days (today included), by the browser's calendar. */
export function calendarPresets(t: (key: string) => string): RangePreset[] {
  return [
    {
      id: 'last_month',
      label: t('date_picker.preset_last_month'),
      range: () => {
        const start = today().subtract(1, 'month').startOf('month');
        return {
          from: formatIsoDate(start.toDate()),
          to: formatIsoDate(start.endOf('month').toDate()),
        };
      },
    },
    {
      id: 'last_7_days',
      label: t('date_picker.preset_last_7_days'),
      range: () => ({
        from: formatIsoDate(today().subtract(6, 'day').toDate()),
        to: formatIsoDate(today().toDate()),
      }),
    },
  ];
}

/**
 * A range of days in one control (issue 19): a button that says the range in the language's
 * format, opening presets (this token month, last month, last 7 days), a From and a To box that
 * read typed days in the same format, and a range calendar (two months side by side on wider
 * screens). Every change applies at once; Clear empties both ends.
 */
export function DateRangePicker({
  label,
  value,
  onChange,
  presets,
  className,
}: {
  /** What the range filters, e.g. "Date". */
  label: string;
  value: DayRange;
  onChange: (range: DayRange) => void;
  presets: RangePreset[];
  className?: string;
}) {
  const { t, i18n } = useTranslation();
  const lang = dateLanguage(i18n.language);
  const isMobile = useIsMobile();
  const [isOpen, setOpen] = useState(false);
  const [pending, setPending] = useState<string | null>(null);
  const fromId = useId();
  const toId = useId();
  const { from, to } = value;
  const hasRange = Boolean(from || to);

  const summary = hasRange
    ? `${from ? formatDate(from, lang) : '…'} – ${to ? formatDate(to, lang) : '…'}`
    : t('date_picker.any_date');

  const applyPreset = async (preset: RangePreset) => {
    setPending(preset.id);
    try {
      onChange(await preset.range());
      setOpen(false);
    } finally {
      setPending(null);
    }
  };

  return (
    <div className={cn('flex items-center gap-1', className)}>
      <Popover open={isOpen} onOpenChange={setOpen}>
        <PopoverTrigger asChild>
          <Button
            type="button"
            variant="outline"
            size="sm"
            className={cn('h-8 justify-start font-normal', hasRange && 'tabular-nums')}
            data-testid="date-range-trigger"
          >
            <CalendarRange aria-hidden />
            <span className="text-muted-foreground">{label}:</span>
            <span>{summary}</span>
          </Button>
        </PopoverTrigger>
        <PopoverContent className="w-auto p-3" align="start">
          <div className="flex flex-col gap-3 sm:flex-row">
            <div
              role="group"
              aria-label={t('date_picker.presets')}
              className="flex flex-row flex-wrap gap-1 sm:w-40 sm:flex-col"
            >
              {presets.map((preset) => (
                <Button
                  key={preset.id}
                  type="button"
                  variant="ghost"
                  size="sm"
                  className="justify-start"
                  disabled={pending !== null}
                  onClick={() => void applyPreset(preset)}
                >
                  {pending === preset.id && <LoaderCircle className="animate-spin" aria-hidden />}
                  {preset.label}
                </Button>
              ))}
            </div>
            <div className="flex flex-col gap-3">
              <div className="flex flex-wrap items-start gap-3">
                <div className="grid gap-1">
                  <label htmlFor={fromId} className="text-xs text-muted-foreground">
                    {t('date_picker.from')}
                  </label>
                  <DateField
                    id={fromId}
                    size="sm"
                    value={from ?? ''}
                    max={to}
                    onChange={(day) => onChange({ from: day || undefined, to })}
                  />
                </div>
                <div className="grid gap-1">
                  <label htmlFor={toId} className="text-xs text-muted-foreground">
                    {t('date_picker.to')}
                  </label>
                  <DateField
                    id={toId}
                    size="sm"
                    value={to ?? ''}
                    min={from}
                    onChange={(day) => onChange({ from, to: day || undefined })}
                  />
                </div>
              </div>
              <Suspense fallback={<CalendarFallback />}>
                <LazyCalendar
                  lang={lang}
                  mode="range"
                  numberOfMonths={isMobile ? 1 : 2}
                  defaultMonth={
                    toPickerDate(from) ??
                    (isMobile ? undefined : dayjs().subtract(1, 'month').toDate())
                  }
                  selected={{ from: toPickerDate(from), to: toPickerDate(to) }}
                  onSelect={(range) =>
                    onChange({
                      from: range?.from ? formatIsoDate(range.from) : undefined,
                      to: range?.to ? formatIsoDate(range.to) : undefined,
                    })
                  }
                />
              </Suspense>
            </div>
          </div>
        </PopoverContent>
      </Popover>
      {hasRange && (
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="size-8"
          aria-label={t('date_picker.clear_range', { label })}
          onClick={() => onChange({})}
        >
          <X aria-hidden />
        </Button>
      )}
    </div>
  );
}
