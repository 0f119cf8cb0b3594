import type { ReactNode } from 'react';
import type { TFunction } from 'i18next';
import type { TokenTransaction } from '@app/contract';
import { DateTime, Tokens } from '@/components/data-table';
import { describeTransaction, orderTypeLabel } from '@/components/ledger/labels';
import { RefundStateBadge } from '@/components/ledger/refund-state-badge';
import { withThousands } from '@/lib/format';
import type { TransactionScope } from '../search';

export interface TransactionColumn {
  id: string;
  header: string;
  className?: string;
  cell: (row: TokenTransaction) => ReactNode;
}

/** `+1,500` for tokens received, `−1,500` (a minus sign) for tokens sent. */
export function signedTokens(row: Pick<TokenTransaction, 'amount' | 'direction'>): string {
  const amount = withThousands(Math.abs(row.amount));
  return row.direction === 'sent' ? `\u2212${amount}` : `+${amount}`;
}

const dash = <span className="text-muted-foreground">—</span>;

/**
 * Spec 3's columns of Token Transaction; the employee's staff number and name on that scope, the
 * company whenever the list spans companies, the merchant beside orders. The event reads as a
 * sentence with its counterparty and is the row's button: it opens the row's order or transfer.
 */
export function transactionsColumns(
  t: TFunction,
  scope: TransactionScope,
  {
    spansCompanies = false,
    onOpen,
  }: { spansCompanies?: boolean; onOpen?: (row: TokenTransaction) => void } = {},
): TransactionColumn[] {
  const amount = 'text-right';
  const company: TransactionColumn[] = spansCompanies
    ? [
        {
          id: 'company',
          header: t('transactions.company'),
          cell: (row) => (
            <span>
              {row.company_name}{' '}
              <span className="font-mono text-muted-foreground">({row.company_code})</span>
            </span>
          ),
        },
      ]
    : [];
  const merchant: TransactionColumn[] =
    scope === 'employee'
      ? [
          {
            id: 'merchant',
            header: t('transactions.merchant'),
            cell: (row) =>
              row.merchant_code ? (
                <span>
                  {row.merchant_name}{' '}
                  <span className="font-mono text-muted-foreground">({row.merchant_code})</span>
                </span>
              ) : (
                dash
              ),
          },
        ]
      : [];
  const employee: TransactionColumn[] =
    scope === 'employee'
      ? [
          {
            id: 'employee_number',
            header: t('transactions.employee_number'),
            cell: (row) => row.employee_number ?? dash,
          },
          {
            id: 'employee_name',
            header: t('transactions.employee_name'),
            cell: (row) => row.employee_name ?? dash,
          },
        ]
      : [];
  return [
    {
      id: 'occurred_at',
      header: t('transactions.date'),
      cell: (row) => <DateTime value={row.occurred_at} />,
    },
    ...company,
    ...employee,
    {
      id: 'event',
      header: t('transactions.event'),
      className: 'whitespace-normal min-w-56',
      cell: (row) => {
        // The event in words, with its counterparty; the filter above names the event kinds.
        const text = describeTransaction(t, row);
        return onOpen ? (
          <button
            type="button"
            className="text-left font-medium underline-offset-4 hover:underline focus-visible:underline focus-visible:outline-none"
            onClick={(event) => {
              event.stopPropagation();
              onOpen(row);
            }}
          >
            {text}
          </button>
        ) : (
          <span className="font-medium">{text}</span>
        );
      },
    },
    {
      id: 'amount',
      header: t('transactions.token_change'),
      className: amount,
      cell: (row) => (
        <span
          className={
            row.direction === 'sent'
              ? 'text-destructive tabular-nums'
              : 'text-emerald-700 tabular-nums dark:text-emerald-400'
          }
        >
          {signedTokens(row)}
        </span>
      ),
    },
    {
      id: 'balance_before',
      header: t('transactions.balance_before'),
      className: amount,
      cell: (row) => <Tokens value={row.balance_before} />,
    },
    {
      id: 'balance_after',
      header: t('transactions.balance_after'),
      className: amount,
      cell: (row) => <Tokens value={row.balance_after} />,
    },
    {
      id: 'direction',
      header: t('transactions.type'),
      cell: (row) => t(`transactions.directions.${row.direction}`),
    },
    {
      id: 'order_no',
      header: t('transactions.order_no'),
      className: 'font-mono',
      cell: (row) => row.order_no ?? dash,
    },
    {
      id: 'ordered_at',
      header: t('transactions.ordered_at'),
      cell: (row) => <DateTime value={row.ordered_at} />,
    },
    {
      id: 'order_type',
      header: t('transactions.order_type'),
      cell: (row) => (row.order_type ? orderTypeLabel(t, row.order_type) : dash),
    },
    ...merchant,
    {
      id: 'order_status',
      header: t('transactions.order_status'),
      cell: (row) =>
        row.order_refund_state ? <RefundStateBadge state={row.order_refund_state} /> : dash,
    },
    {
      id: 'order_subtotal',
      header: t('transactions.subtotal'),
      className: amount,
      cell: (row) => <Tokens value={row.order_subtotal} />,
    },
  ];
}
