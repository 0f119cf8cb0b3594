import { useTranslation } from 'react-i18next';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Button } from '@/components/ui/button';
import { errorMessageLines } from '@/lib/error-display';
import { formatDate, formatDateTime } from '@/lib/format';
import { useCurrentPeriod } from '../api/get-current-period';

/** The current system period: its month, when it started and ends, and the next reset. */
export function CurrentPeriodCard() {
  const { t } = useTranslation();
  const period = useCurrentPeriod();
  const rows: [string, string][] = period.data
    ? [
        [t('reset_period.period'), period.data.period],
        [t('reset_period.starts_at'), formatDateTime(period.data.starts_at)],
        [t('reset_period.ends_at'), formatDateTime(period.data.ends_at)],
        [t('reset_period.next_reset_date'), formatDate(period.data.next_reset_date)],
      ]
    : [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('reset_period.current_title')}</CardTitle>
        <CardDescription>{t('reset_period.current_description')}</CardDescription>
      </CardHeader>
      <CardContent>
        {period.isPending && (
          <div className="grid gap-3" data-testid="current-period-loading">
            {Array.from({ length: 4 }, (_, index) => (
              <Skeleton key={index} className="h-5 w-full" />
            ))}
          </div>
        )}
        {period.isError && (
          <div role="alert" className="grid gap-2 text-sm">
            <p>{errorMessageLines(period.error).join('\n')}</p>
            <Button
              variant="outline"
              size="sm"
              className="w-fit"
              onClick={() => void period.refetch()}
            >
              {t('table.retry')}
            </Button>
          </div>
        )}
        {period.data && (
          <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-3 text-sm">
            {rows.map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="text-muted-foreground">{label}</dt>
                <dd className="font-medium tabular-nums">{value}</dd>
              </div>
            ))}
          </dl>
        )}
      </CardContent>
    </Card>
  );
}
