import { can } from '@app/contract';
import { useTableSearch } from '@/components/data-table';
import { useCompanyOptions } from '@/features/companies/api/get-company-options';
import { TransactionsPage } from '@/features/transactions/pages/transactions-page';
import { transactionsSearch, type TransactionScope } from '@/features/transactions/search';
import { useAuthStore } from '@/lib/auth-store';

/**
 * Company Transaction and Employee Transaction: the URL's filters, and companies as a filter for
 * whoever may pick one (admin, Group HR: the roles that list companies).
 */
export function TransactionsRoute({ scope }: { scope: TransactionScope }) {
  const table = useTableSearch(transactionsSearch);
  const role = useAuthStore((state) => state.user?.type);
  const canPickCompany = can(role, 'companies.view');
  const companyOptions = useCompanyOptions({ enabled: canPickCompany });
  return (
    <TransactionsPage
      key={scope}
      scope={scope}
      table={table}
      companyOptions={canPickCompany ? companyOptions : undefined}
    />
  );
}
