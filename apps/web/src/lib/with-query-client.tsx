import type { ComponentType } from 'react';
import { loadQueryRuntime } from './load-query-runtime';
import type { QueryRuntime } from './query-client-registry';

/**
 * `component`, once TanStack Query has loaded, inside its provider: for the screens and overlays
 * the first load fetches later and which use the library's own hooks (decision 0060).
 */
export function withQueryClient<P extends object>(
  component: ComponentType<P>,
  runtime: QueryRuntime,
): ComponentType<P> {
  const Component = component;
  const { QueryClientProvider, queryClient } = runtime;
  function WithQueryClient(props: P) {
    return (
      <QueryClientProvider client={queryClient}>
        <Component {...props} />
      </QueryClientProvider>
    );
  }
  return WithQueryClient;
}

/** `load` (a lazy module with `key`, a component) and the library, the component in its provider. */
export function loadWithQueryClient<M, K extends keyof M>(
  load: () => Promise<M>,
  key: K,
): () => Promise<M> {
  return () =>
    Promise.all([load(), loadQueryRuntime()]).then(([module, runtime]) => {
      const component = module[key] as ComponentType<object> | undefined;
      if (!component) return module;
      return { ...module, [key]: withQueryClient(component, runtime) };
    });
}
