import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTableExportButton, Tokens, type TableSearch } from '@/components/data-table';
import { ListPage } from '@/components/layout/list-page';
import { TableCell, TableRow } from '@/components/ui/table';
import { exportSummaryReport } from '../api/export-summary-report';
import { useSummaryReport } from '../api/get-summary-report';
import { MonthFilter } from '../components/month-filter';
import { summaryColumns, TOTAL_KEYS } from '../components/summary-columns';
import type { summaryReportSearch } from '../search';

/**
 * Summary Report (everyone, within their scope): each company's five totals for a token month,
 * with the grand total of every company in scope; admin and Group HR open a company's report.
 */
export function SummaryReportPage({
  table,
  canOpenCompany,
}: {
  table: TableSearch<typeof summaryReportSearch.filters>;
  canOpenCompany: boolean;
}) {
  const { t } = useTranslation();
  const report = useSummaryReport(table.query);
  const { filters } = table;
  const month = filters.month ?? report.data?.month;
  const columns = useMemo(
    () => summaryColumns(t, { canOpenCompany, month }),
    [t, canOpenCompany, month],
  );
  const grand = report.data?.grand_total;

  return (
    <ListPage
      title={t('nav.summary_report')}
      description={t('summary_reports.description')}
      table={table}
      search={{ filterKey: 'search', placeholder: t('summary_reports.search_placeholder') }}
      filters={
        <MonthFilter
          table={table}
          label={t('summary_reports.month')}
          shownMonth={report.data?.month}
        />
      }
      toolbarActions={<DataTableExportButton onExport={() => exportSummaryReport(filters)} />}
      label={t('summary_reports.table_label')}
      columns={columns}
      query={report}
      getRowId={(row) => String(row.company_id)}
      footer={
        grand && (
          <TableRow data-testid="grand-total">
            <TableCell colSpan={3} className="font-semibold">
              {t('summary_reports.grand_total')}
            </TableCell>
            {TOTAL_KEYS.map((key) => (
              <TableCell key={key} className="text-right font-semibold">
                <Tokens value={grand[key]} />
              </TableCell>
            ))}
          </TableRow>
        )
      }
    />
  );
}
