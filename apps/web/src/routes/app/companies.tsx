import { useTableSearch } from '@/components/data-table';
import { CompaniesPage } from '@/features/companies/pages/companies-page';
import { companiesSearch } from '@/features/companies/search';

export function Component() {
  const table = useTableSearch(companiesSearch);
  return <CompaniesPage table={table} />;
}
