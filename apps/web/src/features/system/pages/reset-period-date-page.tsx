import { useMemo } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import type { SystemPeriod } from '@app/contract';
import { DataTable, DateTime, type TableSearch } from '@/components/data-table';
import { PageHeader } from '@/components/layout/page-header';
import { Badge } from '@/components/ui/badge';
import { useSystemPeriods } from '../api/get-system-periods';
import { CurrentPeriodCard } from '../components/current-period-card';
import { SystemResetDateCard } from '../components/reset-date-form';
import type { systemPeriodsSearch } from '../search';

/** Reset Period Date (admin): the current period, the next reset date and the past periods. */
export function ResetPeriodDatePage({
  table,
}: {
  table: TableSearch<typeof systemPeriodsSearch.filters>;
}) {
  const { t } = useTranslation();
  const periods = useSystemPeriods(table.query);
  const columns = useMemo<ColumnDef<SystemPeriod>[]>(
    () => [
      {
        accessorKey: 'period',
        header: t('reset_period.period'),
        cell: ({ row }) => (
          <span className="flex items-center gap-2 font-medium tabular-nums">
            {row.original.period}
            {row.original.is_current && (
              <Badge variant="secondary">{t('reset_period.current_badge')}</Badge>
            )}
          </span>
        ),
      },
      {
        accessorKey: 'starts_at',
        header: t('reset_period.starts_at'),
        cell: ({ row }) => <DateTime value={row.original.starts_at} />,
      },
      {
        accessorKey: 'ends_at',
        header: t('reset_period.ends_at'),
        cell: ({ row }) => <DateTime value={row.original.ends_at} />,
      },
    ],
    [t],
  );
  return (
    <>
      <PageHeader title={t('nav.reset_period_date')} description={t('reset_period.description')} />
      <div className="grid gap-6">
        <div className="grid gap-6 lg:grid-cols-2">
          <CurrentPeriodCard />
          <SystemResetDateCard />
        </div>
        <section aria-labelledby="system-periods-heading" className="grid gap-3">
          <h2 id="system-periods-heading" className="text-lg font-semibold">
            {t('reset_period.periods_title')}
          </h2>
          <DataTable
            label={t('reset_period.periods_title')}
            columns={columns}
            query={periods}
            paging={table}
            getRowId={(period) => period.period}
          />
        </section>
      </div>
    </>
  );
}
