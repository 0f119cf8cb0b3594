import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
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
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { applyServerErrors } from '@/lib/forms';
import { formatDate, formatDateTime, formatIsoDate } from '@/lib/format';
import { useSystemResetDate } from '../api/get-reset-date';
import { useUpdateSystemResetDate } from '../api/update-reset-date';

/** Tomorrow, YYYY-MM-DD: the earliest reset date (the server checks in the programme's zone). */
export const earliestSystemResetDate = (now: Date = new Date()) =>
  formatIsoDate(dayjs(now).add(1, 'day').toDate());

/** The contract body, with the 'after today' rule checked before sending too. */
export const systemResetDateFormSchema = systemResetDateBodySchema.extend({
  reset_date: z
    .string()
    .min(1, 'v.required')
    .pipe(
      calendarDaySchema.refine((day) => day >= earliestSystemResetDate(), 'v.reset_date_future'),
    ),
});

/** The next system reset date: a native date picker and save. */
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
  const { t } = useTranslation();
  const update = useUpdateSystemResetDate();
  const form = useForm({
    resolver: zodResolver(systemResetDateFormSchema),
    defaultValues: { reset_date: current.reset_date },
  });
  const onSubmit = form.handleSubmit((values) =>
    update.mutate(values, {
      onSuccess: () => toast.success(t('toasts.reset_date_saved')),
      onError: (error) => applyServerErrors(form, error),
    }),
  );
  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        <FormField
          control={form.control}
          name="reset_date"
          render={({ field }) => (
            <FormItem className="max-w-xs">
              <FormLabel>{t('reset_period.next_reset_date')}</FormLabel>
              <FormControl>
                <Input type="date" min={earliestSystemResetDate()} {...field} />
              </FormControl>
              <FormDescription>
                {t('reset_period.scheduled', { date: formatDate(current.reset_date) })}
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
