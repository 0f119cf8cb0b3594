import type { QueryRuntime } from './query-client-registry';

let loading: Promise<QueryRuntime> | null = null;

/**
 * Loads TanStack Query and the app's client (once, lib/query-client.ts, which registers it in
 * lib/query-client-registry.ts); never before it is asked for (decision 0060).
 */
export function loadQueryRuntime(): Promise<QueryRuntime> {
  loading ??= import('./query-client').then(
    (module) => module.queryRuntime,
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}
