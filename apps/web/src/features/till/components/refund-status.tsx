import { useTranslation } from 'react-i18next';
import { withThousands } from '@/lib/text';
import { declineReason } from '../lib/decline';
import type { RefundState } from '../lib/use-refund';
import { TillButton } from './till-button';

/** What became of the last refund (or of one resumed after a reload): out, done or refused. */
export function RefundStatus({ state, onDismiss }: { state: RefundState; onDismiss: () => void }) {
  const { t } = useTranslation();
  if (state.phase === 'idle') return null;
  const order = state.pending.order_no;
  const settled = state.phase === 'refunded' || state.phase === 'failed';
  return (
    <div
      role="status"
      data-testid="refund-status"
      className={`grid justify-items-start gap-2 rounded-md border-2 p-3 text-sm ${
        state.phase === 'failed'
          ? 'border-destructive bg-destructive/10'
          : state.phase === 'refunded'
            ? 'border-emerald-600 bg-emerald-50 dark:bg-emerald-950'
            : 'border-amber-500 bg-amber-50 dark:bg-amber-950'
      }`}
    >
      {state.phase === 'refunded' ? (
        <p className="font-semibold">
          {t('till.refund_done', {
            order,
            amount: withThousands(state.result.refund.amount),
          })}
        </p>
      ) : state.phase === 'failed' ? (
        <>
          <p className="font-semibold">{t('till.refund_failed', { order })}</p>
          <p>{declineReason(state.error)}</p>
        </>
      ) : (
        <>
          <p className="font-semibold">
            {state.phase === 'waiting'
              ? t('till.refund_waiting', { order })
              : t('till.refunding', { order })}
          </p>
          {state.phase === 'waiting' && <p>{t('till.refund_waiting_hint')}</p>}
        </>
      )}
      {settled && (
        <TillButton type="button" variant="outline" size="sm" onClick={onDismiss}>
          {t('till.dismiss')}
        </TillButton>
      )}
    </div>
  );
}
