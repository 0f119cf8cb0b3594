import { useState, type FormEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import dayjs from 'dayjs';
import { LoaderCircle } from 'lucide-react';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { calendarDaySchema, systemResetDateBodySchema, type SystemResetDate } from '@app/contract';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Form,
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { DateField } from '@/components/date-picker';
import { Skeleton } from '@/components/ui/skeleton';
import { formResolver } from '@/lib/form-resolver';
import { applyServerErrors } from '@/lib/forms';
import { formatDateTime, formatDayLong, formatIsoDate } from '@/lib/format';
import { useSystemResetDate } from '../api/get-reset-date';
import { useUpdateSystemResetDate } from '../api/update-reset-date';

/** Tomorrow, YYYY-MM-DD: the earliest reset date (the server checks in the programme's zone). */
export const earliestSystemResetDate = (now: Date = new Date()) =>
  formatIsoDate(dayjs(now).add(1, 'day').toDate());

/** The contract body, with the 'after today' rule checked before sending too. */
export const systemResetDateFormSchema = systemResetDateBodySchema.extend({
  reset_date: z
    .string()
    .min(1, 'v.date_required')
    .pipe(
      calendarDaySchema.refine((day) => day >= earliestSystemResetDate(), 'v.reset_date_future'),
    ),
});

/** The next system reset date: the app's date field, the day in words, and save. */
export function SystemResetDateCard() {
  const { t } = useTranslation();
  const resetDate = useSystemResetDate();
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('reset_period.next_title')}</CardTitle>
        <CardDescription>{t('reset_period.next_description')}</CardDescription>
      </CardHeader>
      <CardContent>
        {resetDate.isPending && (
          <Skeleton className="h-20 w-full" data-testid="reset-date-loading" />
        )}
        {resetDate.data && (
          <SystemResetDateForm key={resetDate.data.reset_date} current={resetDate.data} />
        )}
      </CardContent>
    </Card>
  );
}

function SystemResetDateForm({ current }: { current: SystemResetDate }) {
  const { t, i18n } = useTranslation();
  const update = useUpdateSystemResetDate();
  const form = useForm({
    resolver: formResolver(systemResetDateFormSchema),
    defaultValues: { reset_date: current.reset_date },
  });
  // Text in the box that reads as no day: the box says so, and nothing is sent.
  const [isTypedDayInvalid, setTypedDayInvalid] = useState(false);
  const chosen = useWatch({ control: form.control, name: 'reset_date' });
  const submit = form.handleSubmit((values) =>
    update.mutate(values, {
      onSuccess: () =>
        toast.success(
          t('reset_period.saved_for', { date: formatDayLong(values.reset_date, i18n.language) }),
        ),
      onError: (error) => applyServerErrors(form, error),
    }),
  );
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (isTypedDayInvalid) {
      event.preventDefault();
      form.setFocus('reset_date');
      return;
    }
    void submit(event);
  };
  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        <FormField
          control={form.control}
          name="reset_date"
          render={({ field }) => (
            <FormItem className="max-w-md">
              <FormLabel>{t('reset_period.next_reset_date')}</FormLabel>
              <FormControl>
                <DateField
                  name={field.name}
                  value={field.value}
                  min={earliestSystemResetDate()}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  onValidityChange={(valid) => setTypedDayInvalid(!valid)}
                />
              </FormControl>
              {chosen && chosen !== current.reset_date && (
                <p
                  className="text-sm font-medium"
                  data-testid="reset-date-chosen"
                  aria-live="polite"
                >
                  {t('reset_period.will_schedule', { date: formatDayLong(chosen, i18n.language) })}
                </p>
              )}
              <FormDescription data-testid="reset-date-scheduled">
                {t('reset_period.scheduled', {
                  date: formatDayLong(current.reset_date, i18n.language),
                })}
                {current.updated_at &&
                  ` ${t('reset_period.last_changed', { at: formatDateTime(current.updated_at) })}`}
              </FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <Button type="submit" className="w-fit" disabled={update.isPending}>
          {update.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
          {update.isPending ? t('actions.saving') : t('actions.save')}
        </Button>
      </form>
    </Form>
  );
}
