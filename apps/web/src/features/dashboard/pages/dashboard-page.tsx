import { memo, useDeferredValue, useId, type ReactNode } from 'react';
import { AlertCircle, RotateCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { UseQueryResult } from '@tanstack/react-query';
import type { Option } from '@/components/data-table';
// Not through the barrel: it would bring the date field, whose date parsing extends dayjs at
// load, and with it Radix's popover, into the dashboard's first load (decision 0037).
import { MonthPicker } from '@/components/date-picker/month-picker';
import { PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { useAfterFirstPaint } from '@/hooks/use-after-first-paint';
import { errorMessageLines } from '@/lib/error-display';
import { formatDayWords, formatMonthWords } from '@/lib/format';
import { useDashboard } from '../api/get-dashboard';
import { useDashboardSummary } from '../api/get-dashboard-summary';
import { DailyChart, isQuiet } from '../components/daily-chart';
import { SummaryTable } from '../components/summary-table';
import { TotalCards, TotalCardsSkeleton } from '../components/total-cards';
import type { DashboardSearch } from '../search';

// Drawn again only when their figures change, not each time another query (the company list,
// the session) answers (decision 0037).
/**
 * The sentence over the figures, by view: the days counted and the month they count for (decision
 * 0088). A merchant's view, across companies, is the calendar month.
 */
const WINDOW_SENTENCES = {
  all: 'dashboard.window_counted_all',
  company: 'dashboard.window_counted',
  employee: 'dashboard.window_counted',
  merchant: 'dashboard.window_description',
} as const;

/** Whether a window (YYYY-MM-DD, both included) is one whole calendar month. */
function isCalendarMonth(start: string, end: string): boolean {
  const [year, month] = start.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return start.endsWith('-01') && end === `${start.slice(0, 8)}${String(last).padStart(2, '0')}`;
}

const Cards = memo(TotalCards);
const Chart = memo(DailyChart);
const Summary = memo(SummaryTable);

/** An error block by the display rule, with a retry. */
function LoadError({ query }: { query: Pick<UseQueryResult, 'error' | 'refetch'> }) {
  const { t } = useTranslation();
  return (
    <div
      role="alert"
      className="flex flex-col items-center gap-3 rounded-md border p-6 text-center"
    >
      <AlertCircle className="size-6 text-destructive" aria-hidden />
      <p className="font-medium">{t('dashboard.load_failed')}</p>
      <p className="text-sm whitespace-pre-line text-muted-foreground">
        {errorMessageLines(query.error).join('\n')}
      </p>
      <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
        <RotateCw aria-hidden />
        {t('table.retry')}
      </Button>
    </div>
  );
}

/** The chart's place while it waits for the first paint: its plot and its legend's line. */
function ChartSkeleton() {
  return (
    <div className="flex flex-col gap-3" data-testid="chart-pending">
      <Skeleton className="h-56 w-full" />
      <Skeleton className="h-5 w-64 max-w-full" />
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-base font-semibold">{title}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

/**
 * Dashboard (/dashboard, every role): the totals of a token month for the caller's view, its
 * daily flows, and for admin and Group HR the company filter and the summary across companies.
 */
export function DashboardPage({
  search,
  companyOptions,
  canFilterCompanies,
}: {
  search: DashboardSearch;
  /** Admin and Group HR only: the companies to narrow the dashboard to. */
  companyOptions: Option[];
  canFilterCompanies: boolean;
}) {
  const { t, i18n } = useTranslation();
  const monthId = useId();
  const companyId = useId();
  const { query } = search;
  const dashboard = useDashboard(query);
  const showSummary = canFilterCompanies && query.company_id === undefined;
  const summary = useDashboardSummary(query.month, { enabled: showSummary });
  const shownMonth = query.month ?? dashboard.data?.month ?? '';
  // The figures draw in a transition, in slices, rather than in the one long task in which a
  // query's answer re-renders (its store update is synchronous): on a phone that task blocked
  // the main thread for some 200 ms (decision 0037).
  const figures = useDeferredValue(dashboard.data);
  const summaryFigures = useDeferredValue(summary.data);
  // The chart (below the totals, off a phone's first screen) draws after the page's first paint.
  const isPainted = useAfterFirstPaint();

  return (
    <>
      <PageHeader
        title={t('nav.dashboard')}
        description={t('dashboard.description')}
        actions={
          <div className="flex flex-wrap items-end gap-3">
            <div className="grid gap-1.5">
              <Label htmlFor={monthId}>{t('dashboard.month')}</Label>
              <MonthPicker
                id={monthId}
                label={t('dashboard.month')}
                value={query.month}
                shownMonth={shownMonth}
                onChange={search.setMonth}
              />
            </div>
            {canFilterCompanies && (
              <div className="grid gap-1.5">
                <Label htmlFor={companyId}>{t('dashboard.company')}</Label>
                <select
                  id={companyId}
                  className="h-9 w-56 rounded-md border border-input bg-transparent px-3 text-sm shadow-xs focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
                  value={query.company_id === undefined ? '' : String(query.company_id)}
                  onChange={(event) =>
                    search.setCompanyId(event.target.value ? Number(event.target.value) : undefined)
                  }
                >
                  <option value="">{t('dashboard.all_companies')}</option>
                  {companyOptions.map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </select>
              </div>
            )}
          </div>
        }
      />
      <div className="flex flex-col gap-6">
        {dashboard.isError ? (
          <LoadError query={dashboard} />
        ) : !figures ? (
          <>
            <TotalCardsSkeleton />
            <Skeleton className="h-56 w-full" />
          </>
        ) : (
          <>
            <p className="text-sm text-muted-foreground" data-testid="dashboard-window">
              {t(WINDOW_SENTENCES[figures.view], {
                range: t('dashboard.window', {
                  start: formatDayWords(figures.window_start, i18n.language),
                  end: formatDayWords(figures.window_end, i18n.language),
                }),
                month: formatMonthWords(figures.month, i18n.language),
              })}
            </p>
            {isQuiet(figures.daily) && Object.values(figures.totals).every((value) => !value) ? (
              // Nothing moved and nothing is held: words, not five zeros and a blank chart.
              <div
                role="status"
                className="rounded-md border p-10 text-center text-muted-foreground"
                data-testid="dashboard-empty"
              >
                {t('dashboard.empty_month', {
                  month: formatMonthWords(figures.month, i18n.language),
                })}
              </div>
            ) : (
              <>
                <Cards view={figures.view} totals={figures.totals} />
                <Section title={t('dashboard.daily_title')}>
                  {isPainted ? (
                    <Chart
                      daily={figures.daily}
                      emptyText={t('dashboard.empty_month', {
                        month: formatMonthWords(figures.month, i18n.language),
                      })}
                      daysAxisLabel={
                        isCalendarMonth(figures.window_start, figures.window_end)
                          ? t('dashboard.axis_days', {
                              month: formatMonthWords(figures.month, i18n.language),
                            })
                          : t('dashboard.axis_days_range', {
                              range: t('dashboard.window', {
                                start: formatDayWords(figures.window_start, i18n.language),
                                end: formatDayWords(figures.window_end, i18n.language),
                              }),
                            })
                      }
                    />
                  ) : (
                    <ChartSkeleton />
                  )}
                </Section>
              </>
            )}
          </>
        )}
        {showSummary && (
          <Section title={t('dashboard.summary_title')}>
            {summary.isError ? (
              <LoadError query={summary} />
            ) : !summaryFigures ? (
              <div role="status" aria-label={t('dashboard.loading')} className="grid gap-2">
                <Skeleton className="h-8 w-full" />
                <Skeleton className="h-8 w-full" />
                <Skeleton className="h-8 w-full" />
              </div>
            ) : (
              <Summary
                summary={summaryFigures}
                caption={t('dashboard.summary_caption', {
                  month: formatMonthWords(summaryFigures.month, i18n.language),
                })}
              />
            )}
          </Section>
        )}
      </div>
    </>
  );
}
