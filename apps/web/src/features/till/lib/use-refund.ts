import { useCallback, useEffect, useRef, useState } from 'react';
import { newIdempotencyKey } from '@/lib/api-client';
import { refundAtTill, type RefundBody, type RefundResult, type TillOrder } from '../api/till';
import {
  clearPendingRefund,
  loadPendingRefund,
  savePendingRefund,
  type PendingRefund,
} from './pending-refund';
import { sendUntilAnswered } from './send-until-answered';

export type RefundState =
  | { phase: 'idle' }
  | { phase: 'sending' | 'waiting'; pending: PendingRefund }
  | { phase: 'refunded'; pending: PendingRefund; result: RefundResult }
  | { phase: 'failed'; pending: PendingRefund; error: unknown };

/**
 * One refund at a time, never lost and never twice, as a charge (use-charge.ts): its
 * Idempotency-Key is kept in localStorage from before it is sent until an HTTP answer, sent again
 * with the same key meanwhile ("waiting for the network"), also after a reload (a pending refund
 * found on mount is resumed). `onAnswered` runs after a refund went through.
 */
export function useRefund(onRefunded?: (result: RefundResult) => void) {
  const [state, setState] = useState<RefundState>(() => {
    const pending = loadPendingRefund();
    return pending ? { phase: 'waiting', pending } : { phase: 'idle' };
  });
  const controller = useRef<AbortController | null>(null);
  const refunded = useRef(onRefunded);
  useEffect(() => {
    refunded.current = onRefunded;
  });

  const run = useCallback((pending: PendingRefund) => {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    sendUntilAnswered(() => refundAtTill(pending.order_id, pending.key, pending.body), {
      signal: abort.signal,
      onWaiting: () => setState({ phase: 'waiting', pending }),
    }).then(
      (result) => {
        clearPendingRefund();
        if (abort.signal.aborted) return;
        setState({ phase: 'refunded', pending, result });
        refunded.current?.(result);
      },
      (error: unknown) => {
        if (abort.signal.aborted) return; // unmounted: the pending refund resumes next time
        clearPendingRefund();
        setState({ phase: 'failed', pending, error });
      },
    );
  }, []);

  // A refund left pending by a reload is sent again with its key.
  useEffect(() => {
    const pending = loadPendingRefund();
    if (pending) run(pending);
    return () => controller.current?.abort();
  }, [run]);

  const refund = useCallback(
    (order: TillOrder, body: RefundBody) => {
      const pending: PendingRefund = {
        key: newIdempotencyKey(),
        order_id: order.id,
        order_no: order.order_no,
        body,
        started_at: new Date().toISOString(),
      };
      savePendingRefund(pending);
      setState({ phase: 'sending', pending });
      run(pending);
    },
    [run],
  );

  const reset = useCallback(() => setState({ phase: 'idle' }), []);
  return { state, refund, reset };
}
