import { useId, useMemo, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Download, LoaderCircle, Pencil, Undo2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import {
  REWARD_CSV_COLUMNS,
  tokenAmountSchema,
  validationErrorMap,
  type Employee,
  type RewardImportPreview,
} from '@app/contract';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
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
import { Skeleton } from '@/components/ui/skeleton';
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { paths } from '@/config/paths';
import { newIdempotencyKey } from '@/lib/api-client';
import { errorMessageLines } from '@/lib/error-display';
import { numberField } from '@/lib/forms';
import { withThousands } from '@/lib/format';
import { translateMessage } from '@/lib/messages';
import { useNotifyDone } from '@/lib/notify';
import { downloadRewardTemplate, usePreviewRewardImport } from '../api/preview-reward-import';
import { useRewardTokens } from '../api/reward-tokens';
import { employeeName } from './employees-columns';
import { rowErrorLines } from './import-employees-dialog';

/** The amount box of the dialog: the contract's token amount, typed as text. */
export const rewardAmountField = numberField(tokenAmountSchema);

/** A `v.*` key for a typed amount, or the amount. */
export function readAmount(text: string): { amount: number } | { error: string } {
  const parsed = rewardAmountField.safeParse(text, { error: validationErrorMap });
  return parsed.success ? { amount: parsed.data } : { error: parsed.error.issues[0]!.message };
}

/** One employee's reward as the review shows it and the distribution receives it. */
export interface RewardLine {
  employee_id: number;
  label: string;
  amount: number;
}

/** What the admin is about to confirm. */
export interface RewardPlan {
  lines: RewardLine[];
  total: number;
  note: string;
}

/**
 * What the selected employees get: the common amount, unless a row overrides it. Returns the
 * lines, or the problems by row (`common` for the common box) when a box does not hold an amount.
 */
export function planFromSelection(
  employees: Employee[],
  common: string,
  overrides: ReadonlyMap<number, string>,
): { lines: RewardLine[]; total: number } | { errors: Map<number | 'common', string> } {
  const errors = new Map<number | 'common', string>();
  const commonAmount = readAmount(common);
  const lines: RewardLine[] = [];
  let total = 0;
  for (const employee of employees) {
    const override = overrides.get(employee.id);
    const read = override === undefined ? commonAmount : readAmount(override);
    if ('error' in read) {
      errors.set(override === undefined ? 'common' : employee.id, read.error);
      continue;
    }
    lines.push({ employee_id: employee.id, label: employeeName(employee), amount: read.amount });
    total += read.amount;
  }
  return errors.size > 0 ? { errors } : { lines, total };
}

/** What the boxes add up to so far (a box that is not an amount counts as 0). */
export function runningTotal(
  employees: Employee[],
  common: string,
  overrides: ReadonlyMap<number, string>,
): number {
  const commonAmount = readAmount(common);
  return employees.reduce((sum, employee) => {
    const override = overrides.get(employee.id);
    const read = override === undefined ? commonAmount : readAmount(override);
    return 'amount' in read ? sum + read.amount : sum;
  }, 0);
}

/**
 * The reward-token dialog (company admin, issue 19 item 4): one amount for every selected
 * employee with per-row overrides, or the amounts of a CSV file (employee_id,amount) previewed
 * on the server; then a review (people, total, balance after) before anything moves.
 */
export function RewardTokensDialog({
  open,
  employees,
  balance,
  onClose,
  onRewarded,
}: {
  open: boolean;
  /** The selected employees (may be none: then the file is the only source). */
  employees: Employee[];
  /** The company's token_balance; undefined while loading. */
  balance: number | undefined;
  onClose: () => void;
  onRewarded: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{t('rewards.title')}</DialogTitle>
          <DialogDescription>{t('rewards.description')}</DialogDescription>
        </DialogHeader>
        {open && (
          <RewardFlow
            employees={employees}
            balance={balance}
            onDone={() => {
              onRewarded();
              onClose();
            }}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

type Source = 'selection' | 'file';

function RewardFlow({
  employees,
  balance,
  onDone,
}: {
  employees: Employee[];
  balance: number | undefined;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const sourceName = useId();
  const [source, setSource] = useState<Source>(employees.length > 0 ? 'selection' : 'file');
  const [plan, setPlan] = useState<RewardPlan | null>(null);
  // The boxes keep what was typed when the admin comes back from the review.
  const [common, setCommon] = useState('');
  const [overrides, setOverrides] = useState<Map<number, string>>(() => new Map());
  const [note, setNote] = useState('');
  // One key per opening of the dialog, by selection or by file: a double-click on the final
  // button, a retry after a network error or a second tab's repeat is applied once (decision 0068).
  const [idempotencyKey] = useState(newIdempotencyKey);

  if (plan) {
    return (
      <ReviewStep
        plan={plan}
        balance={balance}
        idempotencyKey={idempotencyKey}
        onBack={() => setPlan(null)}
        onDone={onDone}
      />
    );
  }
  return (
    <div className="grid gap-4">
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">{t('rewards.source')}</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {(['selection', 'file'] as const).map((value) => (
            <label key={value} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name={sourceName}
                value={value}
                className="size-4 accent-primary"
                checked={source === value}
                disabled={value === 'selection' && employees.length === 0}
                onChange={() => setSource(value)}
              />
              {value === 'selection'
                ? t('rewards.source_selection', { count: employees.length })
                : t('rewards.source_file')}
            </label>
          ))}
        </div>
      </fieldset>
      {source === 'selection' ? (
        <SelectionStep
          employees={employees}
          balance={balance}
          common={common}
          onCommon={setCommon}
          overrides={overrides}
          onOverrides={setOverrides}
          note={note}
          onNote={setNote}
          onReview={setPlan}
        />
      ) : (
        <FileStep balance={balance} note={note} onNote={setNote} onReview={setPlan} />
      )}
    </div>
  );
}

/** Total, balance now and after, as the dialog's steps show them. */
function Totals({
  people,
  total,
  balance,
}: {
  people: number;
  total: number;
  balance: number | undefined;
}) {
  const { t } = useTranslation();
  const after = balance === undefined ? undefined : balance - total;
  const pending = <Skeleton className="ml-auto h-4 w-16" />;
  return (
    <dl
      aria-label={t('rewards.totals')}
      className="grid grid-cols-2 gap-x-4 gap-y-1 rounded-md border p-3 text-sm"
    >
      <dt className="text-muted-foreground">{t('rewards.people')}</dt>
      <dd className="text-right tabular-nums" data-testid="reward-people">
        {withThousands(people)}
      </dd>
      <dt className="text-muted-foreground">{t('rewards.total')}</dt>
      <dd className="text-right font-semibold tabular-nums" data-testid="reward-total">
        {withThousands(total)}
      </dd>
      <dt className="text-muted-foreground">{t('rewards.balance_now')}</dt>
      <dd className="text-right tabular-nums" data-testid="reward-balance">
        {balance === undefined ? pending : withThousands(balance)}
      </dd>
      <dt className="text-muted-foreground">{t('rewards.balance_after')}</dt>
      <dd
        className={`text-right tabular-nums ${after !== undefined && after < 0 ? 'font-semibold text-destructive' : ''}`}
        data-testid="reward-balance-after"
      >
        {after === undefined ? pending : withThousands(after)}
      </dd>
    </dl>
  );
}

function NoteField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{t('employees.note')}</Label>
      <Input
        id={id}
        autoComplete="off"
        maxLength={500}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

function SelectionStep({
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
      <div className="max-h-72 overflow-y-auto rounded-md border">
        <Table>
          <TableCaption className="sr-only">{t('rewards.rows_caption')}</TableCaption>
          <TableHeader className="sticky top-0 z-10 bg-background">
            <TableRow>
              <TableHead>{t('rewards.employee')}</TableHead>
              <TableHead className="text-right">{t('rewards.amount')}</TableHead>
              <TableHead>
                <span className="sr-only">{t('table.actions')}</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
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
          </TableBody>
        </Table>
      </div>
      <NoteField value={note} onChange={onNote} />
      <Totals people={employees.length} total={total} balance={balance} />
      {exceeds && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {translateMessage('v.tokens_exceed', t)}
        </p>
      )}
      <DialogFooter className="pt-2">
        <DialogClose asChild>
          <Button type="button" variant="outline">
            {t('actions.cancel')}
          </Button>
        </DialogClose>
        <Button type="submit" disabled={exceeds || balance === undefined}>
          {t('rewards.review')}
        </Button>
      </DialogFooter>
    </form>
  );
}

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

function FileStep({
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
  const inputId = useId();
  const errorId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string[] | null>(null);
  const [preview, setPreview] = useState<RewardImportPreview | null>(null);
  const previewImport = usePreviewRewardImport();
  const template = useMutation({ mutationFn: downloadRewardTemplate });
  const valid = useMemo(
    () => preview?.rows.filter((row) => row.action === 'reward') ?? [],
    [preview],
  );
  const total = preview?.summary.total ?? 0;
  const shownBalance = balance ?? preview?.summary.balance;
  const exceeds = shownBalance !== undefined && total > shownBalance;

  const onPreview = (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setProblem([translateMessage('v.file_required', t)]);
    if (file.size === 0) return setProblem([t('EMPTY_FILE', { ns: 'errors' })]);
    setProblem(null);
    previewImport.mutate(file, {
      onSuccess: setPreview,
      onError: (error) => setProblem(errorMessageLines(error)),
    });
  };

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
      <form noValidate className="grid gap-2" onSubmit={onPreview}>
        <Label htmlFor={inputId}>{t('rewards.file')}</Label>
        <p className="text-sm text-muted-foreground">
          {t('rewards.file_hint', { columns: REWARD_CSV_COLUMNS.join(',') })}
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <Input
            id={inputId}
            type="file"
            accept=".csv,text/csv"
            className="max-w-sm"
            aria-invalid={problem !== null}
            aria-describedby={problem ? errorId : undefined}
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setProblem(null);
              setPreview(null);
            }}
          />
          <Button type="submit" variant="outline" disabled={previewImport.isPending}>
            {previewImport.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
            {t('employees.import_preview')}
          </Button>
        </div>
        {problem && (
          <p id={errorId} className="text-sm whitespace-pre-line text-destructive">
            {problem.join('\n')}
          </p>
        )}
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
      </form>
      {preview && (
        <>
          <div className="max-h-72 overflow-y-auto rounded-md border">
            <Table>
              <TableCaption className="sr-only">{t('rewards.file_rows_caption')}</TableCaption>
              <TableHeader className="sticky top-0 z-10 bg-background">
                <TableRow>
                  <TableHead>{t('employees.import_line')}</TableHead>
                  <TableHead>{t('rewards.employee')}</TableHead>
                  <TableHead className="text-right">{t('rewards.amount')}</TableHead>
                  <TableHead>{t('employees.import_result')}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
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
                      <Badge
                        variant={row.action === 'reward' ? 'success' : 'destructive'}
                        data-action={row.action}
                      >
                        {t(`rewards.actions.${row.action}`)}
                      </Badge>
                      {row.errors && (
                        <ul className="mt-1 text-xs text-destructive">
                          {rowErrorLines(row.errors, t).map((line) => (
                            <li key={line}>{line}</li>
                          ))}
                        </ul>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
          {preview.summary.invalid > 0 && (
            <p className="text-sm text-muted-foreground">
              {t('rewards.invalid_hint', { count: preview.summary.invalid })}
            </p>
          )}
          <NoteField value={note} onChange={onNote} />
          <Totals people={valid.length} total={total} balance={shownBalance} />
          {exceeds && (
            <p role="alert" className="text-sm font-medium text-destructive">
              {translateMessage('v.tokens_exceed', t)}
            </p>
          )}
        </>
      )}
      <DialogFooter className="pt-2">
        <DialogClose asChild>
          <Button type="button" variant="outline">
            {t('actions.cancel')}
          </Button>
        </DialogClose>
        <Button
          type="button"
          disabled={!preview || valid.length === 0 || exceeds}
          onClick={onContinue}
        >
          {t('rewards.review')}
        </Button>
      </DialogFooter>
    </div>
  );
}

/** The last look before tokens move: people, total, balance after, and who gets what. */
function ReviewStep({
  plan,
  balance,
  idempotencyKey,
  onBack,
  onDone,
}: {
  plan: RewardPlan;
  balance: number | undefined;
  idempotencyKey: string;
  onBack: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const rewardTokens = useRewardTokens();
  const notifyDone = useNotifyDone();
  const [problem, setProblem] = useState<string[] | null>(null);
  const people = plan.lines.length;

  const onConfirm = () => {
    setProblem(null);
    rewardTokens.mutate(
      {
        items: plan.lines.map(({ employee_id, amount }) => ({ employee_id, amount })),
        note: plan.note || undefined,
        idempotencyKey,
      },
      {
        onSuccess: (outcome) => {
          if ('approval' in outcome) {
            // At or above the approval threshold: nothing moved yet (decision 0039).
            notifyDone(
              t('approvals.sent_distribution', {
                total: withThousands(outcome.approval.total),
                count: people,
              }),
              paths.approvals.getHref(),
            );
          } else {
            const result = outcome.applied;
            notifyDone(
              people === 1
                ? t('rewards.done_one', {
                    total: withThousands(result.total),
                    name: plan.lines[0]!.label,
                  })
                : t('rewards.done_many', { total: withThousands(result.total), count: people }),
              paths.employeeTransaction.getHref(),
            );
          }
          onDone();
        },
        onError: (error) => setProblem(errorMessageLines(error)),
      },
    );
  };

  return (
    <div className="grid gap-4" data-testid="reward-review">
      <h3 className="text-base font-semibold">{t('rewards.review_title')}</h3>
      <Totals people={people} total={plan.total} balance={balance} />
      {plan.note && (
        <p className="text-sm">
          <span className="text-muted-foreground">{t('rewards.note_label')}</span> {plan.note}
        </p>
      )}
      <details className="rounded-md border p-3 text-sm">
        <summary className="cursor-pointer">{t('rewards.review_list', { count: people })}</summary>
        <ul className="mt-2 grid max-h-48 gap-1 overflow-y-auto">
          {plan.lines.map((line) => (
            <li key={line.employee_id} className="flex justify-between gap-4">
              <span>{line.label}</span>
              <span className="tabular-nums">{withThousands(line.amount)}</span>
            </li>
          ))}
        </ul>
      </details>
      {problem && (
        <p role="alert" className="text-sm whitespace-pre-line text-destructive">
          {problem.join('\n')}
        </p>
      )}
      <DialogFooter className="pt-2">
        <Button type="button" variant="outline" disabled={rewardTokens.isPending} onClick={onBack}>
          {t('actions.back')}
        </Button>
        <Button type="button" disabled={rewardTokens.isPending} onClick={onConfirm}>
          {rewardTokens.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
          {rewardTokens.isPending
            ? t('actions.saving')
            : t('rewards.confirm', { total: withThousands(plan.total), count: people })}
        </Button>
      </DialogFooter>
    </div>
  );
}
