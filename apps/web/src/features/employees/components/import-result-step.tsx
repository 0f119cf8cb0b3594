import { Info } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { EmployeeImportPreview, EmployeeImportResult } from '@app/contract';
import { rowErrorLines } from '@/components/csv-import';
import { Button } from '@/components/ui/button';
import { DialogFooter } from '@/components/ui/dialog';
import { withThousands } from '@/lib/format';

/** The counts of each mark (or of what was done), as a definition list. */
export function ImportCounts({ label, items }: { label: string; items: [string, number][] }) {
  return (
    <dl
      aria-label={label}
      className="grid grid-cols-2 gap-x-4 gap-y-1 rounded-md border p-3 text-sm sm:grid-cols-3 md:grid-cols-6"
    >
      {items.map(([name, count]) => (
        <div key={name} className="flex flex-col">
          <dt className="text-muted-foreground">{name}</dt>
          <dd className="font-semibold tabular-nums">{withThousands(count)}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * How many rows the import rejected that the preview did not show as invalid (the data changed
 * in between, e.g. an email taken meanwhile): only those make the import a partial failure.
 */
export function unexpectedRejections(result: EmployeeImportResult, previewedInvalid: Set<number>) {
  return result.rejected_rows.filter((row) => !previewedInvalid.has(row.line)).length;
}

/** The lines the preview showed as invalid. */
export const invalidLines = (preview: EmployeeImportPreview) =>
  new Set(
    preview.rows.flatMap((row) =>
      row.action === 'invalid' && row.line !== null ? [row.line] : [],
    ),
  );

export function ImportResultStep({
  result,
  previewedInvalid,
  onDone,
}: {
  result: EmployeeImportResult;
  previewedInvalid: Set<number>;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const unexpected = unexpectedRejections(result, previewedInvalid);
  const { skipped } = result;
  return (
    <div className="grid gap-4">
      <div role="status" className="grid gap-1 text-sm">
        <p className="font-medium">
          {unexpected === 0
            ? t('employees.import_done')
            : t('employees.import_unexpected', { count: unexpected })}
        </p>
        {unexpected === 0 && skipped > 0 && (
          <p className="flex items-center gap-1.5 text-muted-foreground">
            <Info className="size-4" aria-hidden />
            {t('employees.import_skipped_info', { count: skipped })}
          </p>
        )}
      </div>
      <ImportCounts
        label={t('employees.import_outcome')}
        items={[
          [t('employees.import_outcomes.created'), result.created],
          [t('employees.import_outcomes.updated'), result.updated],
          [t('employees.import_outcomes.unchanged'), result.unchanged],
          [t('employees.import_outcomes.deactivated'), result.deactivated],
          [t('employees.import_outcomes.skipped'), skipped],
        ]}
      />
      {result.rejected_rows.length > 0 && (
        <ul aria-label={t('employees.import_skipped_rows')} className="grid gap-1 text-sm">
          {result.rejected_rows.map((row) => (
            <li key={row.line}>
              <span className="font-medium">
                {t('employees.import_line_of', { line: row.line, id: row.employee_id || '—' })}
              </span>{' '}
              <span className="text-destructive">{rowErrorLines(row.errors, t).join('; ')}</span>
            </li>
          ))}
        </ul>
      )}
      <DialogFooter className="pt-2">
        <Button type="button" onClick={onDone}>
          {t('actions.done')}
        </Button>
      </DialogFooter>
    </div>
  );
}
