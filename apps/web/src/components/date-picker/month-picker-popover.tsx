import type { ReactElement, ReactNode } from 'react';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';

/**
 * The month picker's popover (Radix's popover: popper, floating-ui, focus and scroll locks),
 * fetched when the picker is first opened rather than with the dashboard (decision 0037).
 */
export function MonthPickerPopover({
  open,
  onOpenChange,
  trigger,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger: ReactElement;
  children: ReactNode;
}) {
  return (
    <Popover open={open} onOpenChange={onOpenChange}>
      <PopoverTrigger asChild>{trigger}</PopoverTrigger>
      <PopoverContent className="w-72 p-3" align="start">
        {children}
      </PopoverContent>
    </Popover>
  );
}
