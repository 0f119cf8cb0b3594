import { isApiError } from '@/lib/api-error';

/** How long the till waits between two tries while the network is down. */
export const RETRY_DELAY_MS = 2000;

/** Resolves after `ms`, or as soon as the browser says it is back online. */
function nextTry(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      window.clearTimeout(timer);
      window.removeEventListener('online', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = window.setTimeout(done, ms);
    window.addEventListener('online', done);
    signal.addEventListener('abort', done);
  });
}

/** No HTTP answer came back: the request may or may not have reached the server. */
export const isNoAnswer = (error: unknown): boolean =>
  isApiError(error) && error.kind === 'network';

/**
 * Calls `send` until an HTTP answer comes back (a success or an error response), calling
 * `onWaiting` at each failure without one. The caller sends the same Idempotency-Key each time,
 * so the server applies the request once and answers every retry with its first answer.
 * Stops (rejecting with an AbortError) once `signal` aborts.
 */
export async function sendUntilAnswered<T>(
  send: () => Promise<T>,
  { signal, onWaiting }: { signal: AbortSignal; onWaiting: () => void },
): Promise<T> {
  for (;;) {
    if (signal.aborted) throw new DOMException('Aborted', 'AbortError');
    try {
      return await send();
    } catch (error) {
      if (!isNoAnswer(error)) throw error;
      if (signal.aborted) throw new DOMException('Aborted', 'AbortError');
      onWaiting();
      await nextTry(RETRY_DELAY_MS, signal);
    }
  }
}
