import { useCallback, useEffect, useRef, useState } from 'react';
import { newIdempotencyKey } from '@/lib/api-client';
import { chargeAtTill, type ChargeBody, type PlacedOrder } from '../api/till';
import {
  clearPendingCharge,
  loadPendingCharge,
  savePendingCharge,
  type PendingCharge,
} from './pending-charge';
import { sendUntilAnswered } from './send-until-answered';

export type ChargeState =
  | { phase: 'idle' }
  | { phase: 'sending'; pending: PendingCharge }
  | { phase: 'waiting'; pending: PendingCharge }
  | { phase: 'approved'; order: PlacedOrder }
  | { phase: 'declined'; error: unknown };

/**
 * One charge at a time, never lost and never twice (DESIGN 8): a charge's Idempotency-Key is kept
 * in localStorage from before it is sent until an HTTP answer; without one ("waiting for the
 * network") it is sent again with the same key, also after a reload (a pending charge found on
 * mount is resumed). The answer is drawn as it arrives (nothing is fetched before); `onApproved`
 * then gets the order placed.
 */
export function useCharge(onApproved?: (order: PlacedOrder) => void) {
  const [state, setState] = useState<ChargeState>(() => {
    const pending = loadPendingCharge();
    return pending ? { phase: 'waiting', pending } : { phase: 'idle' };
  });
  const controller = useRef<AbortController | null>(null);
  const approved = useRef(onApproved);
  useEffect(() => {
    approved.current = onApproved;
  });

  const run = useCallback((pending: PendingCharge) => {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    sendUntilAnswered(() => chargeAtTill(pending.terminal_id, pending.key, pending.body), {
      signal: abort.signal,
      onWaiting: () => setState({ phase: 'waiting', pending }),
    }).then(
      (order) => {
        clearPendingCharge();
        if (abort.signal.aborted) return;
        setState({ phase: 'approved', order });
        approved.current?.(order);
      },
      (error: unknown) => {
        if (abort.signal.aborted) return; // unmounted: the pending charge resumes next time
        clearPendingCharge();
        setState({ phase: 'declined', error });
      },
    );
  }, []);

  // A charge left pending by a reload (or an earlier screen) is sent again with its key.
  useEffect(() => {
    const pending = loadPendingCharge();
    if (pending) run(pending);
    return () => controller.current?.abort();
  }, [run]);

  const charge = useCallback(
    (terminalId: number, body: ChargeBody) => {
      const pending: PendingCharge = {
        key: newIdempotencyKey(),
        terminal_id: terminalId,
        body,
        started_at: new Date().toISOString(),
      };
      savePendingCharge(pending);
      setState({ phase: 'sending', pending });
      run(pending);
    },
    [run],
  );

  const reset = useCallback(() => setState({ phase: 'idle' }), []);
  return { state, charge, reset };
}
