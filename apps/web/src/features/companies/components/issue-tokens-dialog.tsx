import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { noteSchema, tokenAmountSchema, topupCompanyBodySchema, type Company } from '@app/contract';
import { FormDialogFooter } from '@/components/forms/form-dialog-footer';
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
import { Input } from '@/components/ui/input';
import { paths } from '@/config/paths';
import { formResolver } from '@/lib/form-resolver';
import { applyServerErrors, numberField } from '@/lib/forms';
import { withThousands } from '@/lib/format';
import { useNotifyDone } from '@/lib/notify';
import { useIssueTokens } from '../api/issue-tokens';

/** The top-up body of the contract, with the amount typed into a box (a whole number > 0). */
export const issueTokensFormSchema = topupCompanyBodySchema.omit({ company_id: true }).extend({
  amount: numberField(tokenAmountSchema),
  note: noteSchema,
});

/** The issue token modal (admin): tokens from the platform to a company's wallet. */
export function IssueTokensDialog({
  company,
  onClose,
}: {
  company: Company | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={company !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('companies.issue_title')}</DialogTitle>
          <DialogDescription>
            {company ? t('companies.issue_description', { name: company.name }) : null}
          </DialogDescription>
        </DialogHeader>
        {company && <IssueTokensForm company={company} onDone={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

function IssueTokensForm({ company, onDone }: { company: Company; onDone: () => void }) {
  const { t } = useTranslation();
  const issueTokens = useIssueTokens();
  const notifyDone = useNotifyDone();
  const form = useForm<
    z.input<typeof issueTokensFormSchema>,
    unknown,
    z.output<typeof issueTokensFormSchema>
  >({
    resolver: formResolver(issueTokensFormSchema),
    defaultValues: { amount: '', note: '' },
  });
  const amountText = useWatch({ control: form.control, name: 'amount' });
  const amount = tokenAmountSchema.safeParse(Number(amountText));
  const after = amount.success ? company.token_balance + amount.data : null;

  const onSubmit = form.handleSubmit(({ amount: value, note }) =>
    issueTokens.mutate(
      { company_id: company.id, amount: value, ...(note ? { note } : {}) },
      {
        onSuccess: (outcome) => {
          if ('approval' in outcome) {
            // At or above the approval threshold: nothing moved yet (decision 0039).
            notifyDone(
              t('approvals.sent_topup', {
                amount: withThousands(outcome.approval.total),
                name: company.name,
              }),
              paths.approvals.getHref(),
            );
          } else {
            notifyDone(
              t('toasts.tokens_issued_to', {
                amount: withThousands(outcome.applied.amount),
                name: company.name,
              }),
              `${paths.companyTransaction.getHref()}?company_id=${company.id}`,
            );
          }
          onDone();
        },
        onError: (error) => applyServerErrors(form, error),
      },
    ),
  );

  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        <dl className="grid grid-cols-2 gap-2 rounded-md border bg-muted/40 p-3 text-sm">
          <dt className="text-muted-foreground">{t('companies.current_balance')}</dt>
          <dd className="text-right font-medium tabular-nums" data-testid="balance-now">
            {withThousands(company.token_balance)}
          </dd>
          <dt className="text-muted-foreground">{t('companies.balance_after')}</dt>
          <dd className="text-right font-medium tabular-nums" data-testid="balance-after">
            {after === null ? '—' : withThousands(after)}
          </dd>
        </dl>
        <FormField
          control={form.control}
          name="amount"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('companies.amount')}</FormLabel>
              <FormControl>
                <Input type="number" inputMode="numeric" min={1} step={1} autoFocus {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="note"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('companies.note')}</FormLabel>
              <FormControl>
                <Input autoComplete="off" maxLength={500} {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormDialogFooter isPending={issueTokens.isPending} submitLabel={t('companies.issue')} />
      </form>
    </Form>
  );
}
