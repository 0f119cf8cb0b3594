import { useEffect, useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TillTerminal } from '@app/contract';
import { can } from '@app/contract/permissions';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuthStore } from '@/lib/auth-store';
import { errorMessageLines } from '@/lib/error-display';
import { formatDateTime, withThousands } from '@/lib/format';
import { useTillOrders, useTillTerminals, type TillOrder } from '../api/till';
import { Keypad } from '../components/keypad';
import { Receipt } from '../components/receipt';
import { RefundDialog } from '../components/refund-dialog';
import { TILL_CODE_LENGTH } from '../lib/code-length';
import { declineReason } from '../lib/decline';
import { loadTerminalChoice, saveTerminalChoice } from '../lib/pending-charge';
import { useCharge, type ChargeState } from '../lib/use-charge';

const digitsOf = (text: string) => text.replace(/\D/g, '');

/** A list that did not load: why, and a retry. */
function LoadError({
  title,
  error,
  onRetry,
}: {
  title: string;
  error: unknown;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div role="alert" className="grid justify-items-start gap-2 rounded-md border p-3 text-sm">
      <p className="font-medium">{title}</p>
      <p className="text-muted-foreground">{errorMessageLines(error).join(' ')}</p>
      <Button type="button" variant="outline" size="sm" onClick={onRetry}>
        {t('till.retry')}
      </Button>
    </div>
  );
}

function ChargeResult({ state, onNext }: { state: ChargeState; onNext: () => void }) {
  const { t } = useTranslation();
  let body: React.ReactNode = null;
  let tone = '';
  if (state.phase === 'sending') {
    body = <p>{t('till.charging')}</p>;
  } else if (state.phase === 'waiting') {
    tone = 'border-amber-500 bg-amber-50 dark:bg-amber-950';
    body = (
      <>
        <p className="font-semibold">{t('till.waiting')}</p>
        <p className="text-sm">{t('till.waiting_hint')}</p>
      </>
    );
  } else if (state.phase === 'approved') {
    const { order } = state;
    const partial = order.to_pay_otherwise > 0;
    tone = partial
      ? 'border-amber-500 bg-amber-50 dark:bg-amber-950'
      : 'border-emerald-600 bg-emerald-50 dark:bg-emerald-950';
    body = (
      <>
        <p className="text-lg font-semibold" data-testid="charge-outcome">
          {partial ? t('till.partial') : t('till.approved')}
        </p>
        {partial && (
          <p className="text-xl font-semibold" data-testid="collect-otherwise">
            {t('till.collect_otherwise', { amount: withThousands(order.to_pay_otherwise) })}
          </p>
        )}
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt>{t('till.order_no')}</dt>
          <dd className="font-mono" data-testid="charge-order-no">
            {order.order_no}
          </dd>
          <dt>{t('till.paid_tokens')}</dt>
          <dd className="tabular-nums" data-testid="charge-paid">
            {withThousands(order.paid_tokens)}
          </dd>
          <dt>{t('till.balance')}</dt>
          <dd className="tabular-nums" data-testid="charge-balance">
            {withThousands(order.available_tokens)}
          </dd>
        </dl>
      </>
    );
  } else if (state.phase === 'declined') {
    tone = 'border-destructive bg-destructive/10';
    body = (
      <>
        <p className="text-lg font-semibold" data-testid="charge-outcome">
          {t('till.declined')}
        </p>
        <p data-testid="decline-reason">{declineReason(state.error)}</p>
      </>
    );
  }
  const done = state.phase === 'approved' || state.phase === 'declined';
  return (
    <div role="status" aria-live="polite" className="grid gap-2" data-testid="charge-result">
      {body && <div className={`grid gap-2 rounded-md border-2 p-3 ${tone}`}>{body}</div>}
      {done && (
        <Button type="button" variant="outline" onClick={onNext}>
          {t('till.next_charge')}
        </Button>
      )}
    </div>
  );
}

