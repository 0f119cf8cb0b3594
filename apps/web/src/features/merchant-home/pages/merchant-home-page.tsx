import { useState } from 'react';
import dayjs from 'dayjs';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { can } from '@app/contract/permissions';
import { DetailError } from '@/components/layout/detail-layout';
import { PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import {
  Table,
  TableBody,
  TableCell,
  TableFooter,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { paths } from '@/config/paths';
import { useAuthStore } from '@/lib/auth-store';
import { formatDayLong, withThousands } from '@/lib/format';
import { useTakings } from '../api/get-takings';

const FIGURES = ['orders', 'tokens', 'refunded', 'net'] as const;
/** On a phone the orders and the refunds go under the terminal's name, not in columns of their own. */
const WIDE_ONLY: Record<(typeof FIGURES)[number], string> = {
  orders: 'hidden sm:table-cell',
  tokens: '',
  refunded: 'hidden sm:table-cell',
  net: '',
};

/** On a phone, the orders and the refunds under the name, in place of their columns. */
function PhoneLine({ figures }: { figures: { orders: number; refunded: number } }) {
  const { t } = useTranslation();
  return (
    <span className="block text-xs font-normal text-muted-foreground sm:hidden">
      {t('merchant_home.phone_line', {
        count: figures.orders,
        orders: withThousands(figures.orders),
        refunded: withThousands(figures.refunded),
      })}
    </span>
  );
}

/**
 * The merchant roles' home (DESIGN 8, issue 43): a day's takings terminal by terminal (today by
 * default, the days before one by one), and the way to the till. Nothing here is about a
 * company's employees: a merchant sees its own orders, never a wallet.
 */
export function MerchantHomePage() {
  const { t, i18n } = useTranslation();
  const role = useAuthStore((state) => state.user?.type);
  // Undefined: today, as the server's programme time zone has it.
  const [date, setDate] = useState<string | undefined>(undefined);
  const [today, setToday] = useState<string | undefined>(undefined);
  const takings = useTakings(date);
  const data = takings.data;
  if (date === undefined && data && today !== data.date) setToday(data.date);
  const shownDate = date ?? today;

  const move = (days: number) => {
    if (!shownDate) return;
    const next = dayjs(shownDate).add(days, 'day').format('YYYY-MM-DD');
    setDate(today !== undefined && next >= today ? undefined : next);
  };

  return (
    <>
      <PageHeader
        title={t('merchant_home.title')}
        description={t('merchant_home.description')}
        actions={
          <div className="flex flex-wrap gap-2">
            {can(role, 'till.view') && (
              <Button asChild>
                <Link to={paths.till.getHref()}>{t('merchant_home.open_till')}</Link>
              </Button>
            )}
            {can(role, 'settlements.view') && (
              <Button asChild variant="outline">
                <Link to={paths.settlements.getHref()}>{t('merchant_home.settlements')}</Link>
              </Button>
            )}
          </div>
        }
      />
      <Card>
        <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3">
          <CardTitle>
            <h2 className="text-base font-semibold" data-testid="takings-day">
              {shownDate
                ? date === undefined
                  ? t('merchant_home.today', { day: formatDayLong(shownDate, i18n.language) })
                  : formatDayLong(shownDate, i18n.language)
                : t('merchant_home.today_plain')}
            </h2>
          </CardTitle>
          <div className="flex gap-2">
            <Button
              variant="outline"
              size="sm"
              onClick={() => move(-1)}
              disabled={!shownDate}
              aria-label={t('merchant_home.previous_day')}
            >
              <ChevronLeft aria-hidden />
              {t('merchant_home.previous_day_short')}
            </Button>
            <Button
              variant="outline"
              size="sm"
              onClick={() => move(1)}
              disabled={date === undefined}
              aria-label={t('merchant_home.next_day')}
            >
              {t('merchant_home.next_day_short')}
              <ChevronRight aria-hidden />
            </Button>
          </div>
        </CardHeader>
        <CardContent>
          {takings.isError ? (
            <DetailError
              error={takings.error}
              onRetry={() => void takings.refetch()}
              title={t('merchant_home.load_failed')}
            />
          ) : !data ? (
            <div role="status" aria-label={t('merchant_home.loading')} className="grid gap-2">
              <Skeleton className="h-8 w-full" />
              <Skeleton className="h-8 w-full" />
              <Skeleton className="h-8 w-full" />
            </div>
          ) : data.terminals.length === 0 ? (
            <p role="status" className="rounded-md border p-8 text-center text-muted-foreground">
              {t('merchant_home.no_terminals')}
            </p>
          ) : (
            <div className="grid gap-3">
              {data.totals.orders === 0 && (
                <p role="status" className="text-sm text-muted-foreground">
                  {t('merchant_home.no_orders')}
                </p>
              )}
              <Table aria-label={t('merchant_home.table_label')}>
                <TableHeader>
                  <TableRow>
                    <TableHead>{t('merchant_home.terminal')}</TableHead>
                    {FIGURES.map((key) => (
                      <TableHead key={key} className={`text-right ${WIDE_ONLY[key]}`}>
                        {t(`merchant_home.${key}`)}
                      </TableHead>
                    ))}
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {data.terminals.map((row) => (
                    <TableRow key={row.terminal_id} data-terminal={row.code}>
                      <TableCell className="whitespace-normal">
                        <span className="font-medium">{row.name}</span>{' '}
                        <span className="font-mono text-xs text-muted-foreground">
                          ({row.code})
                        </span>
                        <PhoneLine figures={row} />
                      </TableCell>
                      {FIGURES.map((key) => (
                        <TableCell
                          key={key}
                          className={`text-right tabular-nums ${WIDE_ONLY[key]}`}
                        >
                          {withThousands(row[key])}
                        </TableCell>
                      ))}
                    </TableRow>
                  ))}
                </TableBody>
                <TableFooter>
                  <TableRow data-terminal="total">
                    <TableCell className="font-medium whitespace-normal">
                      {t('merchant_home.total')}
                      <PhoneLine figures={data.totals} />
                    </TableCell>
                    {FIGURES.map((key) => (
                      <TableCell
                        key={key}
                        className={`text-right font-medium tabular-nums ${WIDE_ONLY[key]}`}
                      >
                        {withThousands(data.totals[key])}
                      </TableCell>
                    ))}
                  </TableRow>
                </TableFooter>
              </Table>
              <p className="text-xs text-muted-foreground">{t('merchant_home.note')}</p>
            </div>
          )}
        </CardContent>
      </Card>
    </>
  );
}
