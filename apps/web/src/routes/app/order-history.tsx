import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { can } from '@app/contract';
import { useTableSearch, type Option } from '@/components/data-table';
import { useCompanyOptions } from '@/features/companies/api/get-company-options';
import { useMerchantOptions } from '@/features/merchants/api/get-merchant-options';
import { OrderHistoryTabs } from '@/features/order-history/components/order-history-tabs';
import { DeclinesPage } from '@/features/order-history/pages/declines-page';
import { OrderHistoryPage } from '@/features/order-history/pages/order-history-page';
import { declinesSearch, orderHistorySearch } from '@/features/order-history/search';
import { useAuthStore } from '@/lib/auth-store';
import { loadTokenMonth } from './token-month';

/**
 * /order-history: the URL's list state, with companies and (for whoever may list them, i.e. the
 * admin) merchants as filter options; `?view=declined` lists the declined orders instead, for
 * whoever may read them (DESIGN 7).
 */
export function Component() {
  const [search] = useSearchParams();
  const role = useAuthStore((state) => state.user?.type);
  const canListMerchants = can(role, 'merchants.manage');
  const canReadDeclines = can(role, 'order_declines.view');
  const companyOptions = useCompanyOptions();
  const merchantOptions = useMerchantOptions({ enabled: canListMerchants });
  const options = {
    companyOptions,
    merchantOptions: canListMerchants ? merchantOptions : undefined,
    tokenMonth: loadTokenMonth,
  };
  if (canReadDeclines && search.get('view') === 'declined') {
    return <DeclinesView {...options} />;
  }
  return (
    <OrdersView
      {...options}
      tabs={canReadDeclines ? <OrderHistoryTabs view="orders" /> : undefined}
    />
  );
}

interface ViewProps {
  companyOptions: Option[];
  merchantOptions: Option[] | undefined;
  tokenMonth: typeof loadTokenMonth;
}

function OrdersView(props: ViewProps & { tabs: ReactNode }) {
  const table = useTableSearch(orderHistorySearch);
  return <OrderHistoryPage table={table} {...props} />;
}

function DeclinesView(props: ViewProps) {
  const table = useTableSearch(declinesSearch);
  return <DeclinesPage table={table} tabs={<OrderHistoryTabs view="declined" />} {...props} />;
}
