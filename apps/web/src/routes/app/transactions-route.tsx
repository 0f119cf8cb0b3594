import { useState } from 'react';
import { can } from '@app/contract';
import { useTableSearch } from '@/components/data-table';
import { useCompanyOptions } from '@/features/companies/api/get-company-options';
import { EmployeeDeclines } from '@/features/order-history/components/employee-declines';
import { OrderDetailDialog } from '@/features/order-history/components/order-detail-dialog';
import { TransactionsPage } from '@/features/transactions/pages/transactions-page';
import { transactionsSearch, type TransactionScope } from '@/features/transactions/search';
import { useAuthStore } from '@/lib/auth-store';
import { loadTokenMonth } from './token-month';

/**
 * Company Transaction and Employee Transaction: the URL's filters, companies as a filter for
 * whoever may pick one (admin, Group HR: the roles that list companies), and a row's order in
 * full for whoever may read the order history. Narrowed to one employee (`?employee_id=`), the
 * employee's declined orders follow its ledger (DESIGN 7).
 */
export function TransactionsRoute({ scope }: { scope: TransactionScope }) {
  const table = useTableSearch(transactionsSearch);
  const role = useAuthStore((state) => state.user?.type);
  const canPickCompany = can(role, 'companies.view');
  const canReadOrders = can(role, 'orders.admin');
  const companyOptions = useCompanyOptions({ enabled: canPickCompany });
  const [orderId, setOrderId] = useState<number>();
  const declinesOf =
    scope === 'employee' && can(role, 'order_declines.view')
      ? table.filters.employee_id
      : undefined;
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
      {declinesOf !== undefined && (
        <div className="mt-8">
          <EmployeeDeclines key={declinesOf} employeeId={declinesOf} />
        </div>
      )}
      {canReadOrders && (
        <OrderDetailDialog orderId={orderId} onClose={() => setOrderId(undefined)} />
      )}
    </>
  );
}
