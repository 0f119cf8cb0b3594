import { useLateQuery } from '@/lib/late-query';
import { queryOptions } from '@/lib/query-options';
import type { TokenTransaction, Wallet } from '@app/contract';
import { api } from '@/lib/api-client';

export const walletKeys = {
  all: ['wallet'] as const,
  wallet: ['wallet', 'me'] as const,
  recent: ['wallet', 'recent'] as const,
};

/** GET /me/wallet: the signed-in employee's balance, next reset and pay-code details. */
export async function getWallet(): Promise<Wallet> {
  const response = await api.get('/api/v1/me/wallet');
  return response.data.data;
}

export const walletQueryOptions = () =>
  queryOptions({ queryKey: walletKeys.wallet, queryFn: getWallet, staleTime: 30_000 });

export const useWallet = () => useLateQuery(walletQueryOptions());

/** How many of its own ledger rows the home screen shows. */
export const RECENT_LIMIT = 10;

/**
 * The employee's newest ledger rows: GET /tokens/transactions, which the server limits to the
 * employee's own wallet (the `self` scope); nothing is filtered here.
 */
export async function getRecentTransactions(): Promise<TokenTransaction[]> {
  const response = await api.get('/api/v1/tokens/transactions', {
    params: { query: { limit: RECENT_LIMIT } },
  });
  return response.data.data;
}

export const recentTransactionsQueryOptions = () =>
  queryOptions({ queryKey: walletKeys.recent, queryFn: getRecentTransactions, staleTime: 30_000 });

export const useRecentTransactions = () => useLateQuery(recentTransactionsQueryOptions());
