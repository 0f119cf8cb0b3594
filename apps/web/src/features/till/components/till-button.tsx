import type * as React from 'react';
import { cn } from '@/lib/cn';

/**
 * The till's buttons: components/ui/button's look, with the till's sizes (a thumb's keys), and
 * classes that never override one another. The till is drawn before tailwind-merge arrives (its
 * first load leaves it out, first-load.test.ts), where `cn` only joins classes, so a size given
 * over the primitive's (text-lg over text-sm) would lose or win by the stylesheet's order.
 * Without Radix's Slot either. till-app.test.tsx holds every class of the till to that.
 */
const BASE =
  'inline-flex shrink-0 items-center justify-center gap-2 whitespace-nowrap rounded-md font-medium transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:border-ring disabled:pointer-events-none disabled:opacity-50';

const VARIANTS = {
  default: 'bg-primary text-primary-foreground shadow-xs hover:bg-primary/90',
  outline: 'border bg-background shadow-xs hover:bg-accent hover:text-accent-foreground',
  secondary: 'bg-secondary text-secondary-foreground shadow-xs hover:bg-secondary/80',
  ghost: 'hover:bg-accent hover:text-accent-foreground',
};

const SIZES = {
  sm: 'h-8 px-3 text-sm',
  default: 'h-9 px-4 text-sm',
  /** Beside a tall field (the pay code). */
  tall: 'h-11 px-4 text-base',
  /** The keypad's keys and the charge. */
  big: 'h-12 px-6 text-lg',
};

interface Looks {
  variant?: keyof typeof VARIANTS;
  size?: keyof typeof SIZES;
}

const looks = ({ variant = 'default', size = 'default' }: Looks, className?: string) =>
  cn(BASE, VARIANTS[variant], SIZES[size], className);

export function TillButton({
  className,
  variant,
  size,
  type = 'button',
  ...props
}: React.ComponentProps<'button'> & Looks) {
  return (
    <button
      data-slot="button"
      type={type}
      className={looks({ variant, size }, className)}
      {...props}
    />
  );
}

/** A link drawn as a till button. */
export function TillButtonLink({
  className,
  variant,
  size,
  ...props
}: React.ComponentProps<'a'> & Looks) {
  return <a className={looks({ variant, size }, className)} {...props} />;
}

/** components/ui/label's classes on a plain label (Radix's adds nothing a till needs). */
export function TillLabel({ className, ...props }: React.ComponentProps<'label'>) {
  return (
    <label
      data-slot="label"
      className={cn(
        'flex items-center gap-2 text-sm leading-none font-medium select-none',
        className,
      )}
      {...props}
    />
  );
}
