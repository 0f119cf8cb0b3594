import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Employee } from '@app/contract';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { newIdempotencyKey } from '@/lib/api-client';
import { RewardFileStep } from './reward-file-step';
import type { RewardPlan } from './reward-plan';
import { RewardReviewStep } from './reward-review-step';
import { RewardSelectionStep } from './reward-selection-step';

/**
 * The reward-token dialog (company admin, issue 19 item 4): one amount for every selected
 * employee with per-row overrides, or the amounts of a CSV file (employee_id,amount) previewed
 * on the server; then a review (people, total, balance after) before anything moves.
 */
export function RewardTokensDialog({
  open,
  employees,
  balance,
  onClose,
  onRewarded,
}: {
  open: boolean;
  /** The selected employees (may be none: then the file is the only source). */
  employees: Employee[];
  /** The company's token_balance; undefined while loading. */
  balance: number | undefined;
  onClose: () => void;
  onRewarded: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{t('rewards.title')}</DialogTitle>
          <DialogDescription>{t('rewards.description')}</DialogDescription>
        </DialogHeader>
        {open && (
          <RewardFlow
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

type Source = 'selection' | 'file';

function RewardFlow({
  employees,
  balance,
  onDone,
}: {
  employees: Employee[];
  balance: number | undefined;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const sourceName = useId();
  const [source, setSource] = useState<Source>(employees.length > 0 ? 'selection' : 'file');
  const [plan, setPlan] = useState<RewardPlan | null>(null);
  // The boxes keep what was typed when the admin comes back from the review.
  const [common, setCommon] = useState('');
  const [overrides, setOverrides] = useState<Map<number, string>>(() => new Map());
  const [note, setNote] = useState('');
  // One key per opening of the dialog, by selection or by file: a double-click on the final
  // button, a retry after a network error or a second tab's repeat is applied once (decision 0068).
  const [idempotencyKey] = useState(newIdempotencyKey);

  if (plan) {
    return (
      <RewardReviewStep
        plan={plan}
        balance={balance}
        idempotencyKey={idempotencyKey}
        onBack={() => setPlan(null)}
        onDone={onDone}
      />
    );
  }
  return (
    <div className="grid gap-4">
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">{t('rewards.source')}</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {(['selection', 'file'] as const).map((value) => (
            <label key={value} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name={sourceName}
                value={value}
                className="size-4 accent-primary"
                checked={source === value}
                disabled={value === 'selection' && employees.length === 0}
                onChange={() => setSource(value)}
              />
              {value === 'selection'
                ? t('rewards.source_selection', { count: employees.length })
                : t('rewards.source_file')}
            </label>
          ))}
        </div>
      </fieldset>
      {source === 'selection' ? (
        <RewardSelectionStep
          employees={employees}
          balance={balance}
          common={common}
          onCommon={setCommon}
          overrides={overrides}
          onOverrides={setOverrides}
          note={note}
          onNote={setNote}
          onReview={setPlan}
        />
      ) : (
        <RewardFileStep balance={balance} note={note} onNote={setNote} onReview={setPlan} />
      )}
    </div>
  );
}
