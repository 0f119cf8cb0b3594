import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { tokenAmountSchema, type ApprovalPolicy } from '@app/contract';
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
import { DetailError } from '@/components/layout/detail-layout';
import { formResolver } from '@/lib/form-resolver';
import { applyServerErrors, nullableNumberField, numberText } from '@/lib/forms';
import { useNotifyDone } from '@/lib/notify';
import { useApprovalPolicy, useSetApprovalPolicy } from '../api/approval-policy';

/** The policy body with each threshold typed into a box; an empty box turns that rule off. */
export const approvalPolicyFormSchema = z.object({
  top_up_threshold: nullableNumberField(tokenAmountSchema),
  distribution_threshold: nullableNumberField(tokenAmountSchema),
});

/** The admin's thresholds (GET/PUT /sys/approval-policy), on the Approvals screen. */
export function ApprovalPolicyCard() {
  const { t } = useTranslation();
  const policy = useApprovalPolicy(true);
  return (
    <Card className="mb-6" data-testid="approval-policy">
      <CardHeader>
        <CardTitle>
          <h2 className="text-base font-semibold">{t('approvals.policy_title')}</h2>
        </CardTitle>
        <CardDescription>{t('approvals.policy_description')}</CardDescription>
      </CardHeader>
      <CardContent>
        {policy.isPending ? (
          <Skeleton className="h-20 w-full" />
        ) : policy.isError ? (
          <DetailError error={policy.error} onRetry={() => void policy.refetch()} />
        ) : (
          <PolicyForm policy={policy.data} />
        )}
      </CardContent>
    </Card>
  );
}

function PolicyForm({ policy }: { policy: ApprovalPolicy }) {
  const { t } = useTranslation();
  const save = useSetApprovalPolicy();
  const notifyDone = useNotifyDone();
  const form = useForm<
    z.input<typeof approvalPolicyFormSchema>,
    unknown,
    z.output<typeof approvalPolicyFormSchema>
  >({
    resolver: formResolver(approvalPolicyFormSchema),
    defaultValues: {
      top_up_threshold: numberText(policy.top_up_threshold),
      distribution_threshold: numberText(policy.distribution_threshold),
    },
  });
  const onSubmit = form.handleSubmit((body) =>
    save.mutate(body, {
      onSuccess: () => notifyDone(t('approvals.policy_saved')),
      onError: (error) => applyServerErrors(form, error),
    }),
  );
  const field = (name: 'top_up_threshold' | 'distribution_threshold') => (
    <FormField
      control={form.control}
      name={name}
      render={({ field: input }) => (
        <FormItem>
          <FormLabel>{t(`approvals.${name}`)}</FormLabel>
          <FormControl>
            <Input
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              placeholder={t('approvals.off')}
              {...input}
            />
          </FormControl>
          <FormDescription>{t('approvals.threshold_hint')}</FormDescription>
          <FormMessage />
        </FormItem>
      )}
    />
  );
  return (
    <Form {...form}>
      <form
        noValidate
        className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start"
        onSubmit={onSubmit}
      >
        {field('top_up_threshold')}
        {field('distribution_threshold')}
        <Button type="submit" className="sm:mt-[22px]" disabled={save.isPending}>
          {save.isPending ? t('actions.saving') : t('actions.save')}
        </Button>
      </form>
    </Form>
  );
}
