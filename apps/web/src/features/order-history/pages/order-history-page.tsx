import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ORDER_STATUSES, REFUND_STATES } from '@app/contract';
import {
  DataTableDateRangeFilter,
  DataTableExportButton,
  DataTableFacetedFilter,
  type Option,
  type TableSearchOf,
} from '@/components/data-table';
import type { DayRange } from '@/components/date-picker';
import { ListPage } from '@/components/layout/list-page';
import { exportOrders } from '../api/export-orders';
import { useOrders } from '../api/get-orders';
import { OrderDetailDialog } from '../components/order-detail-dialog';
import { ordersColumns } from '../components/orders-columns';
import type { orderHistorySearch } from '../search';

/**
 * Order History (admin, Group HR): orders by status, company, merchant and order days, each with
 * its items and refunds; the filtered list exports as CSV. The options come from the route;
 * without merchant options (Group HR may not list merchants) that filter is left out.
 */
export function OrderHistoryPage({
  table,
  tabs,
  companyOptions,
  merchantOptions,
  tokenMonth,
}: {
  table: TableSearchOf<typeof orderHistorySearch>;
  /** The Orders / Declined switch, above the list. */
  tabs?: ReactNode;
  companyOptions: Option[];
  merchantOptions?: Option[];
  /** The scope's current token month, for the date filter's preset. */
  tokenMonth?: (companyId: number | undefined) => Promise<DayRange>;
}) {
  const { t } = useTranslation();
  const orders = useOrders(table.query);
  const [viewing, setViewing] = useState<number | undefined>(undefined);
  const columns = useMemo(() => ordersColumns(t, (order) => setViewing(order.id)), [t]);
  const { filters } = table;

  return (
    <ListPage
      title={t('nav.order_history')}
      description={t('order_history.description')}
      beforeTable={tabs}
      table={table}
      search={{ filterKey: 'order_no', placeholder: t('order_history.search_placeholder') }}
      statuses={ORDER_STATUSES}
      filters={
        <>
          <DataTableFacetedFilter
            table={table}
            filterKey="refund_state"
            title={t('order_history.refund_state')}
            options={REFUND_STATES.map((state) => ({
              value: state,
              label: t(`order_states.${state}`),
            }))}
          />
          <DataTableFacetedFilter
            table={table}
            filterKey="company_id"
            title={t('order_history.company')}
            options={companyOptions}
          />
          {merchantOptions && (
            <DataTableFacetedFilter
              table={table}
              filterKey="merchant_id"
              title={t('order_history.merchant')}
              options={merchantOptions}
            />
          )}
          <DataTableDateRangeFilter
            table={table}
            fromKey="date_from"
            toKey="date_to"
            label={t('order_history.date')}
            tokenMonth={tokenMonth && (() => tokenMonth(filters.company_id))}
          />
        </>
      }
      toolbarActions={<DataTableExportButton onExport={() => exportOrders(filters)} />}
      label={t('order_history.table_label')}
      columns={columns}
      query={orders}
      tableId="orders"
      getRowId={(order) => String(order.id)}
    >
      <OrderDetailDialog orderId={viewing} onClose={() => setViewing(undefined)} />
    </ListPage>
  );
}
