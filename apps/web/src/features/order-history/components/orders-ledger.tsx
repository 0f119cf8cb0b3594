import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ORDER_SORTS } from '@app/contract';
import { DataTable, useLocalPaging } from '@/components/data-table';
import { useOrders } from '../api/get-orders';
import { OrderDetailDialog } from './order-detail-dialog';
import { ordersColumns } from './orders-columns';

/** One merchant's or company's orders on its page: the order history narrowed to it, sortable. */
export function OrdersLedger({
  merchantId,
  companyId,
  label,
}: {
  merchantId?: number;
  companyId?: number;
  label: string;
}) {
  const { t } = useTranslation();
  const paging = useLocalPaging();
  const [sort] = paging.sorting;
  const orders = useOrders({
    page: paging.page,
    page_size: paging.pageSize,
    ...(merchantId !== undefined ? { merchant_id: merchantId } : {}),
    ...(companyId !== undefined ? { company_id: companyId } : {}),
    ...(sort
      ? { sort: sort.id as (typeof ORDER_SORTS)[number], order: sort.desc ? 'desc' : 'asc' }
      : {}),
  });
  const [viewing, setViewing] = useState<number | undefined>(undefined);
  const columns = useMemo(() => ordersColumns(t, (order) => setViewing(order.id)), [t]);
  return (
    <>
      <DataTable
        label={label}
        columns={columns}
        query={orders}
        paging={paging}
        sortable={ORDER_SORTS}
        tableId="orders"
        getRowId={(order) => String(order.id)}
      />
      <OrderDetailDialog orderId={viewing} onClose={() => setViewing(undefined)} />
    </>
  );
}
