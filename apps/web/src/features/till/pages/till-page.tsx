import { lazy, Suspense, useId, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { TillTerminal } from '@app/contract';
import { can } from '@app/contract/permissions';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuthStore } from '@/lib/auth-store';
import { withThousands } from '@/lib/text';
import { useTillOrders, useTillTerminals, type PlacedOrder, type TillOrder } from '../api/till';
import { Keypad } from '../components/keypad';
import { LoadError } from '../components/load-error';
import { RefundStatus } from '../components/refund-status';
import type { Receipt } from '../components/receipt';
import { TILL_CODE_LENGTH } from '../lib/code-length';
import { declineReason } from '../lib/decline';
import { loadTerminalChoice, saveTerminalChoice } from '../lib/pending-charge';
import { useCharge, type ChargeState } from '../lib/use-charge';
import { useRefund } from '../lib/use-refund';
import { TillButton, TillLabel } from '../components/till-button';

// Not in the till's first load (first-load.test.ts): the camera's QR decoder, loaded with the
// first press of Scan, and the day's orders with their receipts and refunds, loaded as the till
// draws (beside their own request).
const CameraScanner = lazy(() =>
  import('../components/camera-scanner').then(({ CameraScanner }) => ({
    default: CameraScanner,
  })),
);
const OrdersToday = lazy(() =>
  import('../components/orders-today').then(({ OrdersToday }) => ({ default: OrdersToday })),
);

type ReceiptComponent = typeof Receipt;
let receipt: Promise<ReceiptComponent> | undefined;
/** The receipt's module, fetched once, with the first print. */
const loadReceipt = (): Promise<ReceiptComponent> =>
  (receipt ??= import('../components/receipt').then(
    (module) => module.Receipt,
    (error: unknown) => {
      receipt = undefined;
      throw error;
    },
  ));

const digitsOf = (text: string) => text.replace(/\D/g, '');

/** A panel of the till: a bordered box with its heading. */
const PANEL = 'grid gap-4 rounded-xl border bg-card p-4 text-card-foreground shadow-sm';

function ChargeResult({
  state,
  onNext,
  onPrint,
}: {
  state: ChargeState;
  onNext: () => void;
  onPrint: (order: PlacedOrder) => void;
}) {
  const { t } = useTranslation();
  let body: React.ReactNode = null;
  let tone = '';
  if (state.phase === 'sending') {
    body = <p>{t('till.charging')}</p>;
    tone = 'border-border';
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
        <div className="grid grid-cols-2 gap-2">
          {state.phase === 'approved' && (
            <TillButton
              type="button"
              variant="outline"
              aria-label={t('till.print_named', { order: state.order.order_no })}
              onClick={() => onPrint(state.order)}
            >
              {t('till.print')}
            </TillButton>
          )}
          <TillButton
            type="button"
            className={state.phase === 'approved' ? undefined : 'col-span-2'}
            onClick={onNext}
          >
            {t('till.next_charge')}
          </TillButton>
        </div>
      )}
    </div>
  );
}

const INPUT =
  'flex w-full min-w-0 rounded-md border border-input bg-transparent px-3 shadow-xs outline-none placeholder:text-muted-foreground disabled:cursor-not-allowed disabled:opacity-50 focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50';

function ChargePanel({
  terminal,
  charging,
  onPrint,
}: {
  terminal: TillTerminal;
  charging: ReturnType<typeof useCharge>;
  onPrint: (order: PlacedOrder) => void;
}) {
  const { t } = useTranslation();
  const codeId = useId();
  const amountId = useId();
  const partialId = useId();
  const amountField = useRef<HTMLInputElement>(null);
  const [payCode, setPayCode] = useState('');
  const [amount, setAmount] = useState('');
  const [partial, setPartial] = useState(false);
  const [scanning, setScanning] = useState(false);
  const { state, charge, reset } = charging;
  const busy = state.phase === 'sending' || state.phase === 'waiting';
  const code = digitsOf(payCode);
  const tokens = Number(amount);
  const ready = code.length === TILL_CODE_LENGTH && Number.isInteger(tokens) && tokens > 0;

  return (
    <section aria-labelledby="till-charge-heading" className={PANEL}>
      <h2 id="till-charge-heading" className="text-base font-semibold">
        {t('till.charge_title')}
      </h2>
      <form
        className="grid gap-4"
        aria-labelledby="till-charge-heading"
        onSubmit={(event) => {
          event.preventDefault();
          if (!ready || busy) return;
          setScanning(false);
          charge(terminal.id, {
            pay_code: code,
            order_type: 'dine_in',
            items: [{ name: t('till.item_name'), quantity: 1, unit_tokens: tokens }],
            ...(partial ? { partial: true } : {}),
          });
        }}
      >
        <div className="grid gap-1.5">
          <TillLabel htmlFor={codeId}>{t('till.pay_code')}</TillLabel>
          <div className="flex gap-2">
            <input
              id={codeId}
              inputMode="numeric"
              autoComplete="off"
              autoFocus
              className={`${INPUT} h-11 font-mono text-lg tracking-wider placeholder:font-sans placeholder:text-base placeholder:tracking-normal`}
              placeholder={t('till.pay_code_placeholder')}
              value={payCode}
              disabled={busy}
              aria-describedby={`${codeId}-hint`}
              onChange={(event) => setPayCode(event.target.value.replace(/[^\d\s-]/g, ''))}
            />
            <TillButton
              type="button"
              variant="outline"
              size="tall"
              disabled={busy}
              aria-expanded={scanning}
              onClick={() => setScanning((open) => !open)}
            >
              {t('till.scan')}
            </TillButton>
          </div>
          <p id={`${codeId}-hint`} className="text-xs text-muted-foreground">
            {t('till.pay_code_hint', { count: TILL_CODE_LENGTH, typed: code.length })}
          </p>
        </div>
        {scanning && (
          <Suspense fallback={<p className="text-sm">{t('till.camera_starting')}</p>}>
            <CameraScanner
              onCode={(scanned) => {
                setPayCode(scanned);
                setScanning(false);
                amountField.current?.focus();
              }}
              onClose={() => setScanning(false)}
            />
          </Suspense>
        )}
        <div className="grid gap-1.5">
          <TillLabel htmlFor={amountId}>{t('till.amount')}</TillLabel>
          <input
            ref={amountField}
            id={amountId}
            inputMode="numeric"
            autoComplete="off"
            className={`${INPUT} h-12 text-right text-2xl font-semibold tabular-nums`}
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
        <TillButton type="submit" size="big" disabled={!ready || busy}>
          {amount ? t('till.charge_amount', { amount: withThousands(tokens) }) : t('till.charge')}
        </TillButton>
      </form>
      <ChargeResult
        state={state}
        onPrint={onPrint}
        onNext={() => {
          reset();
          setPayCode('');
          setAmount('');
          setPartial(false);
        }}
      />
    </section>
  );
}

