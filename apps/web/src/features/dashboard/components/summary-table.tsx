import { useTranslation } from 'react-i18next';
import type { DashboardSummary } from '@app/contract';
// Not through the barrel, which brings the table toolbar's date filter (and Radix's popover)
// into the dashboard's first load (decision 0037).
import { StatusBadge } from '@/components/data-table/cells';
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableFooter,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { formatDayRange, withThousands } from '@/lib/format';
import { CARDS_BY_VIEW } from './total-cards';

/** GET /dashboard/summary as a table: one row per company and the grand total. */
export function SummaryTable({
  summary,
  caption,
}: {
  summary: DashboardSummary;
  /** The month the figures count, in words: the table follows the month chosen. */
  caption: string;
}) {
  const { t, i18n } = useTranslation();
  const keys = CARDS_BY_VIEW.all;
  return (
    <Table aria-label={t('dashboard.summary_title')}>
      <TableCaption placement="top" data-testid="summary-caption">
        {caption}
      </TableCaption>
      <TableHeader>
        <TableRow>
          <TableHead>{t('dashboard.company')}</TableHead>
          <TableHead>{t('table.status')}</TableHead>
          <TableHead>{t('dashboard.counted_days')}</TableHead>
          {keys.map((key) => (
            <TableHead key={key} align="right">
              {t(`dashboard.cards.${key}`)}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {summary.companies.length === 0 ? (
          <TableRow>
            <TableCell colSpan={keys.length + 3} className="h-20 text-center text-muted-foreground">
              {t('dashboard.no_companies')}
            </TableCell>
          </TableRow>
        ) : (
          summary.companies.map((company) => (
            <TableRow key={company.company_id}>
              <TableCell className="font-medium">
                {company.company_name}{' '}
                <span className="font-mono text-muted-foreground">({company.company_code})</span>
              </TableCell>
              <TableCell>
                <StatusBadge status={company.company_status} />
              </TableCell>
              <TableCell className="whitespace-nowrap">
                {formatDayRange(company.counted_from, company.counted_to, i18n.language)}
              </TableCell>
              {keys.map((key) => (
                <TableCell key={key} className="text-right tabular-nums">
                  {withThousands(company[key])}
                </TableCell>
              ))}
            </TableRow>
          ))
        )}
      </TableBody>
      <TableFooter>
        <TableRow>
          <TableHead scope="row" colSpan={3}>
            {t('dashboard.grand_total')}
          </TableHead>
          {keys.map((key) => (
            <TableCell key={key} className="text-right font-semibold tabular-nums">
              {withThousands(summary.totals[key])}
            </TableCell>
          ))}
        </TableRow>
      </TableFooter>
    </Table>
  );
}
