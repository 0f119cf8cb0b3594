import type { ReactNode } from 'react';
import { AlertCircle, ArrowLeft, RotateCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessageLines } from '@/lib/error-display';

/** The way back from a record's page to its list. */
export function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <Button asChild variant="ghost" size="sm" className="-ml-2 mb-2 w-fit">
      <Link to={to}>
        <ArrowLeft aria-hidden />
        {label}
      </Link>
    </Button>
  );
}

/** One figure of a record's wallet or settings: a label over its value. */
export interface Figure {
  id: string;
  label: string;
  value: ReactNode;
}

/** A record's figures as cards, two per row on a phone. */
export function FigureCards({ figures, label }: { figures: Figure[]; label: string }) {
  return (
    <ul aria-label={label} className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      {figures.map((figure) => (
        <li key={figure.id}>
          <Card className="h-full gap-2 py-4" data-figure={figure.id}>
            <CardHeader className="px-4">
              <CardTitle className="text-sm font-medium text-muted-foreground">
                {figure.label}
              </CardTitle>
            </CardHeader>
            <CardContent className="px-4 text-lg font-semibold break-words tabular-nums">
              {figure.value}
            </CardContent>
          </Card>
        </li>
      ))}
    </ul>
  );
}

/** A titled block of a record's page (its ledger, its orders). */
export function DetailSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-3" aria-label={title}>
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}

/** While a record loads: the shapes of its header and figures. */
export function DetailSkeleton() {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-4" role="status" aria-label={t('detail.loading')}>
      <Skeleton className="h-8 w-64" />
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {Array.from({ length: 4 }, (_, index) => (
          <Skeleton key={index} className="h-24 w-full" />
        ))}
      </div>
      <Skeleton className="h-64 w-full" />
    </div>
  );
}

/**
 * A record that could not be loaded (not found, no access, offline), with a retry; `title` names
 * what failed when it is not "this record".
 */
export function DetailError({
  error,
  onRetry,
  title,
}: {
  error: unknown;
  onRetry: () => void;
  title?: string;
}) {
  const { t } = useTranslation();
  return (
    <div
      role="alert"
      className="flex flex-col items-center gap-3 rounded-md border p-6 text-center"
    >
      <AlertCircle className="size-6 text-destructive" aria-hidden />
      <p className="font-medium">{title ?? t('detail.load_failed')}</p>
      <p className="text-sm whitespace-pre-line text-muted-foreground">
        {errorMessageLines(error).join('\n')}
      </p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        <RotateCw aria-hidden />
        {t('table.retry')}
      </Button>
    </div>
  );
}
