import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTableExportButton, type TableSearch } from '@/components/data-table';
import { ListPage } from '@/components/layout/list-page';
import { formatDayRange } from '@/lib/format';
import { exportCompanyReport } from '../api/export-company-report';
import { useCompanyReport } from '../api/get-company-report';
import { companyReportColumns } from '../components/company-report-columns';
import { MonthFilter } from '../components/month-filter';
import type { companyReportSearch } from '../search';

/**
 * /summary-report/{companyId} (admin, Group HR): the company's employees for a token month. The
 * company's name comes from the route (company details, as the breadcrumb shows it), falling back
 * to the report's own company row, then the id.
 */
export function CompanyReportPage({
  companyId,
  companyName,
  table,
}: {
  companyId: string;
  companyName?: string;
  table: TableSearch<typeof companyReportSearch.filters>;
}) {
  const { t, i18n } = useTranslation();
  const report = useCompanyReport(companyId, table.query);
  const { filters } = table;
  const columns = useMemo(() => companyReportColumns(t), [t]);
  const name = companyName ?? report.data?.company.company_name ?? companyId;

  return (
    <ListPage
      title={t('summary_report.company_title', { name })}
      description={
        report.data
          ? `${t('summary_reports.company_description')} ${t(
              'summary_reports.counted_days_sentence',
              {
                range: formatDayRange(
                  report.data.company.counted_from,
                  report.data.company.counted_to,
                  i18n.language,
                ),
              },
            )}`
          : t('summary_reports.company_description')
      }
      table={table}
      search={{
        filterKey: 'search',
        placeholder: t('summary_reports.employee_search_placeholder'),
      }}
      statuses
      filters={
        <MonthFilter
          table={table}
          label={t('summary_reports.month')}
          shownMonth={report.data?.month}
        />
      }
      toolbarActions={
        <DataTableExportButton onExport={() => exportCompanyReport(companyId, filters)} />
      }
      label={t('summary_reports.company_table_label')}
      columns={columns}
      query={report}
      getRowId={(row) => String(row.id)}
    />
  );
}
