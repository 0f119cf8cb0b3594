import { useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { holidaySchema, type Holiday } from '@app/contract';
import { DateField } from '@/components/date-picker';
import { FormDialogFooter } from '@/components/forms/form-dialog-footer';
import { TextField } from '@/components/forms/text-field';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import {
  Form,
  FormControl,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { formResolver } from '@/lib/form-resolver';

/** Adding a day, or editing the day at `index` of the list. */
export type HolidayDialogState = { mode: 'add' } | { mode: 'edit'; index: number } | null;

/**
 * The day modal: a date of the year on screen, once in the list, and its name (1 to 100
 * characters): the contract's rules, checked before the day joins the list.
 */
export function HolidayDayDialog({
  state,
  year,
  days,
  onSave,
  onClose,
}: {
  state: HolidayDialogState;
  year: number;
  days: Holiday[];
  /** The day, and the index it replaces (edit) or none (add). */
  onSave: (day: Holiday, index: number | undefined) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const editing = state?.mode === 'edit' ? days[state.index] : undefined;
  return (
    <Dialog open={state !== null} onOpenChange={(next) => !next && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{editing ? t('holidays.edit_title') : t('holidays.add_title')}</DialogTitle>
          <DialogDescription>{t('holidays.day_description', { year })}</DialogDescription>
        </DialogHeader>
        {state && (
          <HolidayDayForm
            key={state.mode === 'edit' ? state.index : 'add'}
            year={year}
            day={editing}
            others={days.filter((day) => day !== editing).map((day) => day.date)}
            onSave={(day) => {
              onSave(day, state.mode === 'edit' ? state.index : undefined);
              onClose();
            }}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function HolidayDayForm({
  year,
  day,
  others,
  onSave,
}: {
  year: number;
  day: Holiday | undefined;
  others: string[];
  onSave: (day: Holiday) => void;
}) {
  const { t } = useTranslation();
  const schema = holidaySchema.superRefine((value, ctx) => {
    if (!value.date.startsWith(`${year}-`)) {
      ctx.addIssue({ code: 'custom', path: ['date'], message: 'v.date_invalid' });
    } else if (others.includes(value.date)) {
      ctx.addIssue({ code: 'custom', path: ['date'], message: 'v.holiday_duplicate' });
    }
  });
  const form = useForm<Holiday, unknown, Holiday>({
    resolver: formResolver<Holiday>(schema),
    defaultValues: { date: day?.date ?? '', name: day?.name ?? '' },
  });
  // Text in the date box that reads as no day: the box says so, and nothing is kept.
  const [isTypedDayInvalid, setTypedDayInvalid] = useState(false);
  const submit = form.handleSubmit(onSave);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.stopPropagation();
    if (isTypedDayInvalid) {
      event.preventDefault();
      form.setFocus('date');
      return;
    }
    void submit(event);
  };
  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        <FormField
          control={form.control}
          name="date"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('holidays.date')}</FormLabel>
              <FormControl>
                <DateField
                  name={field.name}
                  value={field.value}
                  min={`${year}-01-01`}
                  max={`${year}-12-31`}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  onValidityChange={(valid) => setTypedDayInvalid(!valid)}
                />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <TextField name="name" label={t('holidays.name')} />
        <FormDialogFooter
          isPending={false}
          submitLabel={day ? t('holidays.keep_day') : t('holidays.add_day')}
        />
      </form>
    </Form>
  );
}
