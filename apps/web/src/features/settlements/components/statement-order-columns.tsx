import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import type { SettlementOrder } from '@app/contract';
import { DateTime, Tokens } from '@/components/data-table';

/** Every order of a statement: what it cost, what came back in the period, the net. */
export function statementOrderColumns(t: TFunction): ColumnDef<SettlementOrder>[] {
  const amount = { className: 'text-right' };
  return [
    {
      accessorKey: 'order_no',
      header: t('settlements.order_no'),
      meta: { className: 'font-mono' },
    },
    {
      accessorKey: 'ordered_at',
      header: t('settlements.ordered_at'),
      cell: ({ row }) => <DateTime value={row.original.ordered_at} />,
    },
    { accessorKey: 'terminal_code', header: t('settlements.terminal') },
    { accessorKey: 'company_name', header: t('settlements.company') },
    { accessorKey: 'employee_id', header: t('settlements.staff_number') },
    {
      accessorKey: 'employee_name',
      header: t('settlements.employee_name'),
      cell: ({ row }) => row.original.employee_name ?? '—',
    },
    {
      accessorKey: 'subtotal',
      header: t('settlements.subtotal'),
      meta: amount,
      cell: ({ row }) => <Tokens value={row.original.subtotal} />,
    },
    {
      accessorKey: 'refunded_tokens',
      header: t('settlements.refunded_in_period'),
      meta: amount,
      cell: ({ row }) => <Tokens value={row.original.refunded_tokens} />,
    },
    {
      accessorKey: 'net_tokens',
      header: t('settlements.net'),
      meta: { className: 'text-right font-medium' },
      cell: ({ row }) => <Tokens value={row.original.net_tokens} />,
    },
  ];
}
