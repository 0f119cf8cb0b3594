import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import { KeyRound, ListChecks, Power, PowerOff, Trash2 } from 'lucide-react';
import type { Webhook } from '@app/contract';
import { DataTableRowActions, DateTime } from '@/components/data-table';
import { Badge } from '@/components/ui/badge';

export interface WebhookRowHandlers {
  onDeliveries: (endpoint: Webhook) => void;
  onRotateSecret: (endpoint: Webhook) => void;
  onToggleStatus: (endpoint: Webhook) => void;
  onDelete: (endpoint: Webhook) => void;
}

export function webhooksColumns(t: TFunction, handlers: WebhookRowHandlers): ColumnDef<Webhook>[] {
  return [
    {
      accessorKey: 'url',
      header: t('webhooks.url'),
      cell: ({ row }) => (
        <div className="grid max-w-md gap-0.5">
          <span className="font-mono text-xs break-all">{row.original.url}</span>
          {row.original.description && (
            <span className="text-muted-foreground">{row.original.description}</span>
          )}
        </div>
      ),
    },
    {
      accessorKey: 'events',
      header: t('webhooks.events'),
      cell: ({ row }) => (
        <div className="flex max-w-xs flex-wrap gap-1">
          {row.original.events.map((event) => (
            <Badge key={event} variant="outline" className="font-mono">
              {event}
            </Badge>
          ))}
        </div>
      ),
    },
    {
      accessorKey: 'status',
      header: t('table.status'),
      cell: ({ row }) => (
        <Badge
          variant={row.original.status === 'active' ? 'success' : 'destructive'}
          data-status={row.original.status}
          title={row.original.disabled_reason === 'gone' ? t('webhooks.disabled_gone') : undefined}
        >
          {row.original.disabled_reason === 'gone'
            ? t('webhooks.statuses.gone')
            : t(`webhooks.statuses.${row.original.status}`)}
        </Badge>
      ),
    },
    {
      accessorKey: 'created_at',
      header: t('webhooks.created_at'),
      cell: ({ row }) => <DateTime value={row.original.created_at} />,
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">{t('table.actions')}</span>,
      meta: { className: 'w-12 text-right', title: t('table.actions'), pinned: 'right' },
      cell: ({ row }) => {
        const endpoint = row.original;
        const isActive = endpoint.status === 'active';
        return (
          <DataTableRowActions
            name={endpoint.url}
            actions={[
              {
                label: t('webhooks.deliveries'),
                icon: <ListChecks aria-hidden />,
                onSelect: () => handlers.onDeliveries(endpoint),
              },
              {
                label: t('webhooks.rotate'),
                icon: <KeyRound aria-hidden />,
                onSelect: () => handlers.onRotateSecret(endpoint),
              },
              {
                label: isActive ? t('webhooks.disable') : t('webhooks.enable'),
                icon: isActive ? <PowerOff aria-hidden /> : <Power aria-hidden />,
                destructive: isActive,
                onSelect: () => handlers.onToggleStatus(endpoint),
              },
              {
                label: t('actions.delete'),
                icon: <Trash2 aria-hidden />,
                destructive: true,
                onSelect: () => handlers.onDelete(endpoint),
              },
            ]}
          />
        );
      },
    },
  ];
}
