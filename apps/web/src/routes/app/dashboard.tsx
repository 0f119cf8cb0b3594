import { can } from '@app/contract/permissions';
import { useCompanyOptions } from '@/features/companies/api/get-company-options';
import { DashboardPage } from '@/features/dashboard/pages/dashboard-page';
import { useDashboardSearch } from '@/features/dashboard/search';
import { useAuthStore } from '@/lib/auth-store';

export function Component() {
  const role = useAuthStore((state) => state.user?.type);
  const canFilterCompanies = can(role, 'dashboard.summary');
  const search = useDashboardSearch();
  const companyOptions = useCompanyOptions({ enabled: canFilterCompanies });
  return (
    <DashboardPage
      search={search}
      companyOptions={companyOptions}
      canFilterCompanies={canFilterCompanies}
    />
  );
}
