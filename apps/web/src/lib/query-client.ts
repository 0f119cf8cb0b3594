import {
  MutationCache,
  notifyManager,
  QueryCache,
  QueryClient,
  QueryClientProvider,
  QueryObserver,
} from '@tanstack/react-query';
import type { ApiError } from './api-error';
import { showErrorToast } from './error-display';
import { registerQueryRuntime, type QueryRuntime } from './query-client-registry';

declare module '@tanstack/react-query' {
  interface Register {
    defaultError: ApiError;
    queryMeta: { silentError?: boolean };
    mutationMeta: { silentError?: boolean };
  }
}

/**
 * The one query client (spec 4: no retries, no refetch on window focus). Failures are shown in
 * one place by the display rule; a query or mutation opts out with `meta: { silentError: true }`.
 */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (error, query) => {
      if (!query.meta?.silentError) showErrorToast(error);
    },
  }),
  mutationCache: new MutationCache({
    onError: (error, _variables, _context, mutation) => {
      if (!mutation.meta?.silentError) showErrorToast(error);
    },
  }),
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

/** What the first load's late queries and providers need of the library (decision 0060). */
export const queryRuntime: QueryRuntime = {
  queryClient,
  QueryObserver,
  QueryClientProvider,
  notifyManager,
};

registerQueryRuntime(queryRuntime);
