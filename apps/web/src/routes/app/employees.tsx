import { useTableSearch } from '@/components/data-table';
import { useCompanyDetails } from '@/features/companies/api/get-company';
import { EmployeesPage } from '@/features/employees/pages/employees-page';
import { employeesSearch } from '@/features/employees/search';
import { useAuthStore } from '@/lib/auth-store';

export function Component() {
  const table = useTableSearch(employeesSearch);
  const companyId = useAuthStore((state) => state.user?.company_id);
  // The balance the reward-token dialog checks its total against.
  const company = useCompanyDetails(companyId ? String(companyId) : undefined);
  return <EmployeesPage table={table} companyBalance={company.data?.token_balance} />;
}
