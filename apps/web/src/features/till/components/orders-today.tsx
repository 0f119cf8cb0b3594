import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { TillTerminal } from '@app/contract';
import { Skeleton } from '@/components/ui/skeleton';
import { withClassMerge } from '@/lib/class-merge-ready';
import { withThousands } from '@/lib/text';
import type { TillOrder, useTillOrders } from '../api/till';
import { tillDateTime } from '../lib/format';
import type { useRefund } from '../lib/use-refund';
import { LoadError } from './load-error';
import { TillButton } from './till-button';

// The refund's dialog (Radix's, with tailwind-merge for its classes) comes with its first opening.
const RefundDialog = lazy(
  withClassMerge(() =>
    import('./refund-dialog').then(({ RefundDialog }) => ({ default: RefundDialog })),
  ),
);

export function OrdersToday({
  terminal,
  terminals,
  allTerminals,
  canRefund,
  orders,
  refund,
  refunding,
  onRefunding,
  onPrint,
}: {
  terminal: TillTerminal;
  terminals: TillTerminal[];
  allTerminals: boolean;
  canRefund: boolean;
  orders: ReturnType<typeof useTillOrders>;
  /** The till's refunds (its page's: a refund left pending resumes wherever the page is). */
  refund: ReturnType<typeof useRefund>;
  /** The order whose refund dialog is open. */
  refunding: TillOrder | null;
  onRefunding: (order: TillOrder | null) => void;
  onPrint: (order: TillOrder) => void;
}) {
  const { t, i18n } = useTranslation();
  const nameOf = (id: number) => terminals.find((x) => x.id === id)?.name ?? String(id);
  const refundOut = refund.state.phase === 'sending' || refund.state.phase === 'waiting';
  const dialogFor =
    refunding && refund.state.phase !== 'idle' && refund.state.pending.order_id === refunding.id
      ? refund.state
      : null;

  return (
    <section aria-labelledby="till-orders-heading" className="grid content-start gap-3">
      <h2 id="till-orders-heading" className="text-base font-semibold">
        {allTerminals ? t('till.orders_all') : t('till.orders_terminal', { name: terminal.name })}
      </h2>
      {orders.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : orders.isError ? (
        <LoadError title={t('till.orders_failed')} error={orders.error} onRetry={orders.refetch} />
      ) : !orders.data || orders.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t('till.no_orders')}</p>
      ) : (
        <ul className="divide-y rounded-md border" data-testid="till-orders">
          {orders.data.map((order) => {
            // What the wallet paid (less than the bill for a partial order): refunds are bounded
            // by it (DESIGN 7).
            const paid = order.paid_tokens ?? order.subtotal;
            const remaining = paid - order.refunded_amount;
            return (
              <li
                key={order.id}
                className="flex flex-wrap items-center justify-between gap-2 px-3 py-2"
                data-testid="till-order"
              >
                <span className="grid">
                  <span className="font-mono text-sm font-medium">{order.order_no}</span>
                  <span className="text-xs text-muted-foreground">
                    <time dateTime={order.ordered_at}>
                      {tillDateTime(order.ordered_at, i18n.language)}
                    </time>
                    {allTerminals ? ` · ${nameOf(order.terminal_id)}` : ''} · {order.company_code} ·{' '}
                    {order.employee_id}
                  </span>
                </span>
                <span className="flex items-center gap-2">
                  <span className="font-semibold tabular-nums">{withThousands(paid)}</span>
                  {paid < order.subtotal && (
                    <span className="rounded-md bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900/40 dark:text-amber-100">
                      {t('till.otherwise_amount', { amount: withThousands(order.subtotal - paid) })}
                    </span>
                  )}
                  {order.refunded_amount > 0 && (
                    <span className="rounded-md bg-secondary px-2 py-0.5 text-xs font-medium text-secondary-foreground">
                      {t('till.refunded_amount', { amount: withThousands(order.refunded_amount) })}
                    </span>
                  )}
                  <TillButton
                    type="button"
                    variant="outline"
                    size="sm"
                    aria-label={t('till.print_named', { order: order.order_no })}
                    onClick={() => onPrint(order)}
                  >
                    {t('till.print')}
                  </TillButton>
                  {canRefund && remaining > 0 && (
                    <TillButton
                      type="button"
                      variant="outline"
                      size="sm"
                      disabled={refundOut}
                      aria-label={t('till.refund_named', { order: order.order_no })}
                      onClick={() => {
                        if (!refundOut) refund.reset();
                        onRefunding(order);
                      }}
                    >
                      {t('till.refund')}
                    </TillButton>
                  )}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      {refunding && (
        <Suspense fallback={null}>
          <RefundDialog
            order={refunding}
            phase={
              dialogFor?.phase === 'sending' || dialogFor?.phase === 'waiting'
                ? dialogFor.phase
                : 'idle'
            }
            error={dialogFor?.phase === 'failed' ? dialogFor.error : undefined}
            onSubmit={(body) => refund.refund(refunding, body)}
            onClose={() => {
              onRefunding(null);
              refund.reset();
            }}
          />
        </Suspense>
      )}
    </section>
  );
}
