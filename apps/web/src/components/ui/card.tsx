import type * as React from 'react';
import { cn } from '@/lib/cn';

/**
 * `compact`: the dashboard's figure cards, tighter on a phone. A size rather than classes over the
 * card's own, because the dashboard is drawn before tailwind-merge arrives and `cn` only joins
 * classes until then (decision 0058).
 */
type CardSize = 'default' | 'compact';
type Sized<T> = T & { size?: CardSize };

const cardSizes = { default: 'gap-6 py-6', compact: 'gap-3 py-4 sm:gap-6 sm:py-6' };
const cardPaddings = { default: 'px-6', compact: 'px-4 sm:px-6' };
const cardTitles = {
  default: 'text-lg leading-none font-semibold',
  compact: 'text-sm font-medium text-muted-foreground',
};

export function Card({
  className,
  size = 'default',
  ...props
}: Sized<React.ComponentProps<'div'>>) {
  return (
    <div
      data-slot="card"
      className={cn(
        'flex flex-col rounded-xl border bg-card text-card-foreground shadow-sm',
        cardSizes[size],
        className,
      )}
      {...props}
    />
  );
}

export function CardHeader({
  className,
  size = 'default',
  ...props
}: Sized<React.ComponentProps<'div'>>) {
  return (
    <div
      data-slot="card-header"
      className={cn('grid gap-1.5', cardPaddings[size], className)}
      {...props}
    />
  );
}

export function CardTitle({
  className,
  size = 'default',
  ...props
}: Sized<React.ComponentProps<'div'>>) {
  return <div data-slot="card-title" className={cn(cardTitles[size], className)} {...props} />;
}

export function CardDescription({ className, ...props }: React.ComponentProps<'p'>) {
  return (
    <p
      data-slot="card-description"
      className={cn('text-sm text-muted-foreground', className)}
      {...props}
    />
  );
}

export function CardContent({
  className,
  size = 'default',
  ...props
}: Sized<React.ComponentProps<'div'>>) {
  return <div data-slot="card-content" className={cn(cardPaddings[size], className)} {...props} />;
}

export function CardFooter({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div data-slot="card-footer" className={cn('flex items-center px-6', className)} {...props} />
  );
}
