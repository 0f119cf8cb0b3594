import { useId, useMemo, useState } from 'react';
import { LoaderCircle } from 'lucide-react';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import {
  EMPLOYEE_CSV_COLUMNS,
  EMPLOYEE_IMPORT_ACTIONS,
  STATUSES,
  type Status,
  type EmployeeImportAction,
  type EmployeeImportPreview,
  type EmployeeImportResult,
  type EmployeeImportSummary,
} from '@app/contract';
import {
  CsvFileInput,
  CsvFileProblem,
  CsvPreviewButton,
  CsvPreviewTable,
  CsvRowMark,
  CsvTemplateButton,
  useCsvFile,
} from '@/components/csv-import';
import { DialogCancelFooter } from '@/components/forms/form-dialog-footer';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
import { withThousands } from '@/lib/format';
import { downloadEmployeeTemplate } from '../api/download-employee-template';
import { useImportEmployees } from '../api/import-employees';
import { usePreviewEmployeeImport } from '../api/preview-employee-import';
import {
  ImportCounts,
  ImportResultStep,
  invalidLines,
  unexpectedRejections,
} from './import-result-step';

type Step =
  | { kind: 'choose' }
  | { kind: 'preview'; file: File; preview: EmployeeImportPreview }
  | { kind: 'result'; result: EmployeeImportResult; previewedInvalid: Set<number> };

/** The most preview rows drawn at once: a file may hold 100,000 (the counts cover them all). */
export const PREVIEW_ROW_LIMIT = 200;

/** Spec 4's preview marks, each with its own look (the label carries the meaning). */
const ACTION_BADGES = {
  create: 'success',
  override: 'secondary',
  unchanged: 'outline',
  deactivate: 'outline',
  keep: 'outline',
  invalid: 'destructive',
} as const satisfies Record<EmployeeImportAction, string>;

/**
 * The preview is asked for without deactivation; with the box ticked, the employees it keeps
 * (`keep`, missing from the file) are the ones the import will deactivate (decision 0020).
 */
const shownAction = (action: EmployeeImportAction, deactivateMissing: boolean) =>
  deactivateMissing && action === 'keep' ? 'deactivate' : action;

function shownSummary(
  summary: EmployeeImportSummary,
  deactivateMissing: boolean,
): EmployeeImportSummary {
  if (!deactivateMissing) return summary;
  return { ...summary, deactivate: summary.deactivate + summary.keep, keep: 0 };
}

const isStatus = (value: string): value is Status =>
  (STATUSES as readonly string[]).includes(value);

/**
 * The CSV import (company admin): choose a file, see the preview with each row marked will be
 * created / will override / will deactivate / invalid, confirm, and see what was done.
 */
