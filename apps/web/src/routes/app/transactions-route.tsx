import { useState } from 'react';
import { can } from '@app/contract';
import { useTableSearch } from '@/components/data-table';
import { useCompanyOptions } from '@/features/companies/api/get-company-options';
import { OrderDetailDialog } from '@/features/order-history/components/order-detail-dialog';
import { TransactionsPage } from '@/features/transactions/pages/transactions-page';
import { transactionsSearch, type TransactionScope } from '@/features/transactions/search';
import { useAuthStore } from '@/lib/auth-store';
import { loadTokenMonth } from './token-month';

/**
 * Company Transaction and Employee Transaction: the URL's filters, companies as a filter for
 * whoever may pick one (admin, Group HR: the roles that list companies), and a row's order in
 * full for whoever may read the order history.
 */
export function TransactionsRoute({ scope }: { scope: TransactionScope }) {
  const table = useTableSearch(transactionsSearch);
  const role = useAuthStore((state) => state.user?.type);
  const canPickCompany = can(role, 'companies.view');
  const canReadOrders = can(role, 'orders.admin');
  const companyOptions = useCompanyOptions({ enabled: canPickCompany });
  const [orderId, setOrderId] = useState<number>();
  return (
    <>
      <TransactionsPage
        key={scope}
        scope={scope}
        table={table}
        companyOptions={canPickCompany ? companyOptions : undefined}
        onOpenOrder={canReadOrders ? setOrderId : undefined}
        tokenMonth={loadTokenMonth}
      />
      {canReadOrders && (
        <OrderDetailDialog orderId={orderId} onClose={() => setOrderId(undefined)} />
      )}
    </>
  );
}
