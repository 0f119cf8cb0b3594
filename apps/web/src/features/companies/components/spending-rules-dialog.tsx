import { useId, useState } from 'react';
import dayjs from 'dayjs';
import { LoaderCircle, Plus, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import {
  MERCHANT_CATEGORIES,
  putSpendingRulesBodySchema,
  SPENDING_RULE_CODES,
  type MerchantCategory,
  type PutSpendingRulesBody,
  type SpendingRules,
  type SpendingRulesPreview,
  type SpendingRuleVersion,
} from '@app/contract';
import { CheckboxGroup, CheckboxRow, Field, NumberField } from '@/components/forms/plain-field';
import { DateField } from '@/components/date-picker';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { isApiError } from '@/lib/api-error';
import { describeRules } from '@/lib/describe-rules';
import { formatDayLong, withThousands } from '@/lib/format';
import { translateMessage } from '@/lib/messages';
import { useNotifyDone } from '@/lib/notify';
import { usePreviewSpendingRules } from '../api/preview-spending-rules';
import { usePutSpendingRules } from '../api/put-spending-rules';

const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];

/** What the form holds: numbers as typed, the sets as chosen (all of them: no restriction). */
export interface RulesFormValues {
  effective_from: string;
  daily_limit: string;
  order_limit: string;
  weekdays: number[];
  hours: { from: string; to: string }[];
  closed_on_holidays: boolean;
  merchant_categories: MerchantCategory[];
  partial_payment: boolean;
}

type Errors = Partial<Record<string, string>>;

const limitOf = (text: string): number | null => (text.trim() === '' ? null : Number(text));

/** The form's values from a version (the latest one), or no rule at all. */
export function formValuesOf(version: SpendingRuleVersion | null, day: string): RulesFormValues {
  return {
    effective_from: day,
    daily_limit: version?.daily_limit == null ? '' : String(version.daily_limit),
    order_limit: version?.order_limit == null ? '' : String(version.order_limit),
    weekdays: version?.weekdays ?? EVERY_DAY,
    hours: version?.hours ?? [],
    closed_on_holidays: version?.closed_on_holidays ?? false,
    merchant_categories: version?.merchant_categories ?? [...MERCHANT_CATEGORIES],
    partial_payment: version?.partial_payment ?? false,
  };
}

/** The PUT body of the form: every weekday or every category chosen means no restriction. */
export function bodyOf(values: RulesFormValues): PutSpendingRulesBody {
  return {
    effective_from: values.effective_from,
    daily_limit: limitOf(values.daily_limit),
    order_limit: limitOf(values.order_limit),
    weekdays: values.weekdays.length === 7 ? null : values.weekdays,
    hours: values.hours.length === 0 ? null : values.hours,
    closed_on_holidays: values.closed_on_holidays,
    merchant_categories:
      values.merchant_categories.length === MERCHANT_CATEGORIES.length
        ? null
        : values.merchant_categories,
    partial_payment: values.partial_payment,
  };
}

/** The contract's checks, and the date today or later, as `field: message` (`hours.0.to`…). */
function validate(values: RulesFormValues, today: string): Errors {
  const errors: Errors = {};
  const parsed = putSpendingRulesBodySchema.safeParse(bodyOf(values));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path.join('.');
      errors[key] ??= issue.message;
    }
  }
  if (!errors.effective_from && values.effective_from < today) {
    errors.effective_from = 'v.effective_from_past';
  }
  return errors;
}

/** "42 of 1,310 orders … would have been declined: daily limit 40, hours 2". */
export function impactOf(preview: SpendingRulesPreview, t: TFunction): string {
  const codes = [...SPENDING_RULE_CODES, 'INSUFFICIENT_TOKENS'].filter(
    (code) => (preview.declined[code]?.orders ?? 0) > 0,
  );
  const declined = codes.reduce((sum, code) => sum + (preview.declined[code]?.orders ?? 0), 0);
  if (declined === 0) {
    return t('spending_rules.editor.impact_none', { orders: withThousands(preview.orders) });
  }
  const reasons = codes
    .map((code) =>
      t('spending_rules.editor.reason_count', {
        reason: t(`spending_rules.editor.reasons.${code}`),
        count: withThousands(preview.declined[code]?.orders ?? 0),
      }),
    )
    .join(t('spending_rules.words.separator'));
  return t('spending_rules.editor.impact', {
    declined: withThousands(declined),
    orders: withThousands(preview.orders),
    reasons,
  });
}

/**
 * A new version of a company's rules (DESIGN 7): the form, then Save replays it over the last 30
 * days (the preview) and shows what it would have declined; Confirm saves it.
 */