function ChargePanel({ terminal }: { terminal: TillTerminal }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const codeId = useId();
  const amountId = useId();
  const partialId = useId();
  const [payCode, setPayCode] = useState('');
  const [amount, setAmount] = useState('');
  const [partial, setPartial] = useState(false);
  const { state, charge, reset } = useCharge(() => {
    void queryClient.invalidateQueries({ queryKey: ['till', 'orders'] });
  });
  const busy = state.phase === 'sending' || state.phase === 'waiting';
  const code = digitsOf(payCode);
  const tokens = Number(amount);
  const ready = code.length === TILL_CODE_LENGTH && Number.isInteger(tokens) && tokens > 0;

  return (
    <Card className="gap-3">
      <CardHeader>
        <CardTitle>
          <h2 className="text-base">{t('till.charge_title')}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <form
          className="grid gap-4"
          aria-label={t('till.charge_title')}
          onSubmit={(event) => {
            event.preventDefault();
            if (!ready || busy) return;
            charge(terminal.id, {
              pay_code: code,
              order_type: 'dine_in',
              items: [{ name: t('till.item_name'), quantity: 1, unit_tokens: tokens }],
              ...(partial ? { partial: true } : {}),
            });
          }}
        >
          <div className="grid gap-1.5">
            <Label htmlFor={codeId}>{t('till.pay_code')}</Label>
            <Input
              id={codeId}
              inputMode="numeric"
              autoComplete="off"
              autoFocus
              className="h-11 font-mono text-lg tracking-wider"
              placeholder={t('till.pay_code_placeholder')}
              value={payCode}
              disabled={busy}
              onChange={(event) => setPayCode(event.target.value.replace(/[^\d\s-]/g, ''))}
            />
            <p className="text-xs text-muted-foreground">
              {t('till.pay_code_hint', { count: TILL_CODE_LENGTH, typed: code.length })}
            </p>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={amountId}>{t('till.amount')}</Label>
            <Input
              id={amountId}
              inputMode="numeric"
              autoComplete="off"
              className="h-12 text-right text-2xl font-semibold tabular-nums"
              value={amount}
              disabled={busy}
              onChange={(event) => setAmount(digitsOf(event.target.value).slice(0, 9))}
            />
          </div>
          <Keypad amount={amount} onChange={setAmount} disabled={busy} />
          <label htmlFor={partialId} className="flex items-center gap-2 text-sm">
            <input
              id={partialId}
              type="checkbox"
              className="size-4"
              checked={partial}
              disabled={busy}
              onChange={(event) => setPartial(event.target.checked)}
            />
            {t('till.allow_partial')}
          </label>
          <Button type="submit" size="lg" className="h-12 text-lg" disabled={!ready || busy}>
            {amount ? t('till.charge_amount', { amount: withThousands(tokens) }) : t('till.charge')}
          </Button>
        </form>
        <div className="mt-4">
          <ChargeResult
            state={state}
            onNext={() => {
              reset();
              setPayCode('');
              setAmount('');
              setPartial(false);
            }}
          />
        </div>
      </CardContent>
    </Card>
  );
}

