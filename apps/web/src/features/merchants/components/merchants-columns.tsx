import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import { MonitorSmartphone, Pencil, Power, PowerOff, Trash2, Users } from 'lucide-react';
import { Link } from 'react-router';
import type { Merchant } from '@app/contract';
import { DataTableRowActions, DateTime, StatusBadge } from '@/components/data-table';
import { paths } from '@/config/paths';
import { merchantCategoryLabel } from './merchant-category';

export interface MerchantRowHandlers {
  onEdit: (merchant: Merchant) => void;
  onDelete: (merchant: Merchant) => void;
  onToggleStatus: (merchant: Merchant) => void;
  onOpenStaff: (merchant: Merchant) => void;
  onOpenTerminals: (merchant: Merchant) => void;
}

export function merchantsColumns(
  t: TFunction,
  handlers: MerchantRowHandlers,
): ColumnDef<Merchant>[] {
  return [
    { accessorKey: 'code', header: t('merchants.code'), meta: { className: 'font-mono' } },
    {
      accessorKey: 'name',
      header: t('merchants.name'),
      meta: { className: 'font-medium', mobile: 'title' },
      // A real link, so the row's page opens from the keyboard too (the row opens on a click).
      cell: ({ row }) => (
        <Link
          to={paths.merchantDetail.getHref(row.original.id)}
          className="font-medium underline-offset-4 hover:underline focus-visible:underline"
        >
          {row.original.name}
        </Link>
      ),
    },
    {
      accessorKey: 'category',
      header: t('merchant_category.label'),
      cell: ({ row }) => merchantCategoryLabel(t, row.original.category),
    },
    {
      accessorKey: 'status',
      header: t('table.status'),
      cell: ({ row }) => <StatusBadge status={row.original.status} />,
    },
    {
      accessorKey: 'created_at',
      header: t('table.created_at'),
      cell: ({ row }) => <DateTime value={row.original.created_at} />,
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">{t('table.actions')}</span>,
      meta: { className: 'w-12 text-right', title: t('table.actions'), pinned: 'right' },
      cell: ({ row }) => {
        const merchant = row.original;
        const isActive = merchant.status === 'active';
        return (
          <DataTableRowActions
            name={merchant.name}
            actions={[
              {
                label: t('actions.edit'),
                icon: <Pencil aria-hidden />,
                onSelect: () => handlers.onEdit(merchant),
              },
              {
                label: t('merchants.staff'),
                icon: <Users aria-hidden />,
                onSelect: () => handlers.onOpenStaff(merchant),
              },
              {
                label: t('merchants.terminals'),
                icon: <MonitorSmartphone aria-hidden />,
                onSelect: () => handlers.onOpenTerminals(merchant),
              },
              {
                label: isActive ? t('actions.deactivate') : t('actions.activate'),
                icon: isActive ? <PowerOff aria-hidden /> : <Power aria-hidden />,
                destructive: isActive,
                onSelect: () => handlers.onToggleStatus(merchant),
              },
              {
                label: t('actions.delete'),
                icon: <Trash2 aria-hidden />,
                destructive: true,
                onSelect: () => handlers.onDelete(merchant),
              },
            ]}
          />
        );
      },
    },
  ];
}
