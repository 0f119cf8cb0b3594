import type * as React from 'react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { DayPicker, getDefaultClassNames } from 'react-day-picker';
import { enGB, zhCN } from 'react-day-picker/locale';
import { buttonVariants } from '@/components/ui/button';
import { cn } from '@/lib/cn';

/**
 * shadcn/ui's Calendar: react-day-picker styled with Tailwind. Weeks start on Monday in both
 * languages; month and weekday names follow `lang` (British English, Simplified Chinese).
 * Keyboard: arrows move by day and week, PageUp/PageDown by month, Home/End to the week's ends.
 * Loaded only when a picker opens (components/date-picker), so no screen pays for it up front.
 */
export function Calendar({
  className,
  classNames,
  lang,
  ...props
}: React.ComponentProps<typeof DayPicker> & { lang: 'en' | 'zh' }) {
  const defaults = getDefaultClassNames();
  return (
    <DayPicker
      locale={lang === 'zh' ? zhCN : enGB}
      weekStartsOn={1}
      showOutsideDays
      className={cn('p-1', className)}
      classNames={{
        root: cn('w-fit', defaults.root),
        months: 'relative flex flex-col gap-4 sm:flex-row',
        month: 'flex w-full flex-col gap-3',
        nav: 'absolute inset-x-0 top-0 flex w-full items-center justify-between gap-1',
        button_previous: cn(
          buttonVariants({ variant: 'ghost', size: 'icon' }),
          'size-8 aria-disabled:opacity-50',
        ),
        button_next: cn(
          buttonVariants({ variant: 'ghost', size: 'icon' }),
          'size-8 aria-disabled:opacity-50',
        ),
        month_caption: 'flex h-8 w-full items-center justify-center px-8',
        caption_label: 'text-sm font-medium',
        month_grid: 'w-full border-collapse',
        weekdays: 'flex',
        weekday: 'flex-1 text-[0.8rem] font-normal text-muted-foreground select-none',
        week: 'mt-1 flex w-full',
        day: cn(
          'group/day relative aspect-square h-full w-full p-0 text-center select-none',
          defaults.day,
        ),
        day_button: cn(
          buttonVariants({ variant: 'ghost' }),
          'size-9 p-0 font-normal tabular-nums',
          'group-data-[selected=true]/day:bg-primary group-data-[selected=true]/day:text-primary-foreground',
        ),
        range_start: 'rounded-l-md bg-accent',
        range_middle:
          'rounded-none bg-accent [&_button]:bg-accent! [&_button]:text-accent-foreground!',
        range_end: 'rounded-r-md bg-accent',
        selected: '[&_button]:bg-primary [&_button]:text-primary-foreground',
        today: '[&_button]:underline [&_button]:underline-offset-4 [&_button]:font-semibold',
        outside: 'text-muted-foreground',
        disabled: 'text-muted-foreground opacity-50',
        hidden: 'invisible',
        ...classNames,
      }}
      components={{
        Chevron: ({ orientation, className: chevronClass }) =>
          orientation === 'left' ? (
            <ChevronLeft className={cn('size-4', chevronClass)} aria-hidden />
          ) : (
            <ChevronRight className={cn('size-4', chevronClass)} aria-hidden />
          ),
      }}
      {...props}
    />
  );
}
