import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import { KeyRound, Pencil, Power, PowerOff, Trash2 } from 'lucide-react';
import type { Terminal } from '@app/contract';
import { DataTableRowActions, DateTime, StatusBadge } from '@/components/data-table';

export interface TerminalRowHandlers {
  merchantName: (merchantId: number) => string;
  onEdit: (terminal: Terminal) => void;
  onDelete: (terminal: Terminal) => void;
  onRotateKey: (terminal: Terminal) => void;
  onToggleStatus: (terminal: Terminal) => void;
}

export function terminalsColumns(
  t: TFunction,
  handlers: TerminalRowHandlers,
): ColumnDef<Terminal>[] {
  return [
    { accessorKey: 'code', header: t('terminals.code'), meta: { className: 'font-mono' } },
    { accessorKey: 'name', header: t('terminals.name'), meta: { className: 'font-medium' } },
    {
      accessorKey: 'merchant_id',
      header: t('terminals.merchant'),
      cell: ({ row }) => handlers.merchantName(row.original.merchant_id),
    },
    {
      accessorKey: 'api_key_prefix',
      header: t('terminals.key_prefix'),
      cell: ({ row }) => (
        <span className="font-mono text-xs text-muted-foreground">
          {row.original.api_key_prefix}…
        </span>
      ),
    },
    {
      accessorKey: 'key_rotated_at',
      header: t('terminals.key_rotated_at'),
      cell: ({ row }) => <DateTime value={row.original.key_rotated_at} />,
    },
    {
      accessorKey: 'status',
      header: t('table.status'),
      cell: ({ row }) => <StatusBadge status={row.original.status} />,
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">{t('table.actions')}</span>,
      meta: { className: 'w-12 text-right', title: t('table.actions'), pinned: 'right' },
      cell: ({ row }) => {
        const terminal = row.original;
        const isActive = terminal.status === 'active';
        return (
          <DataTableRowActions
            name={terminal.code}
            actions={[
              {
                label: t('actions.edit'),
                icon: <Pencil aria-hidden />,
                onSelect: () => handlers.onEdit(terminal),
              },
              {
                label: t('terminals.rotate'),
                icon: <KeyRound aria-hidden />,
                onSelect: () => handlers.onRotateKey(terminal),
              },
              {
                label: isActive ? t('actions.deactivate') : t('actions.activate'),
                icon: isActive ? <PowerOff aria-hidden /> : <Power aria-hidden />,
                destructive: isActive,
                onSelect: () => handlers.onToggleStatus(terminal),
              },
              {
                label: t('actions.delete'),
                icon: <Trash2 aria-hidden />,
                destructive: true,
                onSelect: () => handlers.onDelete(terminal),
              },
            ]}
          />
        );
      },
    },
  ];
}
