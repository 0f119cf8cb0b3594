import { useId, useMemo, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Download, Info, LoaderCircle } from 'lucide-react';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import {
  EMPLOYEE_CSV_COLUMNS,
  EMPLOYEE_IMPORT_ACTIONS,
  STATUSES,
  isErrorCode,
  type Status,
  type EmployeeImportAction,
  type EmployeeImportPreview,
  type EmployeeImportResult,
  type EmployeeImportSummary,
} from '@app/contract';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { errorMessageLines } from '@/lib/error-display';
import { withThousands } from '@/lib/format';
import { translateMessage } from '@/lib/messages';
import { downloadEmployeeTemplate } from '../api/download-employee-template';
import { useImportEmployees } from '../api/import-employees';
import { usePreviewEmployeeImport } from '../api/preview-employee-import';

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

/** A row's reasons as `field: message`, a `v.*` key or a catalogue code translated. */
export function rowErrorLines(errors: Record<string, string>, t: TFunction): string[] {
  return Object.entries(errors).map(([field, message]) => {
    const text = isErrorCode(message) ? t(message, { ns: 'errors' }) : translateMessage(message, t);
    return field === '_row' ? text : `${field}: ${text}`;
  });
}

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
    <ResultStep result={step.result} previewedInvalid={step.previewedInvalid} onDone={onDone} />
  );
}

function ChooseFileStep({
  onPreviewed,
}: {
  onPreviewed: (file: File, preview: EmployeeImportPreview) => void;
}) {
  const { t } = useTranslation();
  const inputId = useId();
  const errorId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string[] | null>(null);
  const previewImport = usePreviewEmployeeImport();
  const template = useMutation({ mutationFn: downloadEmployeeTemplate });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    // Spec 5: a file must be selected, and an empty file is refused before it is sent.
    if (!file) return setProblem([translateMessage('v.file_required', t)]);
    if (file.size === 0) return setProblem([t('EMPTY_FILE', { ns: 'errors' })]);
    setProblem(null);
    previewImport.mutate(file, {
      onSuccess: (preview) => onPreviewed(file, preview),
      onError: (error) => setProblem(errorMessageLines(error)),
    });
  };

  return (
    <form noValidate className="grid gap-4" onSubmit={onSubmit}>
      <div className="grid gap-2">
        <Label htmlFor={inputId}>{t('employees.import_file')}</Label>
        <Input
          id={inputId}
          type="file"
          accept=".csv,text/csv"
          aria-invalid={problem !== null}
          aria-describedby={problem ? errorId : undefined}
          onChange={(event) => {
            setFile(event.target.files?.[0] ?? null);
            setProblem(null);
          }}
        />
        {problem && (
          <p id={errorId} className="text-sm whitespace-pre-line text-destructive">
            {problem.join('\n')}
          </p>
        )}
      </div>
      <div>
        <Button
          type="button"
          variant="link"
          className="h-auto px-0"
          disabled={template.isPending}
          onClick={() => template.mutate()}
        >
          <Download aria-hidden />
          {t('employees.import_template')}
        </Button>
      </div>
      <DialogFooter className="pt-2">
        <DialogClose asChild>
          <Button type="button" variant="outline">
            {t('actions.cancel')}
          </Button>
        </DialogClose>
        <Button type="submit" disabled={previewImport.isPending}>
          {previewImport.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
          {t('employees.import_preview')}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** The counts of each mark (or of what was done), as a definition list. */
function Counts({ label, items }: { label: string; items: [string, number][] }) {
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
      <Counts
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
      <div className="max-h-80 overflow-y-auto rounded-md border">
        <Table>
          <TableCaption className="sr-only">{t('employees.import_rows')}</TableCaption>
          <TableHeader className="sticky top-0 bg-background">
            <TableRow>
              <TableHead>{t('employees.import_line')}</TableHead>
              <TableHead>{t('employees.import_result')}</TableHead>
              <TableHead>{t('employees.employee_id')}</TableHead>
              <TableHead>{t('employees.name')}</TableHead>
              <TableHead>{t('employees.import_email')}</TableHead>
              <TableHead>{t('table.status')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.slice(0, PREVIEW_ROW_LIMIT).map((row, index) => (
              <TableRow key={`${row.line ?? 'missing'}-${row.employee_id}-${index}`}>
                <TableCell className="tabular-nums">
                  {row.line ?? (
                    <span className="text-muted-foreground">
                      {t('employees.import_not_in_file')}
                    </span>
                  )}
                </TableCell>
                <TableCell className="min-w-48 whitespace-normal">
                  <Badge
                    variant={ACTION_BADGES[shownAction(row.action, deactivateMissing)]}
                    data-action={shownAction(row.action, deactivateMissing)}
                  >
                    {t(`employees.import_actions.${shownAction(row.action, deactivateMissing)}`)}
                  </Badge>
                  {row.errors && (
                    <ul className="mt-1 text-xs text-destructive">
                      {rowErrorLines(row.errors, t).map((line) => (
                        <li key={line}>{line}</li>
                      ))}
                    </ul>
                  )}
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
            ))}
          </TableBody>
        </Table>
      </div>
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

/**
 * How many rows the import rejected that the preview did not show as invalid (the data changed
 * in between, e.g. an email taken meanwhile): only those make the import a partial failure.
 */
function unexpectedRejections(result: EmployeeImportResult, previewedInvalid: Set<number>) {
  return result.rejected_rows.filter((row) => !previewedInvalid.has(row.line)).length;
}

/** The lines the preview showed as invalid. */
const invalidLines = (preview: EmployeeImportPreview) =>
  new Set(
    preview.rows.flatMap((row) =>
      row.action === 'invalid' && row.line !== null ? [row.line] : [],
    ),
  );

function ResultStep({
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
      <Counts
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
