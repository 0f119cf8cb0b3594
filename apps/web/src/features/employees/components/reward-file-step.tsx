import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REWARD_CSV_COLUMNS, type RewardImportPreview } from '@app/contract';
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
import { Label } from '@/components/ui/label';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
import { withThousands } from '@/lib/format';
import { downloadRewardTemplate, usePreviewRewardImport } from '../api/preview-reward-import';
import type { RewardPlan } from './reward-plan';
import { RewardNoteAndTotals } from './reward-totals';

/**
 * A CSV file (employee_id,amount) as the source: previewed on the server, which marks each row
 * rewarded or refused; only the rewarded rows go to the review.
 */
export function RewardFileStep({
  balance,
  note,
  onNote,
  onReview,
}: {
  balance: number | undefined;
  note: string;
  onNote: (value: string) => void;
  onReview: (plan: RewardPlan) => void;
}) {
  const { t } = useTranslation();
  const [preview, setPreview] = useState<RewardImportPreview | null>(null);
  const file = useCsvFile(
    usePreviewRewardImport(),
    (_file, answer) => setPreview(answer),
    () => setPreview(null),
  );
  const valid = useMemo(
    () => preview?.rows.filter((row) => row.action === 'reward') ?? [],
    [preview],
  );
  const total = preview?.summary.total ?? 0;
  const shownBalance = balance ?? preview?.summary.balance;
  const exceeds = shownBalance !== undefined && total > shownBalance;

  const onContinue = () => {
    if (valid.length === 0 || exceeds) return;
    onReview({
      lines: valid.map((row) => ({
        employee_id: row.id!,
        label: row.name ? `${row.name} (${row.employee_id})` : row.employee_id,
        amount: row.amount!,
      })),
      total,
      note: note.trim(),
    });
  };

  return (
    <div className="grid gap-4">
      <form noValidate className="grid gap-2" onSubmit={file.submit}>
        <Label htmlFor={file.inputId}>{t('rewards.file')}</Label>
        <p className="text-sm text-muted-foreground">
          {t('rewards.file_hint', { columns: REWARD_CSV_COLUMNS.join(',') })}
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <CsvFileInput file={file} className="max-w-sm" />
          <CsvPreviewButton file={file} label={t('employees.import_preview')} variant="outline" />
        </div>
        <CsvFileProblem file={file} />
        <CsvTemplateButton
          download={downloadRewardTemplate}
          label={t('employees.import_template')}
        />
      </form>
      {preview && (
        <>
          <CsvPreviewTable
            caption={t('rewards.file_rows_caption')}
            height="max-h-72"
            head={
              <>
                <TableHead>{t('employees.import_line')}</TableHead>
                <TableHead>{t('rewards.employee')}</TableHead>
                <TableHead className="text-right">{t('rewards.amount')}</TableHead>
                <TableHead>{t('employees.import_result')}</TableHead>
              </>
            }
          >
            {preview.rows.map((row) => (
              <TableRow key={row.line} data-line={row.line}>
                <TableCell className="tabular-nums">{row.line}</TableCell>
                <TableCell className="whitespace-normal">
                  <span className="font-mono">{row.employee_id || '—'}</span>
                  {row.name && <span> {row.name}</span>}
                </TableCell>
                <TableCell className="text-right tabular-nums">
                  {row.amount !== null ? withThousands(row.amount) : row.amount_text || '—'}
                </TableCell>
                <TableCell className="min-w-40 whitespace-normal">
                  <CsvRowMark
                    action={row.action}
                    label={t(`rewards.actions.${row.action}`)}
                    variant={row.action === 'reward' ? 'success' : 'destructive'}
                    errors={row.errors}
                  />
                </TableCell>
              </TableRow>
            ))}
          </CsvPreviewTable>
          {preview.summary.invalid > 0 && (
            <p className="text-sm text-muted-foreground">
              {t('rewards.invalid_hint', { count: preview.summary.invalid })}
            </p>
          )}
          <RewardNoteAndTotals
            note={note}
            onNote={onNote}
            people={valid.length}
            total={total}
            balance={shownBalance}
            exceeds={exceeds}
          />
        </>
      )}
      <DialogCancelFooter>
        <Button
          type="button"
          disabled={!preview || valid.length === 0 || exceeds}
          onClick={onContinue}
        >
          {t('rewards.review')}
        </Button>
      </DialogCancelFooter>
    </div>
  );
}
