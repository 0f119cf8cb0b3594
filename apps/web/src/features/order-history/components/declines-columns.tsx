import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import type { OrderDecline } from '@app/contract';
import { DateTime, Tokens } from '@/components/data-table';
import { declineReason } from './decline-reason';

/** The employee as the order history names one: staff number · name, else the id. */
const employeeLabel = (decline: OrderDecline) => {
  const number = decline.staff_number ?? String(decline.employee_id);
  return decline.employee_name ? `${number} · ${decline.employee_name}` : number;
};

/**
 * A decline's row: when, whose, where, how much and why. `forEmployee` leaves out what the list is
 * already about (one employee's declines name neither the company nor the employee).
 */
export function declinesColumns(
  t: TFunction,
  lang: string | undefined,
  { forEmployee = false }: { forEmployee?: boolean } = {},
): ColumnDef<OrderDecline>[] {
  const columns: (ColumnDef<OrderDecline> | false)[] = [
    {
      accessorKey: 'declined_at',
      header: t('declines.declined_at'),
      meta: { mobile: 'title' },
      cell: ({ row }) => <DateTime value={row.original.declined_at} />,
    },
    !forEmployee && {
      accessorKey: 'company_name',
      header: t('declines.company'),
      cell: ({ row }) => row.original.company_name ?? row.original.company_id,
    },
    !forEmployee && {
      accessorKey: 'employee_id',
      header: t('declines.employee'),
      cell: ({ row }) => employeeLabel(row.original),
    },
    {
      accessorKey: 'merchant_name',
      header: t('declines.merchant'),
      cell: ({ row }) => row.original.merchant_name ?? row.original.merchant_id,
    },
    {
      accessorKey: 'subtotal',
      header: t('declines.amount'),
      meta: { className: 'text-right' },
      cell: ({ row }) => <Tokens value={row.original.subtotal} />,
    },
    {
      accessorKey: 'code',
      header: t('declines.reason'),
      meta: { className: 'min-w-56 whitespace-normal' },
      cell: ({ row }) => (
        <span data-code={row.original.code}>{declineReason(t, row.original, lang)}</span>
      ),
    },
  ];
  return columns.filter((column): column is ColumnDef<OrderDecline> => column !== false);
}
