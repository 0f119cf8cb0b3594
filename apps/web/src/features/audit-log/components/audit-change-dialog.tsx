import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuditEntry } from '@app/contract';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { formatDateTime } from '@/lib/format';
import { changedFields, formatValue } from './audit-diff';
import { auditActionLabel, auditActorLabel, auditRecordLabel } from './audit-labels';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-sm font-medium break-words">{children}</dd>
    </div>
  );
}

/** An instant as the API writes it (2026-01-10T10:00:00.000Z), shown as the app shows times. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** One side of a field's change: its value, or a dash for none. */
function Value({ value }: { value: unknown }) {
  const { t } = useTranslation();
  const text =
    typeof value === 'boolean'
      ? t(value ? 'audit_log.yes' : 'audit_log.no')
      : typeof value === 'string' && ISO_INSTANT.test(value)
        ? formatDateTime(value)
        : formatValue(value);
  if (text === undefined) {
    return (
      <span className="text-muted-foreground" aria-label={t('audit_log.no_value')}>
        —
      </span>
    );
  }
  return <span className="font-mono text-xs break-all whitespace-pre-wrap">{text}</span>;
}

/**
 * One audit row in full: when, who, from where, what, and the change as two columns (the record
 * before and after), only the fields that changed.
 */
export function AuditChangeDialog({
  entry,
  onClose,
}: {
  entry: AuditEntry | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const diff = entry ? changedFields(entry.before, entry.after) : undefined;
  return (
    <Dialog open={entry !== undefined} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle>
            {entry
              ? t('audit_log.detail_title', {
                  action: auditActionLabel(t, entry.action),
                  record: auditRecordLabel(t, entry),
                })
              : t('audit_log.detail_loading')}
          </DialogTitle>
          <DialogDescription>{t('audit_log.detail_description')}</DialogDescription>
        </DialogHeader>
        {entry && diff && (
          <div className="grid gap-4">
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
              <Field label={t('audit_log.occurred_at')}>{formatDateTime(entry.occurred_at)}</Field>
              <Field label={t('audit_log.actor')}>{auditActorLabel(t, entry)}</Field>
              <Field label={t('audit_log.record')}>{auditRecordLabel(t, entry)}</Field>
              <Field label={t('audit_log.ip')}>{entry.ip ?? '—'}</Field>
            </dl>
            {diff.changed.length === 0 ? (
              <p className="text-sm text-muted-foreground">{t('audit_log.no_changes')}</p>
            ) : (
              <Table aria-label={t('audit_log.changes_label')}>
                <TableHeader>
                  <TableRow>
                    <TableHead scope="col">{t('audit_log.field')}</TableHead>
                    <TableHead scope="col">{t('audit_log.before')}</TableHead>
                    <TableHead scope="col">{t('audit_log.after')}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {diff.changed.map((change) => (
                    <TableRow key={change.field}>
                      <TableHead scope="row" className="font-mono text-xs font-normal">
                        {change.field}
                      </TableHead>
                      <TableCell className="align-top whitespace-normal">
                        <Value value={change.before} />
                      </TableCell>
                      <TableCell className="align-top whitespace-normal">
                        <Value value={change.after} />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
            {diff.unchanged > 0 && (
              <p className="text-xs text-muted-foreground">
                {t('audit_log.unchanged', { count: diff.unchanged })}
              </p>
            )}
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