function OrdersToday({
  terminal,
  terminals,
  allTerminals,
  canRefund,
}: {
  terminal: TillTerminal;
  terminals: TillTerminal[];
  allTerminals: boolean;
  canRefund: boolean;
}) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const orders = useTillOrders(allTerminals ? undefined : terminal.id, true);
  const [refunding, setRefunding] = useState<TillOrder | null>(null);
  const [printing, setPrinting] = useState<TillOrder | null>(null);
  const nameOf = (id: number) => terminals.find((x) => x.id === id)?.name ?? String(id);

  useEffect(() => {
    if (!printing) return;
    window.print();
  }, [printing]);

  return (
    <section aria-labelledby="till-orders-heading" className="grid gap-3">
      <h2 id="till-orders-heading" className="text-base font-semibold">
        {allTerminals ? t('till.orders_all') : t('till.orders_terminal', { name: terminal.name })}
      </h2>
      {orders.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : orders.isError ? (
        <LoadError
          title={t('till.orders_failed')}
          error={orders.error}
          onRetry={() => void orders.refetch()}
        />
      ) : orders.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t('till.no_orders')}</p>
      ) : (
        <ul className="divide-y rounded-md border" data-testid="till-orders">
          {orders.data.map((order) => {
            const remaining = order.subtotal - order.refunded_amount;
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
                      {formatDateTime(order.ordered_at, i18n.language)}
                    </time>
                    {allTerminals ? ` · ${nameOf(order.terminal_id)}` : ''} · {order.company_code} ·{' '}
                    {order.employee_id}
                  </span>
                </span>
                <span className="flex items-center gap-2">
                  <span className="font-semibold tabular-nums">
                    {withThousands(order.subtotal)}
                  </span>
                  {order.refunded_amount > 0 && (
                    <span className="rounded-md bg-secondary px-2 py-0.5 text-xs font-medium text-secondary-foreground">
                      {t('till.refunded_amount', { amount: withThousands(order.refunded_amount) })}
                    </span>
                  )}
                  <Button
                    type="button"
                    variant="outline"
                    size="sm"
                    aria-label={t('till.print_named', { order: order.order_no })}
                    onClick={() => {
                      setPrinting(null);
                      queueMicrotask(() => setPrinting(order));
                    }}
                  >
                    {t('till.print')}
                  </Button>
                  {canRefund && remaining > 0 && (
                    <Button
                      type="button"
                      variant="outline"
                      size="sm"
                      aria-label={t('till.refund_named', { order: order.order_no })}
                      onClick={() => setRefunding(order)}
                    >
                      {t('till.refund')}
                    </Button>
                  )}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      {refunding && (
        <RefundDialog
          order={refunding}
          onClose={() => setRefunding(null)}
          onRefunded={() => {
            setRefunding(null);
            void queryClient.invalidateQueries({ queryKey: ['till', 'orders'] });
          }}
        />
      )}
      {printing && (
        <Receipt
          order={printing}
          merchant={terminal.merchant_name}
          terminal={nameOf(printing.terminal_id)}
        />
      )}
    </section>
  );
}

/**
 * The till (DESIGN 8): the merchant roles' point of sale, phone and tablet first. Picks one of the
 * merchant's terminals (remembered on this device), charges a pay code, and lists the day's orders
 * (a supervisor's: every terminal's) with receipts and, for supervisors and admins, refunds.
 */
export function TillPage() {
  const { t } = useTranslation();
  const role = useAuthStore((state) => state.user?.type);
  const canRefund = can(role, 'till.refund');
  const terminals = useTillTerminals();
  const selectId = useId();
  const [chosen, setChosen] = useState<number | null>(() => loadTerminalChoice());
  const list = terminals.data ?? [];
  const terminal = list.find((x) => x.id === chosen) ?? list[0];

  return (
    <div className="mx-auto grid w-full max-w-5xl gap-4">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight">{t('till.title')}</h1>
          {terminal && <p className="text-sm text-muted-foreground">{terminal.merchant_name}</p>}
        </div>
        {list.length > 0 && terminal && (
          <div className="grid gap-1.5">
            <Label htmlFor={selectId}>{t('till.terminal')}</Label>
            <select
              id={selectId}
              className="h-9 min-w-48 rounded-md border bg-background px-3 text-sm"
              value={terminal.id}
              onChange={(event) => {
                const id = Number(event.target.value);
                setChosen(id);
                saveTerminalChoice(id);
              }}
            >
              {list.map((x) => (
                <option key={x.id} value={x.id}>
                  {x.name} ({x.code})
                </option>
              ))}
            </select>
          </div>
        )}
      </header>
      {terminals.isPending ? (
        <Skeleton className="h-80 w-full" />
      ) : terminals.isError ? (
        <LoadError
          title={t('till.terminals_failed')}
          error={terminals.error}
          onRetry={() => void terminals.refetch()}
        />
      ) : !terminal ? (
        <p className="text-sm text-muted-foreground">{t('till.no_terminals')}</p>
      ) : (
        <div className="grid items-start gap-4 md:grid-cols-[minmax(0,24rem)_1fr]">
          <ChargePanel terminal={terminal} />
          <OrdersToday
            terminal={terminal}
            terminals={list}
            allTerminals={canRefund}
            canRefund={canRefund}
          />
        </div>
      )}
    </div>
  );
}
