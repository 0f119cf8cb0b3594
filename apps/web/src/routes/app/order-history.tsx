import { can } from '@app/contract';
import { useTableSearch } from '@/components/data-table';
import { useCompanyOptions } from '@/features/companies/api/get-company-options';
import { useMerchantOptions } from '@/features/merchants/api/get-merchant-options';
import { OrderHistoryPage } from '@/features/order-history/pages/order-history-page';
import { orderHistorySearch } from '@/features/order-history/search';
import { useAuthStore } from '@/lib/auth-store';
import { loadTokenMonth } from './token-month';

/**
 * /order-history: the URL's list state, with companies and (for whoever may list them, i.e. the
 * admin) merchants as filter options.
 */
export function Component() {
  const table = useTableSearch(orderHistorySearch);
  const role = useAuthStore((state) => state.user?.type);
  const canListMerchants = can(role, 'merchants.manage');
  const companyOptions = useCompanyOptions();
  const merchantOptions = useMerchantOptions({ enabled: canListMerchants });
  return (
    <OrderHistoryPage
      table={table}
      companyOptions={companyOptions}
      merchantOptions={canListMerchants ? merchantOptions : undefined}
      tokenMonth={loadTokenMonth}
    />
  );
}
