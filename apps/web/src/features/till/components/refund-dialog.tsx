import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { newIdempotencyKey } from '@/lib/api-client';
import { withThousands } from '@/lib/format';
import { refundAtTill, type RefundReason, type TillOrder } from '../api/till';
import { declineReason } from '../lib/decline';
import { sendUntilAnswered } from '../lib/send-until-answered';

const REASONS: RefundReason[] = ['cancelled', 'rejected', 'item_removed'];

/**
 * Confirms a refund of `order` (supervisor and admin): its reason and amount (what remains, by
 * default). One Idempotency-Key for this opening of the dialog, sent again on every retry.
 */
export function RefundDialog({
  order,
  onClose,
  onRefunded,
}: {
  order: TillOrder;
  onClose: () => void;
  onRefunded: () => void;
}) {
  const { t } = useTranslation();
  const reasonId = useId();
  const amountId = useId();
  const remaining = order.subtotal - order.refunded_amount;
  const [reason, setReason] = useState<RefundReason>('cancelled');
  const [amount, setAmount] = useState(String(remaining));
  const [phase, setPhase] = useState<'idle' | 'sending' | 'waiting'>('idle');
  const [error, setError] = useState<string | null>(null);
  const key = useRef(newIdempotencyKey());
  const controller = useRef(new AbortController());
  const value = Number(amount);
  const valid = Number.isInteger(value) && value > 0 && value <= remaining;

  const submit = () => {
    if (!valid) return;
    setError(null);
    setPhase('sending');
    sendUntilAnswered(
      () =>
        refundAtTill(order.id, key.current, {
          reason,
          ...(value === remaining ? {} : { amount: value }),
        }),
      { signal: controller.current.signal, onWaiting: () => setPhase('waiting') },
    ).then(
      () => onRefunded(),
      (cause: unknown) => {
        if (controller.current.signal.aborted) return;
        setPhase('idle');
        setError(declineReason(cause));
      },
    );
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (open || phase !== 'idle') return;
        controller.current.abort();
        onClose();
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('till.refund_title', { order: order.order_no })}</DialogTitle>
          <DialogDescription>
            {t('till.refund_description', { amount: withThousands(remaining) })}
          </DialogDescription>
        </DialogHeader>
        <form
          className="grid gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <div className="grid gap-1.5">
            <Label htmlFor={reasonId}>{t('till.refund_reason')}</Label>
            <select
              id={reasonId}
              className="h-9 rounded-md border bg-background px-3 text-sm"
              value={reason}
              onChange={(event) => setReason(event.target.value as RefundReason)}
            >
              {REASONS.map((r) => (
                <option key={r} value={r}>
                  {t(`till.reasons.${r}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={amountId}>{t('till.refund_amount')}</Label>
            <Input
              id={amountId}
              inputMode="numeric"
              value={amount}
              aria-invalid={!valid}
              onChange={(event) => setAmount(event.target.value.replace(/\D/g, ''))}
            />
          </div>
          {phase === 'waiting' && (
            <p role="status" className="text-sm text-amber-700 dark:text-amber-400">
              {t('till.waiting')}
            </p>
          )}
          {error && (
            <p role="alert" className="text-sm text-destructive">
              {error}
            </p>
          )}
          <DialogFooter>
            <Button
              type="button"
              variant="outline"
              disabled={phase !== 'idle'}
              onClick={() => onClose()}
            >
              {t('actions.cancel')}
            </Button>
            <Button type="submit" variant="destructive" disabled={!valid || phase !== 'idle'}>
              {t('till.refund_confirm', { amount: withThousands(valid ? value : 0) })}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
