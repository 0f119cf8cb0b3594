import { useId, useState } from 'react';
import { LoaderCircle, Pencil, Plus, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import {
  can,
  spendingExceptionBodySchema,
  type SpendingException,
  type SpendingExceptionBody,
} from '@app/contract';
import { CheckboxGroup, CheckboxRow, Field, NumberField } from '@/components/forms/plain-field';
import { DateField } from '@/components/date-picker';
import { DetailError } from '@/components/layout/detail-layout';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { confirmAlert } from '@/lib/alert-store';
import { isApiError } from '@/lib/api-error';
import { useAuthStore } from '@/lib/auth-store';
import { describeException } from '@/lib/describe-rules';
import { formatDayLong } from '@/lib/format';
import { translateMessage } from '@/lib/messages';
import { useSpendingException } from '../api/get-spending-exception';
import { usePutSpendingException } from '../api/put-spending-exception';
import { useRemoveSpendingException } from '../api/remove-spending-exception';

const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];
type Holidays = 'inherit' | 'closed' | 'open';

interface ExceptionFormValues {
  ownDays: boolean;
  weekdays: number[];
  holidays: Holidays;
  daily_limit: string;
  until: string;
}

const valuesOf = (exception: SpendingException | null): ExceptionFormValues => ({
  ownDays: exception?.weekdays != null,
  weekdays: exception?.weekdays ?? EVERY_DAY,
  holidays:
    exception?.closed_on_holidays == null
      ? 'inherit'
      : exception.closed_on_holidays
        ? 'closed'
        : 'open',
  daily_limit: exception?.daily_limit == null ? '' : String(exception.daily_limit),
  until: exception?.until ?? '',
});

/** The PUT body: what is left as the company's is sent as null. */
export function exceptionBodyOf(values: ExceptionFormValues): SpendingExceptionBody {
  return {
    weekdays: values.ownDays ? values.weekdays : null,
    closed_on_holidays: values.holidays === 'inherit' ? null : values.holidays === 'closed',
    daily_limit: values.daily_limit.trim() === '' ? null : Number(values.daily_limit),
    until: values.until === '' ? null : values.until,
  };
}

/**
 * An employee's exception to its company's spending rules (DESIGN 7: a Sunday worker): what
 * differs, until when; set, edited and removed (after a confirmation) by who manages the rules.
 */
export function SpendingExceptionCard({
  employeeId,
  employeeName,
}: {
  employeeId: number;
  employeeName: string;
}) {
  const { t, i18n } = useTranslation();
  const role = useAuthStore((state) => state.user?.type);
  const canManage = can(role, 'spending_rules.manage');
  const exception = useSpendingException(employeeId);
  const remove = useRemoveSpendingException();
  const [isEditing, setEditing] = useState(false);

  const onRemove = async () => {
    const confirmed = await confirmAlert({
      id: `remove-exception-${employeeId}`,
      titleKey: 'spending_rules.exception.remove_title',
      messageKey: 'spending_rules.exception.remove_message',
      values: { name: employeeName },
      confirmKey: 'spending_rules.exception.remove',
      cancelKey: 'actions.cancel',
      destructive: true,
    });
    if (!confirmed) return;
    remove.mutate(employeeId, {
      onSuccess: () => toast.success(t('spending_rules.exception.removed')),
    });
  };

  let body: React.ReactNode;
  if (exception.isPending) body = <Skeleton className="h-12 w-full" />;
  else if (exception.isError) {
    body = (
      <DetailError
        title={t('spending_rules.exception.load_failed')}
        error={exception.error}
        onRetry={() => void exception.refetch()}
      />
    );
  } else if (exception.data === null) {
    body = <p className="text-sm">{t('spending_rules.exception.none')}</p>;
  } else {
    const data = exception.data;
    body = (
      <div className="grid gap-1 text-sm" data-testid="spending-exception">
        <p className="first-letter:uppercase">{describeException(data, t)}</p>
        <p className="text-muted-foreground">
          {data.until
            ? t('spending_rules.exception.until', {
                date: formatDayLong(data.until, i18n.language),
              })
            : t('spending_rules.exception.no_end')}
        </p>
      </div>
    );
  }

  const hasException = Boolean(exception.data);
  return (
    <Card className="gap-3" aria-labelledby={`exception-title-${employeeId}`} role="region">
      <CardHeader className="flex flex-wrap items-start justify-between gap-2">
        <div className="grid gap-1">
          <CardTitle>
            <h2 id={`exception-title-${employeeId}`} className="text-base">
              {t('spending_rules.exception.title')}
            </h2>
          </CardTitle>
          <p className="text-sm text-muted-foreground">
            {t('spending_rules.exception.description')}
          </p>
        </div>
        {canManage && exception.isSuccess && (
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
              {hasException ? <Pencil aria-hidden /> : <Plus aria-hidden />}
              {hasException
                ? t('spending_rules.exception.edit')
                : t('spending_rules.exception.set')}
            </Button>
            {hasException && (
              <Button
                variant="outline"
                size="sm"
                className="text-destructive"
                disabled={remove.isPending}
                onClick={() => void onRemove()}
              >
                <Trash2 aria-hidden />
                {t('spending_rules.exception.remove')}
              </Button>
            )}
          </div>
        )}
      </CardHeader>
      <CardContent>{body}</CardContent>
      <Dialog open={isEditing} onOpenChange={(next) => !next && setEditing(false)}>
        <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-xl">
          <DialogHeader>
            <DialogTitle>
              {t('spending_rules.exception.dialog_title', { name: employeeName })}
            </DialogTitle>
            <DialogDescription>
              {t('spending_rules.exception.dialog_description')}
            </DialogDescription>
          </DialogHeader>
          {isEditing && (
            <ExceptionForm
              employeeId={employeeId}
              exception={exception.data ?? null}
              onDone={() => setEditing(false)}
            />
          )}
        </DialogContent>
      </Dialog>
    </Card>
  );
}

