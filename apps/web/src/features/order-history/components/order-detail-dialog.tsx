import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { OrderDetail } from '@app/contract';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import {
  Table,
  TableBody,
  TableCell,
  TableFooter,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { errorMessageLines } from '@/lib/error-display';
import { formatDateTime, withThousands } from '@/lib/format';
import { useOrder } from '../api/get-order';
import { orderTypeLabel } from '@/components/ledger/labels';
import { RefundStateBadge } from '@/components/ledger/refund-state-badge';

/** An order's detail: who, where, its items and its refunds. */
export function OrderDetailDialog({
  orderId,
  onClose,
}: {
  orderId: number | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const order = useOrder(orderId);
  return (
    <Dialog open={orderId !== undefined} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle>
            {order.data
              ? t('order_history.detail_title', { no: order.data.order_no })
              : t('order_history.detail_loading')}
          </DialogTitle>
          <DialogDescription>{t('order_history.detail_description')}</DialogDescription>
        </DialogHeader>
        {order.isPending && (
          <div className="grid gap-3" data-testid="order-loading">
            {Array.from({ length: 5 }, (_, index) => (
              <Skeleton key={index} className="h-5 w-full" />
            ))}
          </div>
        )}
        {order.isError && (
          <div role="alert" className="grid gap-2 text-sm">
            <p>{errorMessageLines(order.error).join('\n')}</p>
            <Button
              variant="outline"
              size="sm"
              className="w-fit"
              onClick={() => void order.refetch()}
            >
              {t('table.retry')}
            </Button>
          </div>
        )}
        {order.data && <OrderDetailBody order={order.data} />}
      </DialogContent>
    </Dialog>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-sm font-medium">{children}</dd>
    </div>
  );
}

function OrderDetailBody({ order }: { order: OrderDetail }) {
  const { t } = useTranslation();
  return (
    <div className="grid gap-6">
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3">
        <Field label={t('table.status')}>
          <RefundStateBadge state={order.refund_state} />
        </Field>
        <Field label={t('order_history.ordered_at')}>{formatDateTime(order.ordered_at)}</Field>
        <Field label={t('order_history.order_type')}>{orderTypeLabel(t, order.order_type)}</Field>
        <Field label={t('order_history.company')}>
          {order.company_name} ({order.company_code})
        </Field>
        <Field label={t('order_history.employee')}>
          {order.employee_id}
          {order.employee_name ? ` · ${order.employee_name}` : ''}
        </Field>
        <Field label={t('order_history.merchant')}>
          {order.merchant_name} ({order.merchant_code})
        </Field>
        <Field label={t('order_history.terminal')}>
          {order.terminal_name} ({order.terminal_code})
        </Field>
        <Field label={t('order_history.subtotal')}>
          <span className="tabular-nums">{withThousands(order.subtotal)}</span>
        </Field>
        <Field label={t('order_history.refunded')}>
          <span className="tabular-nums">{withThousands(order.refunded_amount)}</span>
        </Field>
      </dl>

      <section aria-labelledby="order-items-heading" className="grid gap-2">
        <h3 id="order-items-heading" className="font-semibold">
          {t('order_history.items')}
        </h3>
        <div className="rounded-md border">
          <Table aria-labelledby="order-items-heading">
            <TableHeader>
              <TableRow>
                <TableHead>{t('order_history.item')}</TableHead>
                <TableHead className="text-right">{t('order_history.quantity')}</TableHead>
                <TableHead className="text-right">{t('order_history.unit_tokens')}</TableHead>
                <TableHead className="text-right">{t('order_history.line_total')}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {order.items.map((item, index) => (
                <TableRow key={`${item.name}-${index}`}>
                  <TableCell className="whitespace-normal">{item.name}</TableCell>
                  <TableCell className="text-right tabular-nums">
                    {withThousands(item.quantity)}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {withThousands(item.unit_tokens)}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {withThousands(item.quantity * item.unit_tokens)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
            <TableFooter>
              <TableRow>
                <TableCell colSpan={3}>{t('order_history.subtotal')}</TableCell>
                <TableCell className="text-right tabular-nums">
                  {withThousands(order.subtotal)}
                </TableCell>
              </TableRow>
            </TableFooter>
          </Table>
        </div>
      </section>

      <section aria-labelledby="order-refunds-heading" className="grid gap-2">
        <h3 id="order-refunds-heading" className="font-semibold">
          {t('order_history.refunds')}
        </h3>
        {order.refunds.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('order_history.no_refunds')}</p>
        ) : (
          <div className="rounded-md border">
            <Table aria-labelledby="order-refunds-heading">
              <TableHeader>
                <TableRow>
                  <TableHead>{t('order_history.refunded_at')}</TableHead>
                  <TableHead>{t('order_history.reason')}</TableHead>
                  <TableHead className="text-right">{t('order_history.amount')}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {order.refunds.map((refund) => (
                  <TableRow key={refund.transaction_id}>
                    <TableCell>{formatDateTime(refund.occurred_at)}</TableCell>
                    <TableCell>{t(`order_history.reasons.${refund.reason}`)}</TableCell>
                    <TableCell className="text-right tabular-nums">
                      {withThousands(refund.amount)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}
      </section>
    </div>
  );
}
