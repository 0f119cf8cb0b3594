import { lazy, Suspense, useId, useState, type ComponentProps } from 'react';
import dayjs from 'dayjs';
import { CalendarDays } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';
import {
  dateFormatOf,
  dateLanguage,
  formatDate,
  formatIsoDate,
  ISO_DATE_FORMAT,
} from '@/lib/format';
import { parseDate } from './parse-date';

/** The calendar grid (react-day-picker) loads the first time a picker opens. */
export const LazyCalendar = lazy(() =>
  import('@/components/ui/calendar').then((module) => ({ default: module.Calendar })),
);

/** A day as the local midnight react-day-picker works with, or undefined. */
export const toPickerDate = (day: string | undefined): Date | undefined =>
  day ? dayjs(day, ISO_DATE_FORMAT).toDate() : undefined;

export function CalendarFallback() {
  return <Skeleton className="h-72 w-64" data-testid="calendar-loading" />;
}

export interface DateFieldProps {
  /** The day, YYYY-MM-DD, or '' for none. */
  value: string;
  /** Called with YYYY-MM-DD when a day is typed (on Enter or leaving the box) or picked, '' when cleared. */
  onChange: (day: string) => void;
  /** Told whether the typed text reads as a day, so a form can refuse to submit it. */
  onValidityChange?: (isValid: boolean) => void;
  id?: string;
  name?: string;
  /** Days before `min` or after `max` (YYYY-MM-DD) cannot be picked in the calendar. */
  min?: string | undefined;
  max?: string | undefined;
  className?: string;
  inputClassName?: string;
  size?: 'sm' | 'default';
  disabled?: boolean;
  onBlur?: () => void;
  'aria-describedby'?: string | undefined;
  'aria-labelledby'?: string | undefined;
  'aria-invalid'?: ComponentProps<'input'>['aria-invalid'];
}

/**
 * A day typed or picked (issue 19): a text box that shows and reads the day in the language's
 * format (DD/MM/YYYY in English, YYYY-MM-DD in Chinese: the format of the text on every screen,
 * never the browser's own), and a button opening a calendar. Text that does not read as a day
 * stays in the box, marked invalid, with a message saying the format; nothing is sent.
 */
export function DateField({
  value,
  onChange,
  onValidityChange,
  id,
  name,
  min,
  max,
  className,
  inputClassName,
  size = 'default',
  disabled,
  onBlur,
  'aria-describedby': describedBy,
  'aria-labelledby': labelledBy,
  'aria-invalid': ariaInvalid,
}: DateFieldProps) {
  const { t, i18n } = useTranslation();
  const lang = dateLanguage(i18n.language);
  const shown = formatDate(value, lang);
  const [text, setText] = useState(shown);
  const [lastShown, setLastShown] = useState(shown);
  const [isInvalid, setInvalid] = useState(false);
  const [isOpen, setOpen] = useState(false);
  const hintId = useId();
  const errorId = useId();
  const format = dateFormatOf(lang);

  // The value changed elsewhere (picked, reset, another language): show it.
  if (shown !== lastShown) {
    setLastShown(shown);
    setText(shown);
    if (isInvalid) setInvalid(false);
  }

  const markValid = (valid: boolean) => {
    setInvalid(!valid);
    onValidityChange?.(valid);
  };

  const commit = () => {
    const typed = text.trim();
    if (typed === '') {
      markValid(true);
      if (value !== '') onChange('');
      return;
    }
    const day = parseDate(typed, lang);
    if (day === null) {
      markValid(false);
      return;
    }
    markValid(true);
    setText(formatDate(day, lang));
    if (day !== value) onChange(day);
  };

  const selected = toPickerDate(value || undefined);
  const minDate = toPickerDate(min);
  const maxDate = toPickerDate(max);
  const height = size === 'sm' ? 'h-8' : 'h-9';

  return (
    <div className={cn('grid gap-1', className)}>
      <div className="relative flex items-center">
        <Input
          id={id}
          name={name}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          spellCheck={false}
          placeholder={format}
          disabled={disabled}
          className={cn(height, 'w-[9.5rem] pr-9 tabular-nums', inputClassName)}
          value={text}
          aria-labelledby={labelledBy}
          aria-invalid={isInvalid || ariaInvalid || undefined}
          aria-describedby={
            [hintId, isInvalid ? errorId : undefined, describedBy].filter(Boolean).join(' ') ||
            undefined
          }
          onChange={(event) => setText(event.target.value)}
          onBlur={() => {
            commit();
            onBlur?.();
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              commit();
            }
          }}
        />
        <Popover open={isOpen} onOpenChange={setOpen}>
          <PopoverTrigger asChild>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              disabled={disabled}
              className={cn('absolute right-0.5', size === 'sm' ? 'size-7' : 'size-8')}
              aria-label={t('date_picker.open_calendar')}
            >
              <CalendarDays aria-hidden />
            </Button>
          </PopoverTrigger>
          <PopoverContent className="w-auto p-2" align="end">
            <Suspense fallback={<CalendarFallback />}>
              <LazyCalendar
                lang={lang}
                mode="single"
                autoFocus
                selected={selected}
                defaultMonth={selected ?? minDate}
                disabled={[
                  ...(minDate ? [{ before: minDate }] : []),
                  ...(maxDate ? [{ after: maxDate }] : []),
                ]}
                onSelect={(date) => {
                  if (!date) return;
                  setOpen(false);
                  markValid(true);
                  onChange(formatIsoDate(date));
                }}
              />
            </Suspense>
          </PopoverContent>
        </Popover>
      </div>
      <span id={hintId} className="sr-only">
        {t('date_picker.format_hint', { format })}
      </span>
      {isInvalid && (
        <p id={errorId} role="alert" className="text-sm text-destructive">
          {t('v.date_format', { ns: 'validation', format })}
        </p>
      )}
    </div>
  );
}
