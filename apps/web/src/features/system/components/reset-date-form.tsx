import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import dayjs from 'dayjs';
import { LoaderCircle } from 'lucide-react';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { calendarDaySchema, resetDateBodySchema, type ResetDate } from '@app/contract';
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
import { useResetDate } from '../api/get-reset-date';
import { useUpdateResetDate } from '../api/update-reset-date';

/** Tomorrow, YYYY-MM-DD: the earliest reset date (the server checks in the programme's zone). */
export const earliestResetDate = (now: Date = new Date()) =>
  formatIsoDate(dayjs(now).add(1, 'day').toDate());

/** The contract body, with the 'after today' rule checked before sending too. */
export const resetDateFormSchema = resetDateBodySchema.extend({
  reset_date: z
    .string()
    .min(1, 'v.required')
    .pipe(calendarDaySchema.refine((day) => day >= earliestResetDate(), 'v.reset_date_future')),
});

/** The next system reset date: a native date picker and save. */
export function ResetDateCard() {
  const { t } = useTranslation();
  const resetDate = useResetDate();
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
          <ResetDateForm key={resetDate.data.reset_date} current={resetDate.data} />
        )}
      </CardContent>
    </Card>
  );
}

function ResetDateForm({ current }: { current: ResetDate }) {
  const { t } = useTranslation();
  const update = useUpdateResetDate();
  const form = useForm({
    resolver: zodResolver(resetDateFormSchema),
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
                <Input type="date" min={earliestResetDate()} {...field} />
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