/** The order placed by a charge, as the orders' list holds it. */
const rowOf = ({ available_tokens: _, ...order }: PlacedOrder): TillOrder => order;

/**
 * The till (DESIGN 8): the merchant roles' point of sale, phone and tablet first. Picks one of the
 * merchant's terminals (remembered on this device), charges a pay code (scanned or typed), and
 * lists the day's orders (a supervisor's: every terminal's) with receipts and, for supervisors and
 * admins, refunds.
 */
export function TillPage() {
  const { t } = useTranslation();
  const role = useAuthStore((state) => state.user?.type);
  const canRefund = can(role, 'till.refund');
  const terminals = useTillTerminals();
  const selectId = useId();
  const [chosen, setChosen] = useState<number | null>(() => loadTerminalChoice());
  const [printing, setPrinting] = useState<{ order: TillOrder; Receipt: ReceiptComponent } | null>(
    null,
  );
  const list = terminals.data ?? [];
  const terminal = list.find((x) => x.id === chosen) ?? list[0];
  const orders = useTillOrders(terminal ? (canRefund ? undefined : terminal.id) : null);
  const nameOf = (id: number) => list.find((x) => x.id === id)?.name ?? String(id);
  // The page's, not its panels': a charge or a refund left pending by a reload resumes at once,
  // whatever else is still loading (or cannot, offline). Their answers are drawn as they arrive;
  // the orders' list takes them in at once and refreshes after.
  const charging = useCharge((order) => {
    orders.update((rows) => [rowOf(order), ...rows.filter((row) => row.id !== order.id)]);
    orders.refetch();
  });
  const [refunding, setRefunding] = useState<TillOrder | null>(null);
  const refund = useRefund((result) => {
    setRefunding(null);
    orders.update((rows) =>
      rows.map((row) => (row.id === result.order.id ? { ...row, ...result.order } : row)),
    );
    orders.refetch();
  });
  const resetCharge = charging.reset;
  // The receipt (its module fetched on the first print) is drawn, then printed: only it is on
  // paper (till.css).
  const print = (order: TillOrder) => {
    void loadReceipt().then((Receipt) => {
      flushSync(() => setPrinting({ order, Receipt }));
      window.print();
    });
  };

  return (
    <div className="mx-auto grid w-full max-w-5xl gap-4">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight">{t('till.title')}</h1>
          {terminal && <p className="text-sm text-muted-foreground">{terminal.merchant_name}</p>}
        </div>
        {list.length > 0 && terminal && (
          <div className="grid gap-1.5">
            <TillLabel htmlFor={selectId}>{t('till.terminal')}</TillLabel>
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
      {!refunding && <RefundStatus state={refund.state} onDismiss={refund.reset} />}
      {!terminal && charging.state.phase !== 'idle' && (
        <ChargeResult
          state={charging.state}
          onPrint={(order) => print(rowOf(order))}
          onNext={resetCharge}
        />
      )}
      {terminals.isPending ? (
        <Skeleton className="h-80 w-full" />
      ) : terminals.isError ? (
        <LoadError
          title={t('till.terminals_failed')}
          error={terminals.error}
          onRetry={terminals.refetch}
        />
      ) : !terminal ? (
        <p className="text-sm text-muted-foreground">{t('till.no_terminals')}</p>
      ) : (
        <div className="grid items-start gap-4 md:grid-cols-[minmax(0,24rem)_1fr]">
          <ChargePanel
            terminal={terminal}
            charging={charging}
            onPrint={(order) => print(rowOf(order))}
          />
          <Suspense fallback={<Skeleton className="h-24 w-full" />}>
            <OrdersToday
              terminal={terminal}
              terminals={list}
              allTerminals={canRefund}
              canRefund={canRefund}
              orders={orders}
              refund={refund}
              refunding={refunding}
              onRefunding={setRefunding}
              onPrint={print}
            />
          </Suspense>
        </div>
      )}
      {printing && (
        <printing.Receipt
          order={printing.order}
          merchant={terminal?.merchant_name ?? ''}
          terminal={nameOf(printing.order.terminal_id)}
        />
      )}
    </div>
  );
}
