import { useParams } from 'react-router';
import { useTableSearch } from '@/components/data-table';
import { useCompanyDetails } from '@/features/companies/api/get-company';
import { CompanyReportPage } from '@/features/summary-report/pages/company-report-page';
import { companyReportSearch } from '@/features/summary-report/search';

/**
 * /summary-report/{companyId}: the company's name from its details (the same `company-details`
 * query the breadcrumb reads) and the report's filters from the URL.
 */
export function Component() {
  const { companyId = '' } = useParams();
  const table = useTableSearch(companyReportSearch);
  const { data: company } = useCompanyDetails(companyId, { silentError: true });
  return <CompanyReportPage companyId={companyId} companyName={company?.name} table={table} />;
}
