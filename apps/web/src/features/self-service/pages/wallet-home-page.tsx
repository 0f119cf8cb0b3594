import { useEffect, useState } from 'react';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { OrderDecline, TokenTransaction, Wallet } from '@app/contract';
import { DetailError } from '@/components/layout/detail-layout';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { declineReason, describeException, describeRules } from '@/lib/describe-rules';
import { formatDateTime, formatDayLong, formatMonthWords, withThousands } from '@/lib/format';
import { PayCodeCard } from '../components/pay-code-card';
import { useRecentTransactions, useWallet } from '../api/get-wallet';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The time left until `at`, in the largest whole unit: days, else hours, else "soon". */
export function countdownOf(
  now: Date,
  at: Date,
): { unit: 'days' | 'hours'; count: number } | { unit: 'soon' } {
  const left = at.getTime() - now.getTime();
  if (left >= DAY) return { unit: 'days', count: Math.floor(left / DAY) };
  if (left >= HOUR) return { unit: 'hours', count: Math.floor(left / HOUR) };
  return { unit: 'soon' };
}

/** The current time, moving on every minute (the countdown is in days and hours). */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

function Balance({ wallet }: { wallet: Wallet }) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  const resetAt = new Date(wallet.next_reset_at);
  const countdown = countdownOf(now, resetAt);
  const when =
    countdown.unit === 'soon'
      ? t('self_service.countdown_soon')
      : t(`self_service.countdown_${countdown.unit}`, { count: countdown.count });
  return (
    <Card className="gap-2" data-testid="wallet-balance">
      <CardHeader>
        <CardTitle className="text-sm font-medium text-muted-foreground">
          {t('self_service.available')}
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        <p className="text-5xl font-semibold tracking-tight tabular-nums">
          {withThousands(wallet.available_tokens)}
          <span className="ml-2 text-base font-normal text-muted-foreground">
            {t('self_service.tokens')}
          </span>
        </p>
        {wallet.remaining_today != null && (
          <p className="text-base font-medium" data-testid="remaining-today">
            {t('spending_rules.wallet.remaining_today', {
              count: wallet.remaining_today,
              amount: withThousands(wallet.remaining_today),
            })}
          </p>
        )}
        <p className="text-sm" data-testid="expiring">
          {t('self_service.expiring', {
            count: wallet.expiring_tokens,
            amount: withThousands(wallet.expiring_tokens),
            date: formatDayLong(dayjs(resetAt).format('YYYY-MM-DD'), i18n.language),
            countdown: when,
          })}
        </p>
      </CardContent>
    </Card>
  );
}

function Spending({ wallet }: { wallet: Wallet }) {
  const { t, i18n } = useTranslation();
  return (
    <Card className="gap-2">
      <CardHeader>
        <CardTitle className="text-sm font-medium text-muted-foreground">
          {t('self_service.spent', { month: formatMonthWords(wallet.token_month, i18n.language) })}
        </CardTitle>
      </CardHeader>
      <CardContent>
        <p className="text-2xl font-semibold tabular-nums" data-testid="wallet-spent">
          {withThousands(wallet.spent_tokens)}
        </p>
      </CardContent>
    </Card>
  );
}

/** The company's rules in force today in plain words, and the employee's own exception (DESIGN 7). */
function SpendingRules({ wallet }: { wallet: Wallet }) {
  const { t, i18n } = useTranslation();
  const rules = wallet.spending_rules ?? null;
  const exception = wallet.spending_exception ?? null;
  return (
    <Card className="gap-2">
      <CardHeader>
        <CardTitle>
          <h2 className="text-base">{t('spending_rules.wallet.rules_title')}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-2 text-sm" data-testid="wallet-rules">
        <p>{rules ? describeRules(rules, t) : t('spending_rules.wallet.no_rules')}</p>
        {exception && (
          <p data-testid="wallet-exception">
            {exception.until
              ? t('spending_rules.wallet.exception_until', {
                  date: formatDayLong(exception.until, i18n.language),
                  text: describeException(exception, t),
                })
              : t('spending_rules.wallet.exception', { text: describeException(exception, t) })}
          </p>
        )}
      </CardContent>
    </Card>
  );
}

