import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import { Eye } from 'lucide-react';
import type { AuditEntry } from '@app/contract';
import { DateTime } from '@/components/data-table';
import { Button } from '@/components/ui/button';
import {
  auditActionLabel,
  auditActorLabel,
  auditEntityLabel,
  auditRecordLabel,
  auditRecordName,
} from './audit-labels';

export function auditColumns(
  t: TFunction,
  onView: (entry: AuditEntry) => void,
): ColumnDef<AuditEntry>[] {
  return [
    {
      accessorKey: 'occurred_at',
      header: t('audit_log.occurred_at'),
      cell: ({ row }) => <DateTime value={row.original.occurred_at} />,
    },
    {
      accessorKey: 'actor_username',
      header: t('audit_log.actor'),
      cell: ({ row }) =>
        row.original.actor_username ?? (
          <span className="text-muted-foreground">{auditActorLabel(t, row.original)}</span>
        ),
    },
    {
      accessorKey: 'action',
      header: t('audit_log.action'),
      cell: ({ row }) => auditActionLabel(t, row.original.action),
    },
    {
      accessorKey: 'entity_type',
      header: t('audit_log.record_type'),
      cell: ({ row }) => auditEntityLabel(t, row.original.entity_type),
    },
    {
      accessorKey: 'entity_id',
      header: t('audit_log.record'),
      // The id, and the record's name when the row carries it (the type has its own column).
      cell: ({ row }) => {
        const name = auditRecordName(row.original);
        const id = row.original.entity_id ? `#${row.original.entity_id}` : undefined;
        if (!name && !id) return <span className="text-muted-foreground">—</span>;
        return name && id ? `${name} (${id})` : (name ?? id);
      },
    },
    {
      accessorKey: 'ip',
      header: t('audit_log.ip'),
      cell: ({ row }) => <span className="font-mono text-xs">{row.original.ip ?? ''}</span>,
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
          aria-label={t('audit_log.view', {
            action: auditActionLabel(t, row.original.action),
            record: auditRecordLabel(t, row.original),
          })}
          onClick={() => onView(row.original)}
        >
          <Eye aria-hidden />
        </Button>
      ),
    },
  ];
}
