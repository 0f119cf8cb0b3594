import type * as React from 'react';
import { cn } from '@/lib/cn';

export function Table({ className, ...props }: React.ComponentProps<'table'>) {
  return (
    // Focusable so a keyboard user can scroll a table wider than the screen (axe
    // scrollable-region-focusable): not every table has a link or button inside.
    <div
      data-slot="table-container"
      tabIndex={0}
      className="relative w-full overflow-x-auto rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <table
        data-slot="table"
        className={cn('w-full caption-bottom text-sm', className)}
        {...props}
      />
    </div>
  );
}

export function TableHeader({ className, ...props }: React.ComponentProps<'thead'>) {
  return <thead data-slot="table-header" className={cn('[&_tr]:border-b', className)} {...props} />;
}

export function TableBody({ className, ...props }: React.ComponentProps<'tbody'>) {
  return (
    <tbody
      data-slot="table-body"
      className={cn('[&_tr:last-child]:border-0', className)}
      {...props}
    />
  );
}

export function TableFooter({ className, ...props }: React.ComponentProps<'tfoot'>) {
  return (
    <tfoot
      data-slot="table-footer"
      className={cn('border-t bg-muted/50 font-medium [&>tr]:last:border-b-0', className)}
      {...props}
    />
  );
}

export function TableRow({ className, ...props }: React.ComponentProps<'tr'>) {
  return (
    <tr
      data-slot="table-row"
      className={cn(
        'border-b transition-colors hover:bg-muted/50 data-[state=selected]:bg-muted',
        className,
      )}
      {...props}
    />
  );
}

/*
 * Headers and cells wrap (issue 41): a long name or title takes more lines, never more width, so
 * a table fits its box at 1280 px and no amount sits beyond it, under a pinned column; a cell's
 * word breaks where it must when the columns are tight. What must stay whole says so itself
 * (amounts, badges, buttons, codes: `whitespace-nowrap`).
 *
 * `align` and `placement` rather than classes over the cell's and caption's own: the dashboard's
 * summary is drawn before tailwind-merge arrives, when `cn` only joins classes (decision 0058).
 */
export function TableHead({
  className,
  align = 'left',
  ...props
}: React.ComponentProps<'th'> & { align?: 'left' | 'right' }) {
  return (
    <th
      data-slot="table-head"
      className={cn(
        'h-10 px-2 py-1 align-middle font-medium text-foreground [&:has([role=checkbox])]:pr-0',
        align === 'right' ? 'text-right' : 'text-left',
        className,
      )}
      {...props}
    />
  );
}

export function TableCell({ className, ...props }: React.ComponentProps<'td'>) {
  return (
    <td
      data-slot="table-cell"
      className={cn('p-2 align-middle wrap-anywhere [&:has([role=checkbox])]:pr-0', className)}
      {...props}
    />
  );
}

export function TableCaption({
  className,
  placement = 'bottom',
  ...props
}: React.ComponentProps<'caption'> & { placement?: 'top' | 'bottom' }) {
  return (
    <caption
      data-slot="table-caption"
      className={cn(
        'text-sm text-muted-foreground',
        placement === 'top' ? 'mt-0 mb-4 caption-top text-left' : 'mt-4',
        className,
      )}
      {...props}
    />
  );
}
