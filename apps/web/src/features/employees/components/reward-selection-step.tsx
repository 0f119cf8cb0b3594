import { useId, useState, type FormEvent } from 'react';
import { Pencil, Undo2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { Employee } from '@app/contract';
import { CsvPreviewTable } from '@/components/csv-import';
import { DialogCancelFooter } from '@/components/forms/form-dialog-footer';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
import { withThousands } from '@/lib/format';
import { translateMessage } from '@/lib/messages';
import { employeeName } from './employees-columns';
import { planFromSelection, readAmount, runningTotal, type RewardPlan } from './reward-plan';
import { RewardNoteAndTotals } from './reward-totals';

/**
 * The selected employees as the source: one common amount, which any row may override. The
 * boxes' text is kept by the dialog, so coming back from the review shows it again.
 */
export function RewardSelectionStep({
  employees,
  balance,
  common,
  onCommon,
  overrides,
  onOverrides,
  note,
  onNote,
  onReview,
}: {
  employees: Employee[];
  balance: number | undefined;
  common: string;
  onCommon: (value: string) => void;
  overrides: Map<number, string>;
  onOverrides: (next: Map<number, string>) => void;
  note: string;
  onNote: (value: string) => void;
  onReview: (plan: RewardPlan) => void;
}) {
  const { t } = useTranslation();
  const commonId = useId();
  const commonErrorId = useId();
  const [errors, setErrors] = useState<Map<number | 'common', string>>(() => new Map());
  const total = runningTotal(employees, common, overrides);
  const exceeds = balance !== undefined && total > balance;
  const everyRowOverridden = employees.every((employee) => overrides.has(employee.id));
  const commonError = errors.get('common');

  const setOverride = (id: number, value: string | undefined) => {
    const next = new Map(overrides);
    if (value === undefined) next.delete(id);
    else next.set(id, value);
    onOverrides(next);
    if (errors.has(id)) {
      const rest = new Map(errors);
      rest.delete(id);
      setErrors(rest);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const planned = planFromSelection(employees, common, overrides);
    if ('errors' in planned) {
      setErrors(planned.errors);
      if (planned.errors.has('common')) document.getElementById(commonId)?.focus();
      return;
    }
    setErrors(new Map());
    if (balance === undefined || planned.total > balance) return;
    onReview({ ...planned, note: note.trim() });
  };

  return (
    <form noValidate className="grid gap-4" onSubmit={onSubmit}>
      <div className="grid gap-2">
        <Label htmlFor={commonId}>{t('rewards.common_amount')}</Label>
        <Input
          id={commonId}
          inputMode="numeric"
          autoComplete="off"
          autoFocus
          className="max-w-48"
          value={common}
          aria-invalid={commonError !== undefined}
          aria-describedby={commonError ? commonErrorId : undefined}
          onChange={(event) => {
            onCommon(event.target.value);
            if (commonError) {
              const rest = new Map(errors);
              rest.delete('common');
              setErrors(rest);
            }
          }}
        />
        <p className="text-sm text-muted-foreground">
          {everyRowOverridden
            ? t('rewards.common_unused')
            : t('rewards.common_hint', { count: employees.length - overrides.size })}
        </p>
        {commonError && (
          <p id={commonErrorId} className="text-sm font-medium text-destructive">
            {translateMessage(commonError, t)}
          </p>
        )}
      </div>
      <CsvPreviewTable
        caption={t('rewards.rows_caption')}
        height="max-h-72"
        head={
          <>
            <TableHead>{t('rewards.employee')}</TableHead>
            <TableHead className="text-right">{t('rewards.amount')}</TableHead>
            <TableHead>
              <span className="sr-only">{t('table.actions')}</span>
            </TableHead>
          </>
        }
      >
        {employees.map((employee) => (
          <RewardRow
            key={employee.id}
            employee={employee}
            common={common}
            override={overrides.get(employee.id)}
            error={errors.get(employee.id)}
            onOverride={(value) => setOverride(employee.id, value)}
          />
        ))}
      </CsvPreviewTable>
      <RewardNoteAndTotals
        note={note}
        onNote={onNote}
        people={employees.length}
        total={total}
        balance={balance}
        exceeds={exceeds}
      />
      <DialogCancelFooter>
        <Button type="submit" disabled={exceeds || balance === undefined}>
          {t('rewards.review')}
        </Button>
      </DialogCancelFooter>
    </form>
  );
}

/** One selected employee: the common amount, or the row's own box while it overrides it. */
function RewardRow({
  employee,
  common,
  override,
  error,
  onOverride,
}: {
  employee: Employee;
  common: string;
  override: string | undefined;
  error: string | undefined;
  onOverride: (value: string | undefined) => void;
}) {
  const { t } = useTranslation();
  const errorId = useId();
  const name = employeeName(employee);
  const commonAmount = readAmount(common);
  return (
    <TableRow data-employee={employee.employee_id}>
      <TableCell className="whitespace-normal">{name}</TableCell>
      <TableCell className="text-right tabular-nums">
        {override === undefined ? (
          <span className="text-muted-foreground">
            {'amount' in commonAmount ? withThousands(commonAmount.amount) : '—'}
          </span>
        ) : (
          <div className="grid justify-end gap-1">
            <Input
              inputMode="numeric"
              autoComplete="off"
              autoFocus
              className="h-8 w-28 text-right"
              aria-label={t('employees.amount_for', { name })}
              aria-invalid={error !== undefined}
              aria-describedby={error ? errorId : undefined}
              value={override}
              onChange={(event) => onOverride(event.target.value)}
            />
            {error && (
              <p id={errorId} className="text-xs font-medium text-destructive">
                {translateMessage(error, t)}
              </p>
            )}
          </div>
        )}
      </TableCell>
      <TableCell className="w-0 text-right">
        {override === undefined ? (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            aria-label={t('rewards.change_for', { name })}
            onClick={() => onOverride(common)}
          >
            <Pencil aria-hidden />
            <span className="hidden sm:inline">{t('rewards.change')}</span>
          </Button>
        ) : (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            aria-label={t('rewards.use_common_for', { name })}
            onClick={() => onOverride(undefined)}
          >
            <Undo2 aria-hidden />
            <span className="hidden sm:inline">{t('rewards.use_common')}</span>
          </Button>
        )}
      </TableCell>
    </TableRow>
  );
}
