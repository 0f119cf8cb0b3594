import { useTranslation } from 'react-i18next';
import type { DashboardView, DashboardViewTotals } from '@app/contract';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { withThousands } from '@/lib/format';

export type TotalKey = Exclude<keyof DashboardViewTotals, 'purchased' | 'refunded'>;

const ALL_CARDS: TotalKey[] = [
  'tokens_from_admin',
  'distributed_to_employees',
  'consumed_by_employees',
  'company_unused',
  'employee_unused',
];

/** Spec 3's five totals; a view shows the ones that apply to it (the others are always 0). */
export const CARDS_BY_VIEW: Record<DashboardView, TotalKey[]> = {
  all: ALL_CARDS,
  company: ALL_CARDS,
  employee: ['distributed_to_employees', 'consumed_by_employees', 'employee_unused'],
  merchant: ['consumed_by_employees'],
};

export function TotalCards({ view, totals }: { view: DashboardView; totals: DashboardViewTotals }) {
  const { t } = useTranslation();
  return (
    <ul
      className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-5"
      aria-label={t('dashboard.totals')}
    >
      {CARDS_BY_VIEW[view].map((key) => (
        <li key={key}>
          <Card size="compact" className="h-full" data-total={key}>
            <CardHeader size="compact">
              <CardTitle size="compact">{t(`dashboard.cards.${key}`)}</CardTitle>
            </CardHeader>
            <CardContent size="compact">
              <p className="text-xl font-semibold tabular-nums sm:text-2xl">
                {withThousands(totals[key] ?? 0)}
              </p>
            </CardContent>
          </Card>
        </li>
      ))}
    </ul>
  );
}

export function TotalCardsSkeleton() {
  const { t } = useTranslation();
  return (
    <div
      className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-5"
      role="status"
      aria-label={t('dashboard.loading')}
    >
      {ALL_CARDS.map((key) => (
        <Skeleton key={key} className="h-28 w-full" />
      ))}
    </div>
  );
}
