import { useCallback, useEffect, useRef, useState } from 'react';

/** The last answer for one key: its data or its error, and which request it answered. */
interface Settled<T> {
  key: string;
  request: number;
  data?: T;
  error?: unknown;
}

export interface Resource<T> {
  data: T | undefined;
  error: unknown;
  /** No answer for this key yet, or a retry after an error. */
  isPending: boolean;
  isError: boolean;
  /** A request is out (the first, a retry, or a refresh that keeps the data on screen). */
  isFetching: boolean;
  /** Asks again; the data stays on screen meanwhile. */
  refetch: () => void;
  /** Changes the data on screen at once (an answer that says what changed), until the next. */
  update: (change: (data: T) => T) => void;
}

/**
 * One GET's answer for a component, asked again when `key` changes, on `refetch`, or when the
 * browser is back online after it failed (null: not asked). The till's own: its first load leaves TanStack Query out (first-load.test.ts); it
 * needs no more than this for its two lists.
 */
export function useResource<T>(
  key: string | null,
  load: (signal: AbortSignal) => Promise<T>,
): Resource<T> {
  const [settled, setSettled] = useState<Settled<T> | null>(null);
  const [request, setRequest] = useState(0);
  const loader = useRef(load);
  useEffect(() => {
    loader.current = load;
  });

  useEffect(() => {
    if (key === null) return undefined;
    const abort = new AbortController();
    loader.current(abort.signal).then(
      (data) => {
        if (!abort.signal.aborted) setSettled({ key, request, data });
      },
      (error: unknown) => {
        if (!abort.signal.aborted) setSettled({ key, request, error });
      },
    );
    return () => abort.abort();
  }, [key, request]);

  const current = settled !== null && settled.key === key ? settled : null;
  const isFetching = key !== null && (current === null || current.request !== request);
  const failed = current !== null && 'error' in current;
  const refetch = useCallback(() => setRequest((n) => n + 1), []);

  // Failed for want of a network (the till opened offline): asked again once it is back.
  useEffect(() => {
    if (!failed) return undefined;
    window.addEventListener('online', refetch);
    return () => window.removeEventListener('online', refetch);
  }, [failed, refetch]);
  const update = useCallback(
    (change: (data: T) => T) =>
      setSettled((last) =>
        last && last.key === key && last.data !== undefined
          ? { ...last, data: change(last.data) }
          : last,
      ),
    [key],
  );
  return {
    data: failed ? undefined : current?.data,
    error: failed ? current.error : undefined,
    isPending: key !== null && (current === null || (failed && isFetching)),
    isError: failed && !isFetching,
    isFetching,
    refetch,
    update,
  };
}
