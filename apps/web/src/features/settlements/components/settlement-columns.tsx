import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import type { SettlementPeriod } from '@app/contract';
import { Tokens } from '@/components/data-table';
import { paths } from '@/config/paths';
import { PeriodStatusBadge } from './period-status-badge';
import { periodLabel } from './period-label';

/** The statements list: a half-month of one merchant per row, its totals; a row opens it. */
export function settlementColumns(t: TFunction): ColumnDef<SettlementPeriod>[] {
  const amount = { className: 'text-right' };
  return [
    {
      id: 'period',
      header: t('settlements.period'),
      // A link, so the keyboard reaches the statement too (a click anywhere on the row goes there).
      cell: ({ row }) => {
        const p = row.original;
        const label = periodLabel(p);
        return (
          <Link
            to={paths.settlementStatement.getHref(p.merchant_id, p.period_start)}
            aria-label={`${label}, ${p.merchant_name} (${p.merchant_code})`}
            className="font-medium whitespace-nowrap underline-offset-4 hover:underline"
          >
            {label}
          </Link>
        );
      },
    },
    {
      accessorKey: 'merchant_name',
      header: t('settlements.merchant'),
      cell: ({ row }) => `${row.original.merchant_name} (${row.original.merchant_code})`,
    },
    {
      accessorKey: 'status',
      header: t('table.status'),
      cell: ({ row }) => <PeriodStatusBadge status={row.original.status} />,
    },
    { accessorKey: 'orders', header: t('settlements.orders'), meta: amount },
    {
      accessorKey: 'purchased_tokens',
      header: t('settlements.purchased'),
      meta: amount,
      cell: ({ row }) => <Tokens value={row.original.purchased_tokens} />,
    },
    {
      accessorKey: 'refunded_tokens',
      header: t('settlements.refunded'),
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