export function SpendingRulesDialog({
  companyId,
  open,
  latest,
  onClose,
}: {
  companyId: number;
  open: boolean;
  /** The latest version (scheduled or in force), the form's starting point. */
  latest: SpendingRuleVersion | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{t('spending_rules.editor.title')}</DialogTitle>
          <DialogDescription>{t('spending_rules.editor.description')}</DialogDescription>
        </DialogHeader>
        {open && <RulesEditor companyId={companyId} latest={latest} onDone={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

function RulesEditor({
  companyId,
  latest,
  onDone,
}: {
  companyId: number;
  latest: SpendingRuleVersion | null;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const notifyDone = useNotifyDone();
  const today = dayjs().format('YYYY-MM-DD');
  const [values, setValues] = useState<RulesFormValues>(() =>
    formValuesOf(latest, dayjs().add(1, 'day').format('YYYY-MM-DD')),
  );
  const [errors, setErrors] = useState<Errors>({});
  const [isDateInvalid, setDateInvalid] = useState(false);
  const [preview, setPreview] = useState<SpendingRulesPreview | null>(null);
  const previewing = usePreviewSpendingRules();
  const saving = usePutSpendingRules();

  // A change clears the messages of that field (and of its parts: `hours.0.to`).
  const set = <K extends keyof RulesFormValues>(key: K, value: RulesFormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setErrors((current) =>
      Object.fromEntries(
        Object.entries(current).filter(([field]) => field !== key && !field.startsWith(`${key}.`)),
      ),
    );
  };
  const errorOf = (key: string) => {
    const message = errors[key];
    return message ? translateMessage(message, t) : undefined;
  };
  const serverErrors = (error: unknown) => {
    if (isApiError(error) && error.metadata) {
      setErrors(error.metadata as Errors);
      setPreview(null);
    }
  };

  const onSave = (event: React.FormEvent) => {
    event.preventDefault();
    // The date box says itself what it cannot read.
    if (isDateInvalid) return;
    const found = validate(values, today);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const { effective_from: _day, ...rules } = bodyOf(values);
    previewing.mutate(
      { companyId, rules: rules as SpendingRules },
      { onSuccess: setPreview, onError: serverErrors },
    );
  };
  const onConfirm = () =>
    saving.mutate(
      { companyId, body: bodyOf(values) },
      {
        onSuccess: () => {
          notifyDone(
            t('spending_rules.editor.saved', {
              date: formatDayLong(values.effective_from, i18n.language),
            }),
          );
          onDone();
        },
        onError: serverErrors,
      },
    );

  if (preview) {
    const body = bodyOf(values);
    return (
      <div className="grid gap-4" data-testid="spending-rules-preview">
        <section className="grid gap-1" aria-labelledby={`${id}-rules`}>
          <h3 id={`${id}-rules`} className="text-sm font-medium">
            {t('spending_rules.editor.rules_title')}
          </h3>
          <p className="text-sm">
            {t('spending_rules.section.from', {
              date: formatDayLong(values.effective_from, i18n.language),
            })}
            {t('spending_rules.words.separator')}
            {describeRules(
              { ...(body as SpendingRules), closed_on_holidays: values.closed_on_holidays },
              t,
            )}
          </p>
        </section>
        <section
          className="grid gap-1 rounded-md border bg-muted/40 p-3"
          aria-labelledby={`${id}-impact`}
          aria-live="polite"
        >
          <h3 id={`${id}-impact`} className="text-sm font-medium">
            {t('spending_rules.editor.impact_title')}
          </h3>
          <p className="text-sm" data-testid="preview-impact">
            {impactOf(preview, t)}
          </p>
          {preview.employees_affected > 0 && (
            <p className="text-sm" data-testid="preview-employees">
              {t('spending_rules.editor.employees_affected', {
                count: preview.employees_affected,
              })}
            </p>
          )}
        </section>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => setPreview(null)}>
            {t('spending_rules.editor.back')}
          </Button>
          <Button type="button" onClick={onConfirm} disabled={saving.isPending} autoFocus>
            {saving.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
            {saving.isPending ? t('actions.saving') : t('spending_rules.editor.confirm')}
          </Button>
        </DialogFooter>
      </div>
    );
  }

  return (
    <form noValidate className="grid gap-4" onSubmit={onSave}>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field
          id={`${id}-from`}
          label={t('spending_rules.editor.effective_from')}
          error={errorOf('effective_from')}
        >
          <DateField
            id={`${id}-from`}
            min={today}
            value={values.effective_from}
            onChange={(day) => set('effective_from', day)}
            onValidityChange={(valid) => setDateInvalid(!valid)}
            aria-invalid={errors.effective_from ? true : undefined}
            aria-describedby={errors.effective_from ? `${id}-from-error` : undefined}
          />
        </Field>
        <NumberField
          id={`${id}-daily`}
          label={t('spending_rules.editor.daily_limit')}
          hint={t('spending_rules.editor.limit_hint')}
          error={errorOf('daily_limit')}
          value={values.daily_limit}
          onChange={(next) => set('daily_limit', next)}
        />
        <NumberField
          id={`${id}-order`}
          label={t('spending_rules.editor.order_limit')}
          hint={t('spending_rules.editor.limit_hint')}
          error={errorOf('order_limit')}
          value={values.order_limit}
          onChange={(next) => set('order_limit', next)}
        />
      </div>
      <CheckboxGroup
        legend={t('spending_rules.editor.weekdays')}
        hint={t('spending_rules.editor.weekdays_hint')}
        options={EVERY_DAY.map((day) => ({
          value: day,
          label: t(`spending_rules.weekdays.${day}`),
        }))}
        value={values.weekdays}
        onChange={(next) => set('weekdays', next)}
        error={errorOf('weekdays')}
      />
      <HoursFields hours={values.hours} onChange={(next) => set('hours', next)} errorOf={errorOf} />
      <CheckboxGroup
        legend={t('spending_rules.editor.categories')}
        hint={t('spending_rules.editor.categories_hint')}
        options={MERCHANT_CATEGORIES.map((category) => ({
          value: category,
          label: t(`spending_rules.categories.${category}`),
        }))}
        value={values.merchant_categories}
        onChange={(next) => set('merchant_categories', next)}
        error={errorOf('merchant_categories')}
      />
      <div className="grid gap-2">
        <CheckboxRow
          id={`${id}-holidays`}
          label={t('spending_rules.editor.closed_on_holidays')}
          checked={values.closed_on_holidays}
          onChange={(next) => set('closed_on_holidays', next)}
        />
        <CheckboxRow
          id={`${id}-partial`}
          label={t('spending_rules.editor.partial_payment')}
          checked={values.partial_payment}
          onChange={(next) => set('partial_payment', next)}
        />
      </div>
      <DialogFooter className="pt-2">
        <Button type="button" variant="outline" onClick={onDone}>
          {t('actions.cancel')}
        </Button>
        <Button type="submit" disabled={previewing.isPending}>
          {previewing.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
          {previewing.isPending ? t('spending_rules.editor.previewing') : t('actions.save')}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** The time windows: none is any time; each a from–to pair, removable; at most six. */
function HoursFields({
  hours,
  onChange,
  errorOf,
}: {
  hours: { from: string; to: string }[];
  onChange: (next: { from: string; to: string }[]) => void;
  errorOf: (key: string) => string | undefined;
}) {
  const { t } = useTranslation();
  const id = useId();
  const update = (index: number, part: 'from' | 'to', value: string) =>
    onChange(hours.map((w, i) => (i === index ? { ...w, [part]: value } : w)));
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">{t('spending_rules.editor.hours')}</legend>
      {hours.length === 0 && (
        <p className="text-sm text-muted-foreground">{t('spending_rules.editor.any_time')}</p>
      )}
      {hours.map((window, index) => {
        const number = index + 1;
        const fromError = errorOf(`hours.${index}.from`);
        const toError = errorOf(`hours.${index}.to`);
        return (
          <div
            key={index}
            role="group"
            aria-label={t('spending_rules.editor.window', { number })}
            className="flex flex-wrap items-end gap-2"
          >
            <Field
              id={`${id}-${index}-from`}
              label={t('spending_rules.editor.window_from')}
              error={fromError}
            >
              <Input
                id={`${id}-${index}-from`}
                type="time"
                className="w-32"
                value={window.from}
                onChange={(event) => update(index, 'from', event.target.value)}
                aria-invalid={fromError ? true : undefined}
              />
            </Field>
            <Field
              id={`${id}-${index}-to`}
              label={t('spending_rules.editor.window_to')}
              error={toError}
            >
              <Input
                id={`${id}-${index}-to`}
                type="time"
                className="w-32"
                value={window.to}
                onChange={(event) => update(index, 'to', event.target.value)}
                aria-invalid={toError ? true : undefined}
              />
            </Field>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              aria-label={t('spending_rules.editor.remove_window', { number })}
              onClick={() => onChange(hours.filter((_, i) => i !== index))}
            >
              <X aria-hidden />
            </Button>
          </div>
        );
      })}
      {errorOf('hours') && (
        <p role="alert" className="text-sm text-destructive">
          {errorOf('hours')}
        </p>
      )}
      {hours.length < 6 && (
        <div>
          <Button
            type="button"
            variant="outline"
            size="sm"
            onClick={() => onChange([...hours, { from: '11:00', to: '14:00' }])}
          >
            <Plus aria-hidden />
            {t('spending_rules.editor.add_window')}
          </Button>
        </div>
      )}
    </fieldset>
  );
}