function ExceptionForm({
  employeeId,
  exception,
  onDone,
}: {
  employeeId: number;
  exception: SpendingException | null;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const save = usePutSpendingException();
  const [values, setValues] = useState(() => valuesOf(exception));
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [isDateInvalid, setDateInvalid] = useState(false);
  const set = <K extends keyof ExceptionFormValues>(key: K, value: ExceptionFormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setErrors(({ [key]: _cleared, ...rest }) => rest);
  };
  const errorOf = (key: string) => (errors[key] ? translateMessage(errors[key], t) : undefined);

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    if (isDateInvalid) return;
    const body = exceptionBodyOf(values);
    const parsed = spendingExceptionBodySchema.safeParse(body);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[issue.path.join('.')] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    save.mutate(
      { employeeId, body },
      {
        onSuccess: () => {
          toast.success(t('spending_rules.exception.saved'));
          onDone();
        },
        onError: (error) => {
          if (isApiError(error) && error.metadata)
            setErrors(error.metadata as Record<string, string>);
        },
      },
    );
  };

  return (
    <form noValidate className="grid gap-4" onSubmit={onSubmit}>
      <div className="grid gap-2">
        <CheckboxRow
          id={`${id}-own-days`}
          label={t('spending_rules.exception.own_days')}
          checked={values.ownDays}
          onChange={(next) => set('ownDays', next)}
        />
        {values.ownDays && (
          <CheckboxGroup
            legend={t('spending_rules.editor.weekdays')}
            options={EVERY_DAY.map((day) => ({
              value: day,
              label: t(`spending_rules.weekdays.${day}`),
            }))}
            value={values.weekdays}
            onChange={(next) => set('weekdays', next)}
            error={errorOf('weekdays')}
          />
        )}
      </div>
      <Field id={`${id}-holidays`} label={t('spending_rules.exception.holidays')}>
        <Select value={values.holidays} onValueChange={(next) => set('holidays', next as Holidays)}>
          <SelectTrigger id={`${id}-holidays`} className="w-full">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {(['inherit', 'closed', 'open'] as const).map((option) => (
              <SelectItem key={option} value={option}>
                {t(`spending_rules.exception.holidays_${option}`)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <NumberField
          id={`${id}-daily`}
          label={t('spending_rules.exception.daily_limit')}
          hint={t('spending_rules.exception.daily_limit_hint')}
          error={errorOf('daily_limit')}
          value={values.daily_limit}
          onChange={(next) => set('daily_limit', next)}
        />
        <Field
          id={`${id}-until`}
          label={t('spending_rules.exception.until_label')}
          hint={t('spending_rules.exception.until_hint')}
          error={errorOf('until')}
        >
          <DateField
            id={`${id}-until`}
            value={values.until}
            onChange={(day) => set('until', day)}
            onValidityChange={(valid) => setDateInvalid(!valid)}
            aria-invalid={errors.until ? true : undefined}
            aria-describedby={`${id}-until-hint${errors.until ? ` ${id}-until-error` : ''}`}
          />
        </Field>
      </div>
      <DialogFooter className="pt-2">
        <Button type="button" variant="outline" onClick={onDone}>
          {t('actions.cancel')}
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
          {save.isPending ? t('actions.saving') : t('actions.save')}
        </Button>
      </DialogFooter>
    </form>
  );
}