/** The employee's latest declined orders, each with its reason (the code's message, filled). */
function Declines({ declines }: { declines: OrderDecline[] }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="declines-heading" className="grid gap-3">
      <h2 id="declines-heading" className="text-base font-semibold">
        {t('spending_rules.wallet.declines_title')}
      </h2>
      {declines.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t('spending_rules.wallet.no_declines')}</p>
      ) : (
        <ul className="divide-y rounded-md border" data-testid="wallet-declines">
          {declines.map((decline) => (
            <li key={decline.id} className="grid gap-0.5 px-3 py-2">
              <span className="flex items-center justify-between gap-3">
                <span className="text-sm font-medium">{decline.merchant_name ?? ''}</span>
                <span
                  className="font-semibold tabular-nums text-muted-foreground line-through"
                  aria-label={t('spending_rules.wallet.declined_amount', {
                    amount: withThousands(decline.subtotal),
                  })}
                >
                  {withThousands(decline.subtotal)}
                </span>
              </span>
              <span className="text-sm text-destructive">{declineReason(decline, t)}</span>
              <time
                dateTime={decline.declined_at}
                className="text-xs text-muted-foreground tabular-nums"
              >
                {formatDateTime(decline.declined_at)}
              </time>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function RecentTransactions() {
  const { t } = useTranslation();
  const recent = useRecentTransactions();
  return (
    <section aria-labelledby="recent-heading" className="grid gap-3">
      <h2 id="recent-heading" className="text-base font-semibold">
        {t('self_service.recent')}
      </h2>
      {recent.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : recent.isError ? (
        <DetailError
          title={t('self_service.load_failed')}
          error={recent.error}
          onRetry={() => void recent.refetch()}
        />
      ) : recent.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t('self_service.no_transactions')}</p>
      ) : (
        <ul className="divide-y rounded-md border" data-testid="recent-transactions">
          {recent.data.map((row) => (
            <TransactionItem key={row.id} row={row} />
          ))}
        </ul>
      )}
    </section>
  );
}

function TransactionItem({ row }: { row: TokenTransaction }) {
  const { t } = useTranslation();
  const received = row.direction === 'received';
  return (
    <li className="flex items-center justify-between gap-3 px-3 py-2">
      <span className="grid">
        <span className="text-sm font-medium">
          {t(`transactions.events.${row.event}`)}
          {row.merchant_name ? ` · ${row.merchant_name}` : ''}
        </span>
        <time dateTime={row.occurred_at} className="text-xs text-muted-foreground tabular-nums">
          {formatDateTime(row.occurred_at)}
        </time>
      </span>
      <span
        className={`font-semibold tabular-nums ${received ? 'text-emerald-700 dark:text-emerald-400' : ''}`}
        aria-label={t(`self_service.${received ? 'received' : 'sent'}`, {
          amount: withThousands(row.amount),
        })}
      >
        {received ? '+' : '−'}
        {withThousands(row.amount)}
      </span>
    </li>
  );
}

/**
 * The employee's home (company_employee, decision 0033), phone first: its balance, what expires
 * at the next reset and when, what it may still spend today, this month's spending, the pay code
 * for the till, its spending rules and declined orders (DESIGN 7) and its own latest ledger rows.
 */
export function WalletHomePage() {
  const { t } = useTranslation();
  const wallet = useWallet();
  return (
    <div className="mx-auto grid w-full max-w-md gap-4">
      <header className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">{t('self_service.title')}</h1>
        {wallet.data && (
          <p className="text-sm text-muted-foreground">
            {[wallet.data.name, wallet.data.company_name].filter(Boolean).join(' · ')}
          </p>
        )}
      </header>
      {wallet.isPending ? (
        <>
          <Skeleton className="h-40 w-full" />
          <Skeleton className="h-24 w-full" />
        </>
      ) : wallet.isError ? (
        <DetailError
          title={t('self_service.load_failed')}
          error={wallet.error}
          onRetry={() => void wallet.refetch()}
        />
      ) : (
        <>
          <Balance wallet={wallet.data} />
          <Spending wallet={wallet.data} />
          <PayCodeCard />
          <SpendingRules wallet={wallet.data} />
          {wallet.data.declines && <Declines declines={wallet.data.declines} />}
        </>
      )}
      <RecentTransactions />
    </div>
  );
}
