import { useState } from 'react';
import { LoaderCircle } from 'lucide-react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { noteSchema, tokenAmountSchema, topupCompanyBodySchema, type Company } from '@app/contract';
import { FormDialogFooter } from '@/components/forms/form-dialog-footer';
import { Button } from '@/components/ui/button';
import {
  Dialog,
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
import { paths } from '@/config/paths';
import { newIdempotencyKey } from '@/lib/api-client';
import { errorMessageLines } from '@/lib/error-display';
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
        {company && <IssueTokensForm key={company.id} company={company} onDone={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

/** What the admin is about to confirm: the amount and the note, for the company named. */
interface IssuePlan {
  amount: number;
  note: string;
}

function IssueTokensForm({ company, onDone }: { company: Company; onDone: () => void }) {
  const { t } = useTranslation();
  // One key per opening of the dialog: a double-click or a retry resends it (decision 0068).
  const [idempotencyKey] = useState(newIdempotencyKey);
  const [plan, setPlan] = useState<IssuePlan | null>(null);
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
    setPlan({ amount: value, note: note ?? '' }),
  );

  if (plan) {
    return (
      <IssueReview
        company={company}
        plan={plan}
        idempotencyKey={idempotencyKey}
        onBack={(error) => {
          if (error) applyServerErrors(form, error);
          setPlan(null);
        }}
        onDone={onDone}
      />
    );
  }

  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        <Balances company={company} after={after} />
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
        <FormDialogFooter isPending={false} submitLabel={t('companies.issue')} />
      </form>
    </Form>
  );
}

function Balances({ company, after }: { company: Company; after: number | null }) {
  const { t } = useTranslation();
  return (
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
  );
}

/**
 * The last look before tokens move (issue 39): the company and the amount named, Back or
 * confirm. The confirm button waits while the request is out; the dialog's key is what makes a
 * second click, a retry or a second tab harmless.
 */
function IssueReview({
  company,
  plan,
  idempotencyKey,
  onBack,
  onDone,
}: {
  company: Company;
  plan: IssuePlan;
  idempotencyKey: string;
  /** Back to the form; with the server's refusal, shown on its fields. */
  onBack: (error?: unknown) => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const issueTokens = useIssueTokens();
  const notifyDone = useNotifyDone();
  const [problem, setProblem] = useState<{ lines: string[]; error: unknown } | null>(null);
  const amount = withThousands(plan.amount);

  const onConfirm = () => {
    setProblem(null);
    issueTokens.mutate(
      {
        company_id: company.id,
        amount: plan.amount,
        ...(plan.note ? { note: plan.note } : {}),
        idempotencyKey,
      },
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
        onError: (error) => setProblem({ lines: errorMessageLines(error), error }),
      },
    );
  };

  return (
    <div className="grid gap-4" data-testid="issue-review">
      <h3 className="text-base font-semibold">{t('companies.issue_review_title')}</h3>
      <p className="text-sm">
        {t('companies.issue_review_message', { amount, name: company.name })}
      </p>
      <Balances company={company} after={company.token_balance + plan.amount} />
      {plan.note && (
        <p className="text-sm break-words">
          <span className="text-muted-foreground">{t('rewards.note_label')}</span> {plan.note}
        </p>
      )}
      {problem && (
        <p role="alert" className="text-sm whitespace-pre-line text-destructive">
          {problem.lines.join('\n')}
        </p>
      )}
      <DialogFooter className="pt-2">
        <Button
          type="button"
          variant="outline"
          disabled={issueTokens.isPending}
          onClick={() => onBack(problem?.error)}
        >
          {t('actions.back')}
        </Button>
        <Button type="button" autoFocus disabled={issueTokens.isPending} onClick={onConfirm}>
          {issueTokens.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
          {issueTokens.isPending
            ? t('actions.saving')
            : t('companies.issue_confirm', { amount, name: company.name })}
        </Button>
      </DialogFooter>
    </div>
  );
}
