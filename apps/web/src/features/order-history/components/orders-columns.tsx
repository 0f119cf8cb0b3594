import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import { Eye } from 'lucide-react';
import type { OrderHistoryItem } from '@app/contract';
import { DateTime, Tokens } from '@/components/data-table';
import { Button } from '@/components/ui/button';
import { orderTypeLabel } from '@/components/ledger/labels';
import { RefundStateBadge } from '@/components/ledger/refund-state-badge';

export function ordersColumns(
  t: TFunction,
  onView: (order: OrderHistoryItem) => void,
): ColumnDef<OrderHistoryItem>[] {
  const amount = { className: 'text-right' };
  return [
    {
      accessorKey: 'order_no',
      header: t('order_history.order_no'),
      meta: { className: 'font-mono whitespace-nowrap' },
    },
    {
      accessorKey: 'ordered_at',
      header: t('order_history.ordered_at'),
      cell: ({ row }) => <DateTime value={row.original.ordered_at} />,
    },
    { accessorKey: 'company_name', header: t('order_history.company') },
    {
      accessorKey: 'employee_id',
      header: t('order_history.employee'),
      cell: ({ row }) =>
        row.original.employee_name
          ? `${row.original.employee_id} · ${row.original.employee_name}`
          : row.original.employee_id,
    },
    { accessorKey: 'merchant_name', header: t('order_history.merchant') },
    { accessorKey: 'terminal_code', header: t('order_history.terminal') },
    {
      accessorKey: 'order_type',
      header: t('order_history.order_type'),
      cell: ({ row }) => orderTypeLabel(t, row.original.order_type),
    },
    {
      accessorKey: 'subtotal',
      header: t('order_history.subtotal'),
      meta: amount,
      cell: ({ row }) => <Tokens value={row.original.subtotal} />,
    },
    {
      accessorKey: 'refunded_amount',
      header: t('order_history.refunded'),
      meta: amount,
      cell: ({ row }) => <Tokens value={row.original.refunded_amount} />,
    },
    {
      accessorKey: 'status',
      header: t('table.status'),
      // Pinned beside the actions (48 px wide), so both show at 1280 px however wide the rest.
      meta: { pinned: 'right', pinOffset: 48 },
      // Ordered, Partially refunded or Refunded: `status` alone calls a part-refund "ordered".
      cell: ({ row }) => <RefundStateBadge state={row.original.refund_state} />,
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">{t('table.actions')}</span>,
      meta: { className: 'w-12 text-right', title: t('table.actions'), pinned: 'right' },
      cell: ({ row }) => (
        <Button
          variant="ghost"
          size="icon"
          className="size-8"
          aria-label={t('order_history.view', { no: row.original.order_no })}
          onClick={() => onView(row.original)}
        >
          <Eye aria-hidden />
        </Button>
      ),
    },
  ];
}
