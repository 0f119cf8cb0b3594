import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { withThousands } from '@/lib/format';
import { translateMessage } from '@/lib/messages';

/** Total, balance now and after, as the dialog's steps show them. */
export function RewardTotals({
  people,
  total,
  balance,
}: {
  people: number;
  total: number;
  balance: number | undefined;
}) {
  const { t } = useTranslation();
  const after = balance === undefined ? undefined : balance - total;
  const pending = <Skeleton className="ml-auto h-4 w-16" />;
  return (
    <dl
      aria-label={t('rewards.totals')}
      className="grid grid-cols-2 gap-x-4 gap-y-1 rounded-md border p-3 text-sm"
    >
      <dt className="text-muted-foreground">{t('rewards.people')}</dt>
      <dd className="text-right tabular-nums" data-testid="reward-people">
        {withThousands(people)}
      </dd>
      <dt className="text-muted-foreground">{t('rewards.total')}</dt>
      <dd className="text-right font-semibold tabular-nums" data-testid="reward-total">
        {withThousands(total)}
      </dd>
      <dt className="text-muted-foreground">{t('rewards.balance_now')}</dt>
      <dd className="text-right tabular-nums" data-testid="reward-balance">
        {balance === undefined ? pending : withThousands(balance)}
      </dd>
      <dt className="text-muted-foreground">{t('rewards.balance_after')}</dt>
      <dd
        className={`text-right tabular-nums ${after !== undefined && after < 0 ? 'font-semibold text-destructive' : ''}`}
        data-testid="reward-balance-after"
      >
        {after === undefined ? pending : withThousands(after)}
      </dd>
    </dl>
  );
}

/**
 * Under the boxes of either source: the note, the totals against the balance, and the alert when
 * the total is more than the balance.
 */
export function RewardNoteAndTotals({
  note,
  onNote,
  people,
  total,
  balance,
  exceeds,
}: {
  note: string;
  onNote: (value: string) => void;
  people: number;
  total: number;
  balance: number | undefined;
  exceeds: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <>
      <div className="grid gap-2">
        <Label htmlFor={id}>{t('employees.note')}</Label>
        <Input
          id={id}
          autoComplete="off"
          maxLength={500}
          value={note}
          onChange={(event) => onNote(event.target.value)}
        />
      </div>
      <RewardTotals people={people} total={total} balance={balance} />
      {exceeds && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {translateMessage('v.tokens_exceed', t)}
        </p>
      )}
    </>
  );
}
