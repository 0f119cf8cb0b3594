import { can } from '@app/contract';
import { useTableSearch } from '@/components/data-table';
import { SummaryReportPage } from '@/features/summary-report/pages/summary-report-page';
import { summaryReportSearch } from '@/features/summary-report/search';
import { useAuthStore } from '@/lib/auth-store';

/** /summary-report: the URL's month, search and paging; admin and Group HR open companies. */
export function Component() {
  const table = useTableSearch(summaryReportSearch);
  const role = useAuthStore((state) => state.user?.type);
  return (
    <SummaryReportPage table={table} canOpenCompany={can(role, 'summary_report.company.view')} />
  );
}
