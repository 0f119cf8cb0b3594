import { useSyncExternalStore } from 'react';
import type {
  notifyManager,
  QueryClient,
  QueryClientProvider,
  QueryKey,
  QueryObserver,
} from '@tanstack/react-query';

/**
 * TanStack Query once its module has loaded (lib/query-client.ts registers it), for the code of
 * the first load, which must not bring the library with it: the sign-in page sends no query
 * library (decision 0044), and the dashboard and its shell draw their first answers without it
 * and load it after the first paint (decision 0060, lib/late-query.ts). Before the client exists
 * nothing was fetched or cached through it: the answers the server drew the page with wait here
 * (`seedQueries`) and start its cache. lib/load-query-runtime.ts loads it.
 */
export interface QueryRuntime {
  queryClient: QueryClient;
  QueryObserver: typeof QueryObserver;
  QueryClientProvider: typeof QueryClientProvider;
  notifyManager: typeof notifyManager;
}

let runtime: QueryRuntime | null = null;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

/**
 * The query cache calls its listeners at once, also while a component renders (a `useQuery`
 * adds its query then): telling the navigation bar there made React warn "Cannot update a
 * component while rendering a different component". Told in a microtask instead, once for all
 * the events of a render, as TanStack Query's own `useIsFetching` batches them.
 */
let queued = false;
const notifySoon = () => {
  if (queued) return;
  queued = true;
  queueMicrotask(() => {
    queued = false;
    notify();
  });
};

/** TanStack Query's own key hash (query-core `hashKey`): objects' keys sorted. */
export function hashQueryKey(queryKey: QueryKey): string {
  return JSON.stringify(queryKey, (_, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((key) => [key, (value as Record<string, unknown>)[key]]),
        )
      : value,
  );
}

/** The answers a page was drawn with (lib/server-queries.ts), by key hash, until the client. */
const seeds = new Map<string, { queryKey: QueryKey; data: unknown }>();

/** Answers the late queries start with, and the client's cache when it comes. */
export function seedQueries(queries: readonly { queryKey: QueryKey; data: unknown }[]): void {
  for (const { queryKey, data } of queries) {
    seeds.set(hashQueryKey(queryKey), { queryKey, data });
    runtime?.queryClient.setQueryData(queryKey, data);
  }
  notify();
}

/** The seeded answer for `queryKey`, if any. */
export function seededData(queryKey: QueryKey): { data: unknown } | undefined {
  return seeds.get(hashQueryKey(queryKey));
}

/** Forgets the seeds (the server entry, after each render; a sign-out). */
export function clearSeeds(): void {
  seeds.clear();
}

export function registerQueryRuntime(loaded: QueryRuntime): void {
  runtime = loaded;
  for (const { queryKey, data } of seeds.values()) {
    if (loaded.queryClient.getQueryData(queryKey) === undefined) {
      loaded.queryClient.setQueryData(queryKey, data);
    }
  }
  loaded.queryClient.getQueryCache().subscribe(notifySoon);
  notify();
}

/** The runtime if it has loaded. */
export function getQueryRuntime(): QueryRuntime | null {
  return runtime;
}

/** Forgets every cached answer of the query client, if there is one yet, and the seeds. */
export function clearQueryCache(): void {
  clearSeeds();
  runtime?.queryClient.clear();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/**
 * The runtime once loaded. While React hydrates a page the server drew, null as on the server,
 * so that the first render is the drawn page whenever the library arrives.
 */
export function useQueryRuntime(): QueryRuntime | null {
  return useSyncExternalStore(
    subscribe,
    () => runtime,
    () => null,
  );
}

/** Late queries waiting for the client to fetch (lib/late-query.ts): fetching, for the bar. */
let waiting = 0;
export function addWaitingQuery(): () => void {
  waiting += 1;
  notifySoon();
  return () => {
    waiting -= 1;
    notifySoon();
  };
}

/** How many queries are fetching, as TanStack Query's `useIsFetching()`. */
export function useQueriesFetching(): number {
  return useSyncExternalStore(
    subscribe,
    () => (runtime ? runtime.queryClient.isFetching() : waiting),
    () => 0,
  );
}
