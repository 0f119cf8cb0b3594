import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TokenTransaction } from '@app/contract';
import { Tokens } from '@/components/data-table';
import { describeTransaction, orderTypeLabel, personLabel } from '@/components/ledger/labels';
import { RefundStateBadge } from '@/components/ledger/refund-state-badge';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { formatDateTime } from '@/lib/format';
import { signedTokens } from './transactions-columns';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-sm font-medium">{children}</dd>
    </div>
  );
}

/**
 * A ledger row opened: the row, then its order (number, type, merchant, refund state; the full
 * order through `onOpenOrder` for whoever may read it) or its transfer's other side.
 */
export function TransactionDetailDialog({
  row,
  onClose,
  onOpenOrder,
}: {
  row: TokenTransaction | undefined;
  onClose: () => void;
  onOpenOrder?: ((orderId: number) => void) | undefined;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={row !== undefined} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{row ? describeTransaction(t, row) : ''}</DialogTitle>
          <DialogDescription>{t('transactions.detail_description')}</DialogDescription>
        </DialogHeader>
        {row && <DetailBody row={row} onOpenOrder={onOpenOrder} />}
      </DialogContent>
    </Dialog>
  );
}

function DetailBody({
  row,
  onOpenOrder,
}: {
  row: TokenTransaction;
  onOpenOrder?: ((orderId: number) => void) | undefined;
}) {
  const { t } = useTranslation();
  return (
    <div className="grid gap-6">
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3">
        <Field label={t('transactions.date')}>{formatDateTime(row.occurred_at)}</Field>
        <Field label={t('transactions.event')}>{t(`transactions.events.${row.event}`)}</Field>
        <Field label={t('transactions.type')}>
          {t(`transactions.directions.${row.direction}`)}
        </Field>
        <Field label={t('transactions.company')}>
          {row.company_name} ({row.company_code})
        </Field>
        {row.employee_id !== null && (
          <Field label={t('transactions.employee_name')}>
            {personLabel(row.employee_number, row.employee_name)}
          </Field>
        )}
        <Field label={t('transactions.token_change')}>
          <span className="tabular-nums">{signedTokens(row)}</span>
        </Field>
        {row.balance_before !== null && (
          <Field label={t('transactions.balance_before')}>
            <Tokens value={row.balance_before} />
          </Field>
        )}
        {row.balance_after !== null && (
          <Field label={t('transactions.balance_after')}>
            <Tokens value={row.balance_after} />
          </Field>
        )}
        <Field label={t('transactions.period')}>{row.period}</Field>
        {row.note && <Field label={t('transactions.note')}>{row.note}</Field>}
      </dl>

      {row.order_id !== null && (
        <section aria-labelledby="transaction-order-heading" className="grid gap-3">
          <h3 id="transaction-order-heading" className="font-semibold">
            {t('transactions.detail_order')}
          </h3>
          <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3">
            <Field label={t('transactions.order_no')}>
              <span className="font-mono">{row.order_no}</span>
            </Field>
            {row.ordered_at && (
              <Field label={t('transactions.ordered_at')}>{formatDateTime(row.ordered_at)}</Field>
            )}
            {row.order_type && (
              <Field label={t('transactions.order_type')}>
                {orderTypeLabel(t, row.order_type)}
              </Field>
            )}
            {row.merchant_code && (
              <Field label={t('transactions.merchant')}>
                {row.merchant_name} ({row.merchant_code})
              </Field>
            )}
            <Field label={t('transactions.subtotal')}>
              <Tokens value={row.order_subtotal} />
            </Field>
            <Field label={t('transactions.refunded')}>
              <Tokens value={row.order_refunded_amount} />
            </Field>
            {row.order_refund_state && (
              <Field label={t('transactions.order_status')}>
                <RefundStateBadge state={row.order_refund_state} />
              </Field>
            )}
            {row.refund_reason && (
              <Field label={t('transactions.reason')}>
                {t(`order_history.reasons.${row.refund_reason}`)}
              </Field>
            )}
          </dl>
          {onOpenOrder && (
            <Button
              variant="outline"
              size="sm"
              className="w-fit"
              onClick={() => onOpenOrder(row.order_id!)}
            >
              {t('transactions.open_order', { no: row.order_no })}
            </Button>
          )}
        </section>
      )}

      {row.transfer_id !== null && (
        <section aria-labelledby="transaction-transfer-heading" className="grid gap-3">
          <h3 id="transaction-transfer-heading" className="font-semibold">
            {t('transactions.detail_transfer')}
          </h3>
          <dl className="grid grid-cols-2 gap-4">
            <Field label={t('transactions.transfer_other_side')}>
              {row.employee_id === null
                ? t('transactions.transfer_employee_side', {
                    employee: personLabel(
                      row.counterparty_employee_number,
                      row.counterparty_employee_name,
                    ),
                    id: row.counterparty_transaction_id,
                  })
                : t('transactions.transfer_company_side', { id: row.counterparty_transaction_id })}
            </Field>
            <Field label={t('transactions.amount')}>
              <span className="tabular-nums">{withSign(row)}</span>
            </Field>
          </dl>
        </section>
      )}
    </div>
  );
}

/** The other side moves the same amount the other way. */
const withSign = (row: TokenTransaction) =>
  signedTokens({ amount: row.amount, direction: row.direction === 'sent' ? 'received' : 'sent' });
