import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import type {
  DefaultError,
  QueryKey,
  QueryObserver,
  QueryObserverResult,
  UseQueryOptions,
  UseQueryResult,
} from '@tanstack/react-query';
import { loadQueryRuntime } from './load-query-runtime';
import { addWaitingQuery, seededData, useQueryRuntime } from './query-client-registry';

const noop = () => undefined;

/** Results before the client, by key, enabled and seed: the same object while nothing changes. */
const early = new WeakMap<object, Map<string, UseQueryResult<unknown, DefaultError>>>();
const NO_SEED = {};

/**
 * The result a query has before TanStack Query has loaded: the answer the server drew the page
 * with (lib/server-queries.ts), or pending, fetching when enabled (the client fetches it as soon
 * as it has loaded).
 */
function earlyResult<TData>(
  queryKey: QueryKey,
  enabled: boolean,
  select: ((data: never) => TData) | undefined,
): UseQueryResult<TData, DefaultError> {
  const seed = seededData(queryKey);
  const byKey = early.get(seed ?? NO_SEED) ?? new Map();
  early.set(seed ?? NO_SEED, byKey);
  const cacheKey = `${JSON.stringify(queryKey)}|${enabled}`;
  const cached = byKey.get(cacheKey);
  if (cached) return cached as UseQueryResult<TData, DefaultError>;
  const refetch = async () => {
    const { queryClient } = await loadQueryRuntime();
    await queryClient.refetchQueries({ queryKey, exact: true });
    return queryClient.getQueryCache().find({ queryKey, exact: true })?.state as never;
  };
  const common = {
    error: null,
    errorUpdatedAt: 0,
    errorUpdateCount: 0,
    failureCount: 0,
    failureReason: null,
    isError: false,
    isLoadingError: false,
    isRefetchError: false,
    isPaused: false,
    isPlaceholderData: false,
    isRefetching: false,
    isFetchedAfterMount: false,
    refetch,
    promise: new Promise<never>(noop),
  } as const;
  const fetching = enabled && !seed;
  const result = (seed
    ? {
        ...common,
        data: select ? select(seed.data as never) : seed.data,
        dataUpdatedAt: 0,
        status: 'success',
        fetchStatus: 'idle',
        isPending: false,
        isSuccess: true,
        isLoading: false,
        isInitialLoading: false,
        isFetching: false,
        isFetched: true,
        isStale: false,
        isEnabled: enabled,
      }
    : {
        ...common,
        data: undefined,
        dataUpdatedAt: 0,
        status: 'pending',
        fetchStatus: fetching ? 'fetching' : 'idle',
        isPending: true,
        isSuccess: false,
        isLoading: fetching,
        isInitialLoading: fetching,
        isFetching: fetching,
        isFetched: false,
        isStale: true,
        isEnabled: enabled,
      }) as unknown as UseQueryResult<TData, DefaultError>;
  byKey.set(cacheKey, result as UseQueryResult<unknown, DefaultError>);
  return result;
}

/**
 * TanStack Query's `useQuery`, for the dashboard and its shell (decision 0060): the library is not
 * in their first load. Until it has loaded, the answer the server drew the page with, or pending;
 * then the same `QueryObserver` on the app's one client as `useQuery` would subscribe (its
 * `useBaseQuery`, without suspense or error boundaries, which these queries do not use). Asking
 * for a query loads the library, after the render that asked.
 */
export function useLateQuery<
  TQueryFnData = unknown,
  TError = DefaultError,
  TData = TQueryFnData,
  TQueryKey extends QueryKey = QueryKey,
>(options: UseQueryOptions<TQueryFnData, TError, TData, TQueryKey>): UseQueryResult<TData, TError> {
  const runtime = useQueryRuntime();
  const enabled = options.enabled !== false;
  type Observer = QueryObserver<TQueryFnData, TError, TData, TQueryFnData, TQueryKey>;
  const defaulted = runtime?.queryClient.defaultQueryOptions(options);
  if (defaulted) defaulted._optimisticResults = 'optimistic';
  // One observer once the client is there, as `useQuery`'s `useState`; its options follow in the
  // effect below (`setOptions`), so they are not among the dependencies.
  const observer = useMemo(
    () =>
      runtime && defaulted
        ? (new runtime.QueryObserver(runtime.queryClient, defaulted) as Observer)
        : null,
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [runtime],
  );
  const before = earlyResult<TData>(
    options.queryKey,
    enabled,
    options.select as ((data: never) => TData) | undefined,
  ) as UseQueryResult<TData, TError>;

  useSyncExternalStore(
    useCallback(
      (onStoreChange: () => void) => {
        if (!observer || !runtime) return noop;
        const unsubscribe = observer.subscribe(runtime.notifyManager.batchCalls(onStoreChange));
        observer.updateResult();
        return unsubscribe;
      },
      [observer, runtime],
    ),
    () => (observer ? observer.getCurrentResult() : before),
    () => before,
  );
  useEffect(() => {
    if (observer && defaulted) observer.setOptions(defaulted);
  }, [observer, defaulted]);
  const isWaiting = !observer && before.isFetching;
  useEffect(() => {
    if (runtime) return undefined;
    void loadQueryRuntime();
    return isWaiting ? addWaitingQuery() : undefined;
  }, [runtime, isWaiting]);

  if (!observer || !defaulted) return before;
  const result = observer.getOptimisticResult(defaulted) as QueryObserverResult<TData, TError>;
  return observer.trackResult(result) as UseQueryResult<TData, TError>;
}