export function ImportEmployeesDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-4xl">
        <DialogHeader>
          <DialogTitle>{t('employees.import_title')}</DialogTitle>
          <DialogDescription>
            {t('employees.import_description', { columns: EMPLOYEE_CSV_COLUMNS.join(', ') })}
          </DialogDescription>
        </DialogHeader>
        {open && <ImportFlow onDone={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

function ImportFlow({ onDone }: { onDone: () => void }) {
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  if (step.kind === 'choose') {
    return (
      <ChooseFileStep
        onPreviewed={(file, preview) => setStep({ kind: 'preview', file, preview })}
      />
    );
  }
  if (step.kind === 'preview') {
    return (
      <PreviewStep
        file={step.file}
        preview={step.preview}
        onBack={() => setStep({ kind: 'choose' })}
        onImported={(result) =>
          setStep({
            kind: 'result',
            result,
            previewedInvalid: invalidLines(step.preview),
          })
        }
      />
    );
  }
  return (
    <ImportResultStep
      result={step.result}
      previewedInvalid={step.previewedInvalid}
      onDone={onDone}
    />
  );
}

function ChooseFileStep({
  onPreviewed,
}: {
  onPreviewed: (file: File, preview: EmployeeImportPreview) => void;
}) {
  const { t } = useTranslation();
  const file = useCsvFile(usePreviewEmployeeImport(), onPreviewed);
  return (
    <form noValidate className="grid gap-4" onSubmit={file.submit}>
      <div className="grid gap-2">
        <Label htmlFor={file.inputId}>{t('employees.import_file')}</Label>
        <CsvFileInput file={file} />
        <CsvFileProblem file={file} />
      </div>
      <CsvTemplateButton
        download={downloadEmployeeTemplate}
        label={t('employees.import_template')}
      />
      <DialogCancelFooter>
        <CsvPreviewButton file={file} label={t('employees.import_preview')} />
      </DialogCancelFooter>
    </form>
  );
}

function PreviewStep({
  file,
  preview,
  onBack,
  onImported,
}: {
  file: File;
  preview: EmployeeImportPreview;
  onBack: () => void;
  onImported: (result: EmployeeImportResult) => void;
}) {
  const { t } = useTranslation();
  const showId = useId();
  const missingId = useId();
  const missingHintId = useId();
  const importEmployees = useImportEmployees();
  const [shown, setShown] = useState<EmployeeImportAction | 'all'>('all');
  const [deactivateMissing, setDeactivateMissing] = useState(false);
  const missing = preview.summary.keep;
  const summary = shownSummary(preview.summary, deactivateMissing);
  const hasChanges = summary.create + summary.override + summary.deactivate > 0;
  const isDestructive = deactivateMissing && summary.deactivate > 0;
  const dash = <span className="text-muted-foreground">—</span>;
  const rows = useMemo(
    () =>
      shown === 'all'
        ? preview.rows
        : preview.rows.filter((row) => shownAction(row.action, deactivateMissing) === shown),
    [preview.rows, shown, deactivateMissing],
  );

  const onConfirm = () =>
    importEmployees.mutate(
      { file, deactivateMissing },
      {
        onSuccess: (result) => {
          const unexpected = unexpectedRejections(result, invalidLines(preview));
          if (unexpected === 0) toast.success(t('employees.import_done'));
          else toast.warning(t('employees.import_unexpected', { count: unexpected }));
          onImported(result);
        },
      },
    );

  return (
    <div className="grid gap-4">
      <p className="text-sm">{t('employees.import_preview_of', { name: file.name })}</p>
      <ImportCounts
        label={t('employees.import_summary')}
        items={EMPLOYEE_IMPORT_ACTIONS.map((action) => [
          t(`employees.import_actions.${action}`),
          summary[action],
        ])}
      />
      <div className="flex flex-wrap items-center gap-2">
        <Label htmlFor={showId}>{t('employees.import_show')}</Label>
        <select
          id={showId}
          className="h-9 rounded-md border border-input bg-transparent px-3 text-sm shadow-xs focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
          value={shown}
          onChange={(event) => setShown(event.target.value as EmployeeImportAction | 'all')}
        >
          <option value="all">
            {t('employees.import_show_all', { n: withThousands(preview.rows.length) })}
          </option>
          {EMPLOYEE_IMPORT_ACTIONS.map((action) => (
            <option key={action} value={action}>
              {`${t(`employees.import_actions.${action}`)} (${withThousands(summary[action])})`}
            </option>
          ))}
        </select>
      </div>
      <CsvPreviewTable
        caption={t('employees.import_rows')}
        height="max-h-80"
        head={
          <>
            <TableHead>{t('employees.import_line')}</TableHead>
            <TableHead>{t('employees.import_result')}</TableHead>
            <TableHead>{t('employees.employee_id')}</TableHead>
            <TableHead>{t('employees.name')}</TableHead>
            <TableHead>{t('employees.import_email')}</TableHead>
            <TableHead>{t('table.status')}</TableHead>
          </>
        }
      >
        {rows.slice(0, PREVIEW_ROW_LIMIT).map((row, index) => {
          const action = shownAction(row.action, deactivateMissing);
          return (
            <TableRow key={`${row.line ?? 'missing'}-${row.employee_id}-${index}`}>
              <TableCell className="tabular-nums">
                {row.line ?? (
                  <span className="text-muted-foreground">{t('employees.import_not_in_file')}</span>
                )}
              </TableCell>
              <TableCell className="min-w-48 whitespace-normal">
                <CsvRowMark
                  action={action}
                  label={t(`employees.import_actions.${action}`)}
                  variant={ACTION_BADGES[action]}
                  errors={row.errors}
                />
              </TableCell>
              <TableCell className="font-mono">{row.employee_id || dash}</TableCell>
              <TableCell>{row.name || dash}</TableCell>
              <TableCell>{row.email || dash}</TableCell>
              <TableCell>
                {row.action === 'keep' && deactivateMissing
                  ? t('statuses.inactive')
                  : isStatus(row.status)
                    ? t(`statuses.${row.status}`)
                    : row.status || dash}
              </TableCell>
            </TableRow>
          );
        })}
      </CsvPreviewTable>
      {rows.length > PREVIEW_ROW_LIMIT && (
        <p className="text-sm text-muted-foreground">
          {t('employees.import_rows_limited', {
            shown: withThousands(PREVIEW_ROW_LIMIT),
            total: withThousands(rows.length),
          })}
        </p>
      )}
      {summary.invalid > 0 && (
        <p className="text-sm text-muted-foreground">{t('employees.import_invalid_hint')}</p>
      )}
      {missing > 0 && (
        <div className="flex items-start gap-2 rounded-md border p-3">
          <Checkbox
            id={missingId}
            className="mt-0.5"
            checked={deactivateMissing}
            aria-describedby={missingHintId}
            onCheckedChange={(checked) => setDeactivateMissing(checked === true)}
          />
          <div className="grid gap-1">
            <Label htmlFor={missingId} className="leading-snug">
              {t('employees.import_deactivate_missing', { n: withThousands(missing) })}
            </Label>
            <p id={missingHintId} className="text-sm text-muted-foreground">
              {deactivateMissing
                ? t('employees.import_deactivate_missing_on', { count: missing })
                : t('employees.import_deactivate_missing_off', { count: missing })}
            </p>
          </div>
        </div>
      )}
      <DialogFooter className="pt-2">
        <Button type="button" variant="outline" onClick={onBack}>
          {t('employees.import_choose_another')}
        </Button>
        <Button
          type="button"
          variant={isDestructive ? 'destructive' : 'default'}
          data-variant={isDestructive ? 'destructive' : 'default'}
          disabled={!hasChanges || importEmployees.isPending}
          onClick={onConfirm}
        >
          {importEmployees.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
          {importEmployees.isPending
            ? t('actions.saving')
            : isDestructive
              ? t('employees.import_confirm_deactivate', { n: withThousands(summary.deactivate) })
              : t('employees.import_confirm')}
        </Button>
      </DialogFooter>
    </div>
  );
}
