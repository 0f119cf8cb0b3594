import { useSyncExternalStore } from 'react';
import type { QueryClient } from '@tanstack/react-query';

/**
 * The query client once its module has loaded (lib/query-client.ts registers it), for the code of
 * the first load that must not bring TanStack Query with it (decision 0044: the sign-in page
 * sends no query library): the navigation bar's "still fetching", and the sign-out that forgets
 * every cached answer. Before the client exists nothing was fetched or cached through it.
 */
let client: QueryClient | null = null;
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

export function registerQueryClient(queryClient: QueryClient): void {
  client = queryClient;
  queryClient.getQueryCache().subscribe(notifySoon);
  notify();
}

/** Forgets every cached answer of the query client, if there is one yet. */
export function clearQueryCache(): void {
  client?.clear();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** How many queries are fetching, as TanStack Query's `useIsFetching()`; 0 before the client. */
export function useQueriesFetching(): number {
  return useSyncExternalStore(
    subscribe,
    () => client?.isFetching() ?? 0,
    () => 0,
  );
}
