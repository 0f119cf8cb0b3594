import { lazy, Suspense } from 'react';
import { can } from '@app/contract/permissions';
import { Skeleton } from '@/components/ui/skeleton';
import { useCompanyOptions } from '@/features/companies/api/get-company-options';
import { DashboardPage } from '@/features/dashboard/pages/dashboard-page';
import { useDashboardSearch } from '@/features/dashboard/search';
import { useAuthStore } from '@/lib/auth-store';
import { withClassMerge } from '@/lib/class-merge-ready';
import { loadWithQueryClient } from '@/lib/with-query-client';

// The employee's home (decision 0033) is its own chunk: the other roles never load it or its QR code.
// Drawn once tailwind-merge is there: only the dashboard is drawn without it (decision 0058).
// Inside TanStack Query's provider, which the dashboard's first load does not have (decision 0060).
const WalletHomePage = lazy(
  withClassMerge(
    loadWithQueryClient(
      () =>
        import('@/features/self-service/pages/wallet-home-page').then((m) => ({
          default: m.WalletHomePage,
        })),
      'default',
    ),
  ),
);

// The merchant roles' home (DESIGN 8, issue 43): the day's takings by terminal, its own chunk too.
const MerchantHomePage = lazy(
  withClassMerge(
    loadWithQueryClient(
      () =>
        import('@/features/merchant-home/pages/merchant-home-page').then((m) => ({
          default: m.MerchantHomePage,
        })),
      'default',
    ),
  ),
);

/**
 * The landing route: the employee's wallet for company_employee, the day's takings for the
 * merchant roles, the dashboard for the others.
 */
export function Component() {
  const role = useAuthStore((state) => state.user?.type);
  if (can(role, 'wallet.self')) {
    return (
      <Suspense fallback={<Skeleton className="mx-auto h-40 w-full max-w-md" />}>
        <WalletHomePage />
      </Suspense>
    );
  }
  if (can(role, 'till.view')) {
    return (
      <Suspense fallback={<Skeleton className="h-64 w-full" />}>
        <MerchantHomePage />
      </Suspense>
    );
  }
  return <Dashboard canFilterCompanies={can(role, 'dashboard.summary')} />;
}

function Dashboard({ canFilterCompanies }: { canFilterCompanies: boolean }) {
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
