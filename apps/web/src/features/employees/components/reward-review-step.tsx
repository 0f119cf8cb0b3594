import { useState } from 'react';
import { LoaderCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { DialogFooter } from '@/components/ui/dialog';
import { paths } from '@/config/paths';
import { errorMessageLines } from '@/lib/error-display';
import { withThousands } from '@/lib/format';
import { useNotifyDone } from '@/lib/notify';
import { useRewardTokens } from '../api/reward-tokens';
import type { RewardPlan } from './reward-plan';
import { RewardTotals } from './reward-totals';

/** The last look before tokens move: people, total, balance after, and who gets what. */
export function RewardReviewStep({
  plan,
  balance,
  idempotencyKey,
  onBack,
  onDone,
}: {
  plan: RewardPlan;
  balance: number | undefined;
  idempotencyKey: string;
  onBack: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const rewardTokens = useRewardTokens();
  const notifyDone = useNotifyDone();
  const [problem, setProblem] = useState<string[] | null>(null);
  const people = plan.lines.length;

  const onConfirm = () => {
    setProblem(null);
    rewardTokens.mutate(
      {
        items: plan.lines.map(({ employee_id, amount }) => ({ employee_id, amount })),
        note: plan.note || undefined,
        idempotencyKey,
      },
      {
        onSuccess: (outcome) => {
          if ('approval' in outcome) {
            // At or above the approval threshold: nothing moved yet (decision 0039).
            notifyDone(
              t('approvals.sent_distribution', {
                total: withThousands(outcome.approval.total),
                count: people,
              }),
              paths.approvals.getHref(),
            );
          } else {
            const result = outcome.applied;
            notifyDone(
              people === 1
                ? t('rewards.done_one', {
                    total: withThousands(result.total),
                    name: plan.lines[0]!.label,
                  })
                : t('rewards.done_many', { total: withThousands(result.total), count: people }),
              paths.employeeTransaction.getHref(),
            );
          }
          onDone();
        },
        onError: (error) => setProblem(errorMessageLines(error)),
      },
    );
  };

  return (
    <div className="grid gap-4" data-testid="reward-review">
      <h3 className="text-base font-semibold">{t('rewards.review_title')}</h3>
      <RewardTotals people={people} total={plan.total} balance={balance} />
      {plan.note && (
        <p className="text-sm">
          <span className="text-muted-foreground">{t('rewards.note_label')}</span> {plan.note}
        </p>
      )}
      <details className="rounded-md border p-3 text-sm">
        <summary className="cursor-pointer">{t('rewards.review_list', { count: people })}</summary>
        <ul className="mt-2 grid max-h-48 gap-1 overflow-y-auto">
          {plan.lines.map((line) => (
            <li key={line.employee_id} className="flex justify-between gap-4">
              <span>{line.label}</span>
              <span className="tabular-nums">{withThousands(line.amount)}</span>
            </li>
          ))}
        </ul>
      </details>
      {problem && (
        <p role="alert" className="text-sm whitespace-pre-line text-destructive">
          {problem.join('\n')}
        </p>
      )}
      <DialogFooter className="pt-2">
        <Button type="button" variant="outline" disabled={rewardTokens.isPending} onClick={onBack}>
          {t('actions.back')}
        </Button>
        <Button type="button" disabled={rewardTokens.isPending} onClick={onConfirm}>
          {rewardTokens.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
          {rewardTokens.isPending
            ? t('actions.saving')
            : t('rewards.confirm', { total: withThousands(plan.total), count: people })}
        </Button>
      </DialogFooter>
    </div>
  );
}
