import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { distributeBodySchema, tokenAmountSchema, type Employee } from '@app/contract';
import { LoaderCircle } from 'lucide-react';
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
import {
  Form,
  FormControl,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { applyServerErrors, numberField } from '@/lib/forms';
import { withThousands } from '@/lib/format';
import { translateMessage } from '@/lib/messages';
import { useRewardTokens } from '../api/reward-tokens';
import { employeeName } from './employees-columns';

/** The distribute body of the contract, with each amount typed into a box. */
export const rewardTokensFormSchema = distributeBodySchema.omit({ company_id: true }).extend({
  items: z.array(z.object({ employee_id: z.number(), amount: numberField(tokenAmountSchema) })),
  note: z.string().trim().max(500, 'v.invalid'),
});

/** What the boxes add up to so far (unreadable boxes count as 0). */
export function runningTotal(amounts: (string | undefined)[]): number {
  return amounts.reduce((sum, text) => {
    const value = Number(text?.trim() || 0);
    return Number.isFinite(value) && value > 0 ? sum + value : sum;
  }, 0);
}

/**
 * The reward-token dialog (company admin): an amount for each selected employee, the running
 * total against the company's available balance; a total above it blocks the submit.
 */
export function RewardTokensDialog({
  employees,
  balance,
  onClose,
  onRewarded,
}: {
  /** The selected employees; null when closed. */
  employees: Employee[] | null;
  /** The company's token_balance; undefined while loading. */
  balance: number | undefined;
  onClose: () => void;
  onRewarded: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={employees !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>{t('employees.reward_title')}</DialogTitle>
          <DialogDescription>{t('employees.reward_description')}</DialogDescription>
        </DialogHeader>
        {employees && (
          <RewardTokensForm
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

function RewardTokensForm({
  employees,
  balance,
  onDone,
}: {
  employees: Employee[];
  balance: number | undefined;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const rewardTokens = useRewardTokens();
  const form = useForm<
    z.input<typeof rewardTokensFormSchema>,
    unknown,
    z.output<typeof rewardTokensFormSchema>
  >({
    resolver: zodResolver(rewardTokensFormSchema),
    defaultValues: {
      items: employees.map((employee) => ({ employee_id: employee.id, amount: '' })),
      note: '',
    },
  });
  const { fields } = useFieldArray({ control: form.control, name: 'items' });
  const items = useWatch({ control: form.control, name: 'items' });
  const total = runningTotal(items.map((item) => item.amount));
  const exceeds = balance !== undefined && total > balance;

  const onSubmit = form.handleSubmit(({ items: amounts, note }) => {
    if (balance === undefined || total > balance) return;
    rewardTokens.mutate(
      { items: amounts, note: note || undefined },
      {
        onSuccess: () => {
          toast.success(t('employees.rewarded'));
          onDone();
        },
        onError: (error) => applyServerErrors(form, error),
      },
    );
  });

  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        <div className="grid max-h-72 gap-3 overflow-y-auto pr-1">
          {fields.map((field, index) => {
            const employee = employees[index];
            if (!employee) return null;
            return (
              <FormField
                key={field.id}
                control={form.control}
                name={`items.${index}.amount`}
                render={({ field: input }) => (
                  <FormItem>
                    <FormLabel>
                      {t('employees.amount_for', { name: employeeName(employee) })}
                    </FormLabel>
                    <FormControl>
                      <Input inputMode="numeric" autoComplete="off" {...input} />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
            );
          })}
        </div>
        <FormField
          control={form.control}
          name="note"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('employees.note')}</FormLabel>
              <FormControl>
                <Input autoComplete="off" {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <dl className="grid grid-cols-2 gap-1 rounded-md border p-3 text-sm">
          <dt className="text-muted-foreground">{t('employees.total')}</dt>
          <dd className="text-right font-semibold tabular-nums" data-testid="reward-total">
            {withThousands(total)}
          </dd>
          <dt className="text-muted-foreground">{t('employees.available_balance')}</dt>
          <dd className="text-right tabular-nums" data-testid="reward-balance">
            {balance === undefined ? (
              <Skeleton className="ml-auto h-4 w-16" />
            ) : (
              withThousands(balance)
            )}
          </dd>
        </dl>
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
          <Button
            type="submit"
            disabled={rewardTokens.isPending || exceeds || balance === undefined}
          >
            {rewardTokens.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
            {rewardTokens.isPending ? t('actions.saving') : t('employees.reward')}
          </Button>
        </DialogFooter>
      </form>
    </Form>
  );
}
