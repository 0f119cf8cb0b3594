import { useId, useState } from 'react';
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
import { withThousands } from '@/lib/text';
import type { RefundBody, RefundReason, TillOrder } from '../api/till';
import { declineReason } from '../lib/decline';

const REASONS: RefundReason[] = ['cancelled', 'rejected', 'item_removed'];

/**
 * Confirms a refund of `order` (supervisor and admin): its reason, and for a removed item its
 * amount (what remains, by default); cancelled and rejected refund what remains. Sending is use-refund.ts's (the key kept on the device until an answer); the dialog
 * stays open, its buttons off, while the refund is out, and shows why it failed.
 */
export function RefundDialog({
  order,
  phase,
  error,
  onSubmit,
  onClose,
}: {
  order: TillOrder;
  phase: 'idle' | 'sending' | 'waiting';
  error: unknown;
  onSubmit: (body: RefundBody) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const reasonId = useId();
  const amountId = useId();
  // Bounded by what the wallet paid, less than the bill for a partial order (DESIGN 7).
  const remaining = (order.paid_tokens ?? order.subtotal) - order.refunded_amount;
  const [reason, setReason] = useState<RefundReason>('cancelled');
  const [amount, setAmount] = useState(String(remaining));
  // Cancelled and rejected give back what is left of the order; only a removed item names its
  // amount (the API refuses an amount with any other reason: packages/contract orders.ts).
  const partial = reason === 'item_removed';
  const value = partial ? Number(amount) : remaining;
  const valid = Number.isInteger(value) && value > 0 && value <= remaining;

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && phase === 'idle') onClose();
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
            if (!valid || phase !== 'idle') return;
            onSubmit(partial ? { reason, amount: value } : { reason });
          }}
        >
          <div className="grid gap-1.5">
            <Label htmlFor={reasonId}>{t('till.refund_reason')}</Label>
            <select
              id={reasonId}
              className="h-9 rounded-md border bg-background px-3 text-sm"
              value={reason}
              disabled={phase !== 'idle'}
              onChange={(event) => setReason(event.target.value as RefundReason)}
            >
              {REASONS.map((r) => (
                <option key={r} value={r}>
                  {t(`till.reasons.${r}`)}
                </option>
              ))}
            </select>
          </div>
          {partial && (
            <div className="grid gap-1.5">
              <Label htmlFor={amountId}>{t('till.refund_amount')}</Label>
              <Input
                id={amountId}
                inputMode="numeric"
                value={amount}
                aria-invalid={!valid}
                disabled={phase !== 'idle'}
                onChange={(event) => setAmount(event.target.value.replace(/\D/g, ''))}
              />
            </div>
          )}
          {phase === 'waiting' && (
            <p role="status" className="text-sm text-amber-700 dark:text-amber-400">
              {t('till.waiting')}
            </p>
          )}
          {error !== undefined && phase === 'idle' && (
            <p role="alert" className="text-sm text-destructive">
              {declineReason(error)}
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
